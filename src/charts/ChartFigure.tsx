// One chart: a Chart.js canvas plus the same numbers as a table for screen readers (and for the
// end-to-end tests, which check the points a chart was drawn from). Updates reuse the chart.
import Chart from 'chart.js/auto';
import type { ChartConfiguration, Plugin } from 'chart.js';
import { useEffect, useId, useRef } from 'react';

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
}

export interface ChartFigureProps {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  series: Series[];
  xLabel: string;
  yLabel: string;
  xLog?: boolean;
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
}

const errorBars: Plugin = {
  id: 'ssdprofErrorBars',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    chart.data.datasets.forEach((dataset, index) => {
      const errors = (dataset as { errors?: (number | undefined)[] }).errors;
      const meta = chart.getDatasetMeta(index);
      if (!errors || meta.hidden) return;
      const yScale = chart.scales[meta.yAxisID ?? 'y'];
      if (!yScale) return;
      ctx.save();
      ctx.strokeStyle = cssVar('--fg', '#222');
      ctx.lineWidth = 1.5;
      meta.data.forEach((element, i) => {
        const err = errors[i];
        const raw = dataset.data[i];
        const value = typeof raw === 'number' ? raw : (raw as { y?: number } | null)?.y;
        if (!err || value === undefined || value === null) return;
        const top = yScale.getPixelForValue(value + err);
        const bottom = yScale.getPixelForValue(Math.max(value - err, 0));
        const { x } = element.getProps(['x'], true) as { x: number };
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.moveTo(x - 5, top);
        ctx.lineTo(x + 5, top);
        ctx.moveTo(x - 5, bottom);
        ctx.lineTo(x + 5, bottom);
        ctx.stroke();
      });
      ctx.restore();
    });
  },
};

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

const PALETTE = ['--chart-1', '--chart-2', '--chart-3', '--chart-4', '--chart-5', '--chart-6'];

/** Colour `index` of `count` when the palette is too short (16 hosts): hues spread evenly round the wheel, so no two repeat. */
export function spreadColour(index: number, count: number): string {
  return `hsl(${Math.round((index * 360) / Math.max(count, 1))} 70% 42%)`;
}

function config(props: ChartFigureProps): ChartConfiguration {
  const fg = cssVar('--fg', '#222');
  const grid = cssVar('--grid', '#ddd');
  const colors = PALETTE.map((v, i) => cssVar(v, ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'][i]!));
  const bar = props.kind === 'bar';
  const colour = (i: number): string => {
    const index = props.series[i]?.sameColourAs ?? i;
    const distinct = props.series.filter((series) => series.sameColourAs === undefined).length;
    return distinct > colors.length ? spreadColour(index, distinct) : colors[index % colors.length]!;
  };
  const datasets = props.series.map((s, i) => ({
    label: s.label,
    data: bar ? s.points.map((p) => p.y) : s.points.map((p) => ({ x: props.xLog2 ? Math.log2(p.x) : p.x, y: p.y })),
    errors: s.points.some((p) => p.err) ? s.points.map((p) => p.err) : undefined,
    borderColor: colour(i),
    backgroundColor: colour(i),
    pointRadius: s.style === 'curve' || s.style === 'dashed' || s.points.length > 60 ? 0 : s.style === 'points' ? 4 : 3,
    showLine: s.style !== 'points',
    borderDash: s.style === 'dashed' ? [6, 4] : undefined,
    borderWidth: s.style === 'dashed' ? 1.5 : 2,
    tension: 0,
  }));
  const tick = (format?: (v: number) => string) => ({ color: fg, ...(format ? { callback: (v: number | string) => format(Number(v)) } : {}) });
  return {
    type: props.kind,
    data: bar ? { labels: props.categories ?? [], datasets } : { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: bar ? undefined : false,
      normalized: true,
      plugins: {
        legend: { labels: { color: fg, filter: (item: { datasetIndex?: number }) => props.series[item.datasetIndex ?? -1]?.sameColourAs === undefined } },
        title: { display: false },
      },
      scales: {
        x: bar
          ? { type: 'category', title: { display: true, text: props.xLabel, color: fg }, ticks: { color: fg }, grid: { color: grid } }
          : props.xLog2
            ? { type: 'linear', title: { display: true, text: props.xLabel, color: fg }, ticks: { ...tick((v) => (props.formatX ?? String)(2 ** v)), stepSize: 1 }, grid: { color: grid } }
            : { type: props.xLog ? 'logarithmic' : 'linear', title: { display: true, text: props.xLabel, color: fg }, ticks: tick(props.formatX), grid: { color: grid } },
        y: { type: props.yLog ? 'logarithmic' : 'linear', beginAtZero: !props.yLog, title: { display: true, text: props.yLabel, color: fg }, ticks: tick(props.formatY), grid: { color: grid } },
      },
    },
    plugins: [errorBars],
  };
}

/** What the picture depends on (the formatters are assumed to follow from the rest), so an unchanged chart is not redrawn. */
function drawKey({ kind, series, xLabel, yLabel, xLog, xLog2, yLog, categories, title }: ChartFigureProps): string {
  return JSON.stringify([kind, series, xLabel, yLabel, xLog, xLog2, yLog, categories, title, window.matchMedia?.('(prefers-color-scheme: dark)').matches]);
}

export const DRAWN_MARK = 'ssdprof:chart-drawn';

/** A performance mark per drawn chart, for bench/ui.mjs (a PerformanceObserver sees it); cleared at once so a long live run does not fill the timeline. */
function markDrawn(id: string): void {
  performance.mark(DRAWN_MARK, { detail: id });
  performance.clearMarks(DRAWN_MARK);
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
    const next = config(props);
    if (chart.current && reusable) {
      chart.current.data = next.data;
      chart.current.options = next.options ?? {};
      chart.current.update('none');
      markDrawn(props.id);
      return;
    }
    chart.current?.destroy();
    if (!element.getContext('2d')) return; // no canvas support (a test DOM): the table still has the numbers
    chart.current = new Chart(element, next);
    markDrawn(props.id);
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
      <div className="sr-only">{/* a table ignores its own size, so a wrapper hides it */}
      <table>
        <caption>{props.title}{props.tableLast !== undefined ? ` (each series' last ${props.tableLast} points)` : ''}</caption>
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

function tail(points: Point[], last: number | undefined): { p: Point; i: number }[] {
  const from = last === undefined ? 0 : Math.max(0, points.length - last);
  return points.slice(from).map((p, k) => ({ p, i: from + k }));
}
