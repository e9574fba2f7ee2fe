// One chart: a Chart.js canvas plus the same numbers as a table for screen readers (and for the
// end-to-end tests, which check the points a chart was drawn from). Updates reuse the chart.
import Chart from 'chart.js/auto';
import type { ChartConfiguration, LegendItem } from 'chart.js';
import { useEffect, useId, useRef } from 'react';
import { formatCount } from '../lib/units';
import { settingsAxis, wholeNumberTicks } from './axes';
import { phaseBands, setBands, type Band } from './bands';
import { anyCut, CUT_NOTE, errorBars } from './error-bars';
import { axisOf, rightScale } from './right-axis';
import { coloursByKey, cssVar, DASH_PATTERN, paletteColours, type Dash } from './palette';

export { spreadColour } from './palette';

export interface Point {
  x: number;
  y: number | null;
  /** Half-width of an error bar (95 % CI), drawn when present. */
  err?: number;
}

export interface Series {
  label: string;
  points: Point[];
  /** line (default): points joined; points: markers only; curve: a smooth line without markers; dashed: a dashed curve (bounds, caps). */
  style?: 'line' | 'points' | 'curve' | 'dashed';
  /** Draw in the colour of that earlier series (e.g. both bounds of an interval), and leave it out of the legend. */
  sameColourAs?: number;
  /** Series of one group (a setting's mean and p99) share a colour, and differ by `dash`. */
  group?: string;
  dash?: Dash;
  /** A rate over each interval ending at its point's x, drawn level across the interval (the
   *  first interval starts at the series' first x, a point added before it). */
  stepped?: boolean;
  /** Drawn against the right y axis (its title: the chart's rightLabel), in a unit of its own. */
  axis?: 'right';
}

export interface ChartFigureProps {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  series: Series[];
  xLabel: string;
  yLabel: string;
  /** The right y axis's title, for series drawn on it (e.g. '°C' beside IOPS); none: no right
   *  axis. */
  rightLabel?: string;
  xLog?: boolean;
  /** The x axis counts whole units (storage nodes, rounds) though a fitted line between them
   *  is drawn at fractions: ticks only at whole numbers. */
  xWhole?: boolean;
  /** The x axis starts at 0 (seconds since a run started), not at the first point. */
  xFromZero?: boolean;
  /** Plot x on a base-2 axis with one tick per doubling (access sizes): 4K, 8K, 16K, ... */
  xLog2?: boolean;
  yLog?: boolean;
  /** Bar charts: the category names, indexed by point x. */
  categories?: string[];
  formatX?: (x: number) => string;
  formatY?: (y: number) => string;
  /** Shown instead of the chart when there is nothing to draw: say what would fill it. */
  empty?: string;
  /** The accessible table holds only each series' last N points (a live chart grows every second). */
  tableLast?: number;
  /** Shaded, named spans of the x axis behind the lines (a sustained-write test's phases). */
  bands?: Band[];
}

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
/** Rows per series in the accessible table (the first; `tableLast`: the last); the caption says so. */
export const TABLE_ROWS = 200;

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
    data: bar ? s.points.map((p) => p.y)
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
    stepped: s.stepped ? ('after' as const) : false,
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
    const ticks = axisTicks(theme, format);
    return { ...common, type: 'logarithmic' as const, ...settingsAxis(xs, true), ticks };
  }
  const whole = props.xWhole ? { precision: 0 } : wholeNumberTicks(xs);
  const ticks = { ...axisTicks(theme, format), ...whole };
  return { ...common, type: 'linear' as const, ticks, ...(props.xFromZero ? { min: 0 } : {}) };
}

function config(props: ChartFigureProps): ChartConfiguration {
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
      },
      scales: {
        x: xScale(props, theme),
        y: { type: props.yLog ? 'logarithmic' : 'linear', beginAtZero: !props.yLog,
          title: { display: true, text: props.yLabel, color: theme.fg },
          ticks: axisTicks(theme, props.formatY ?? formatCount), grid: { color: theme.grid } },
        ...rightScale(props.rightLabel, theme),
      },
    },
    plugins: [errorBars, phaseBands],
  };
}

/** What the picture depends on (the formatters are assumed to follow from the rest), so an unchanged chart is not redrawn. */
function drawKey(props: ChartFigureProps): string {
  const { kind, series, xLabel, yLabel, rightLabel, categories, title } = props;
  const axes = [props.xLog, props.xLog2, props.xWhole, props.xFromZero, props.yLog];
  const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  return JSON.stringify([kind, series, xLabel, yLabel, rightLabel, axes, categories, title,
    props.bands, dark]);
}

