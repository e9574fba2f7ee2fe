// A figure's series and axes as a Chart.js configuration: colours, dashes, markers, legend and scales.
import Chart from 'chart.js/auto';
import type { ChartConfiguration, LegendItem } from 'chart.js';
import { formatCount } from '../lib/units';
import { logLabelled, settingsAxis, wholeNumberTicks } from './axes';
import { phaseBands } from './bands';
import type { ChartFigureProps, Series } from './ChartFigure';
import { errorBars } from './error-bars';
import { ninesPoints, ninesScale, ninesTooltip } from './nines';
import { axisOf, rightScale } from './right-axis';
import { coloursByKey, cssVar, DASH_PATTERN, paletteColours } from './palette';

/** Series of one group share a colour; others have their own, or that of `sameColourAs`. */
function seriesColours(series: Series[]): string[] {
  const keyOf = (i: number): string => {
    const s = series[i]!;
    return s.sameColourAs !== undefined ? keyOf(s.sameColourAs) : s.group ?? `#${i}`;
  };
  return coloursByKey(series.map((_, i) => keyOf(i)), paletteColours());
}

function dashOf(s: Series): number[] | undefined {
  return DASH_PATTERN[s.dash ?? (s.style === 'dashed' ? 'dashed' : 'solid')];
}

/** Markers beyond which a line's are hidden (the line still joins its points) and a points
 *  series' are drawn small. */
const MARKED = 60;
/** Markers a points series draws at most: beyond, every k-th, and its legend says so. */
export const MAX_MARKS = 2000;

/** A points series of more than MAX_MARKS points thinned to every k-th, its label saying so: a
 *  chart never leaves out in silence what its legend names. */
export function thinned(s: Series): Series {
  if (s.style !== 'points' || s.points.length <= MAX_MARKS) return s;
  const every = Math.ceil(s.points.length / MAX_MARKS);
  const nth = every === 2 ? '2nd' : every === 3 ? '3rd' : `${every}th`;
  return { ...s, label: `${s.label} (every ${nth} of ${s.points.length.toLocaleString('en-US')} drawn)`,
    points: s.points.filter((_, i) => i % every === 0) };
}

function radius(s: Series): number {
  if (s.style === 'points') return s.points.length > MARKED ? 2 : 4;
  return s.style === 'curve' || s.style === 'dashed' || s.points.length > MARKED ? 0 : 3;
}

function datasets(props: ChartFigureProps) {
  const colours = seriesColours(props.series);
  const bar = props.kind === 'bar';
  return props.series.map(thinned).map((s, i) => ({
    label: s.label,
    data: bar ? s.points.map((p) => p.y) : props.nines ? ninesPoints(s.points)
      : s.points.map((p) => ({ x: props.xLog2 ? Math.log2(p.x) : p.x, y: p.y })),
    errors: s.points.some((p) => p.err) ? s.points.map((p) => p.err) : undefined,
    borderColor: colours[i],
    backgroundColor: colours[i],
    pointRadius: radius(s),
    showLine: s.style !== 'points',
    borderDash: dashOf(s),
    borderWidth: s.style === 'dashed' ? 1.5 : 2,
    tension: 0,
    // Chart.js's 'after' draws the segment ending at a point at that point's y (its 'before' holds the previous
    // point's y across it, which drew each second's rate over the second after it)
    stepped: s.stepped || props.nines ? ('after' as const) : false,
    yAxisID: axisOf(s),
  }));
}

/** Chart.js's legend items with each series' dash (a point style takes a point's: none). */
function legendItems(chart: Chart): LegendItem[] {
  return Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
    const dataset = chart.data.datasets[item.datasetIndex ?? -1] as
      { borderDash?: number[]; borderColor?: string } | undefined;
    return { ...item, lineDash: dataset?.borderDash, lineWidth: 2,
      strokeStyle: dataset?.borderColor ?? item.strokeStyle };
  });
}

interface Theme { fg: string; grid: string }

function axisTicks(theme: Theme, format: (v: number) => string) {
  return { color: theme.fg, maxRotation: 0, callback: (v: number | string) => format(Number(v)) };
}

/** A log axis of measured values: labelled at 1, 2 and 5 × 10ⁿ once it spans decades. */
function logTicks(theme: Theme, format: (v: number) => string) {
  return { color: theme.fg, maxRotation: 0,
    callback: (v: number | string, _: number, ticks: { value: number }[]) => (logLabelled(Number(v), ticks) ? format(Number(v)) : '') };
}

/** The x scale: categories, sizes by doubling, or values (ticked at the settings where few). */
function xScale(props: ChartFigureProps, theme: Theme) {
  const title = { display: true, text: props.xLabel, color: theme.fg };
  const common = { title, grid: { color: theme.grid } };
  const format = props.formatX ?? formatCount;
  if (props.kind === 'bar') {
    return { ...common, type: 'category' as const, ticks: { color: theme.fg } };
  }
  if (props.xLog2) {
    const ticks = { ...axisTicks(theme, (v) => format(2 ** v)), stepSize: 1 };
    return { ...common, type: 'linear' as const, ticks };
  }
  const xs = props.series.flatMap((s) => s.points.map((p) => p.x));
  if (props.xLog) {
    const settings = settingsAxis(xs, true); // a few settings: ticked and labelled where measured
    const ticks = ('min' in settings ? axisTicks : logTicks)(theme, format);
    return { ...common, type: 'logarithmic' as const, ...settings, ticks };
  }
  const whole = props.xWhole ? { precision: 0 } : wholeNumberTicks(xs);
  const ticks = { ...axisTicks(theme, format), ...whole };
  return { ...common, type: 'linear' as const, ticks, ...(props.xFromZero ? { min: 0 } : {}) };
}

/** A distribution's axes (props.nines): the percentile across on nines, the latency (the points'
 *  x) up a log axis. */
function ninesScales(props: ChartFigureProps, theme: Theme) {
  return {
    x: ninesScale(props.yLabel, theme),
    y: { type: 'logarithmic' as const, title: { display: true, text: props.xLabel, color: theme.fg },
      ticks: logTicks(theme, props.formatX ?? formatCount), grid: { color: theme.grid } },
  };
}

export function config(props: ChartFigureProps): ChartConfiguration {
  const theme = { fg: cssVar('--fg', '#222'), grid: cssVar('--grid', '#ddd') };
  const bar = props.kind === 'bar';
  const shown = (item: { datasetIndex?: number }) =>
    props.series[item.datasetIndex ?? -1]?.sameColourAs === undefined;
  const sets = datasets(props);
  return {
    type: props.kind,
    data: bar ? { labels: props.categories ?? [], datasets: sets } : { datasets: sets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: bar ? undefined : false,
      normalized: true,
      plugins: {
        // one legend everywhere: a line sample with the series' dash (a swatch for bars)
        legend: { labels: { color: theme.fg, usePointStyle: !bar, pointStyle: bar ? 'rect' : 'line',
          pointStyleWidth: 28, generateLabels: legendItems, filter: shown } },
        title: { display: false },
        ...(props.nines ? { tooltip: ninesTooltip(props.xLabel, props.formatX ?? formatCount) } : {}),
      },
      scales: props.nines ? ninesScales(props, theme) : {
        x: xScale(props, theme),
        y: { type: props.yLog ? 'logarithmic' : 'linear', beginAtZero: !props.yLog,
          title: { display: true, text: props.yLabel, color: theme.fg },
          ticks: (props.yLog ? logTicks : axisTicks)(theme, props.formatY ?? formatCount), grid: { color: theme.grid } },
        ...rightScale(props.rightLabel, theme),
      },
    },
    plugins: [errorBars, phaseBands],
  };
}

/** What the picture depends on (the formatters are assumed to follow from the rest), so an unchanged chart is not redrawn. */
export function drawKey(props: ChartFigureProps): string {
  const { kind, series, xLabel, yLabel, rightLabel, categories, title } = props;
  const axes = [props.xLog, props.xLog2, props.xWhole, props.xFromZero, props.yLog, props.nines];
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  return JSON.stringify([kind, series, xLabel, yLabel, rightLabel, axes, categories, title,
    props.bands, dark]);
}