export const DRAWN_MARK = 'ssdprof:chart-drawn';

/** Set by an end-to-end test before the app loads: handed every chart as drawn, to check that what
 *  its legend names is on the canvas (e2e/charts-drawn.ts). */
type ChartProbe = (id: string, chart: Chart) => void;

/** A performance mark per drawn chart, for bench/ui.mjs (a PerformanceObserver sees it); cleared at once so a long live run does not fill the timeline. */
function markDrawn(id: string, chart: Chart): void {
  performance.mark(DRAWN_MARK, { detail: id });
  performance.clearMarks(DRAWN_MARK);
  (window as { ssdprofChartProbe?: ChartProbe }).ssdprofChartProbe?.(id, chart);
}

export function ChartFigure(props: ChartFigureProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const drawn = useRef('');
  const titleId = useId();
  const hasData = props.series.some((s) => s.points.length > 0);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !hasData) {
      chart.current?.destroy();
      chart.current = null;
      return;
    }
    const reusable = chart.current && chart.current.canvas === element && (chart.current.config as { type?: string }).type === props.kind;
    const key = drawKey(props);
    if (chart.current && reusable && key === drawn.current) return; // a parent re-rendered; the picture is the same
    drawn.current = key;
    setBands(element, props.bands ?? []);
    const next = config(props);
    if (chart.current && reusable) {
      chart.current.data = next.data;
      chart.current.options = next.options ?? {};
      chart.current.update('none');
      markDrawn(props.id, chart.current);
      return;
    }
    chart.current?.destroy();
    if (!element.getContext('2d')) return; // no canvas support (a test DOM): the table still has the numbers
    chart.current = new Chart(element, next);
    markDrawn(props.id, chart.current);
  });

  useEffect(() => () => {
    chart.current?.destroy();
    chart.current = null;
  }, []);

  const fx = props.formatX ?? ((x: number) => (props.categories ? (props.categories[x] ?? String(x)) : String(x)));
  const fy = props.formatY ?? ((y: number) => String(Number(y.toPrecision(4))));
  return (
    <figure className="chart" data-chart={props.id} aria-labelledby={titleId}>
      <figcaption id={titleId}>{props.title}</figcaption>
      {hasData ? (
        <div className="chart-canvas">
          <canvas ref={canvas} role="img" aria-label={`${props.title}: ${props.yLabel} against ${props.xLabel}`} />
        </div>
      ) : (
        <p className="empty">{props.empty ?? 'Nothing to draw yet.'}</p>
      )}
      {hasData && anyCut(props.series) ? <p className="chart-note">{CUT_NOTE}</p> : null}
      <div className="sr-only">{/* a table ignores its own size, so a wrapper hides it */}
      <table>
        <caption>{props.title}{tableNote(props)}</caption>
        <thead>
          <tr><th scope="col">series</th><th scope="col">{props.xLabel}</th><th scope="col">{props.yLabel}</th><th scope="col">± 95 % CI</th></tr>
        </thead>
        <tbody>
          {props.series.flatMap((s) => tail(s.points, props.tableLast).map(({ p, i }) => (
            <tr key={`${s.label}-${i}`} data-x={p.x} data-y={p.y ?? ''}>
              <td>{s.label}</td><td>{fx(p.x)}</td><td>{p.y === null ? '–' : fy(p.y)}</td><td>{p.err ? fy(p.err) : ''}</td>
            </tr>
          )))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}

/** The table's rows of a series: its last `last` points, else its first TABLE_ROWS. */
function tail(points: Point[], last: number | undefined): { p: Point; i: number }[] {
  const from = last === undefined ? 0 : Math.max(0, points.length - last);
  const to = last === undefined ? TABLE_ROWS : points.length;
  return points.slice(from, to).map((p, k) => ({ p, i: from + k }));
}

function tableNote(props: ChartFigureProps): string {
  if (props.tableLast !== undefined) return ` (each series' last ${props.tableLast} points)`;
  const most = Math.max(0, ...props.series.map((s) => s.points.length));
  return most > TABLE_ROWS ? ` (each series' first ${TABLE_ROWS} points; the longest has ${most.toLocaleString('en-US')})` : '';
}
