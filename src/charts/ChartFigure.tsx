// One chart: a Chart.js canvas plus the same numbers as a table for screen readers (and for the
// end-to-end tests, which check the points a chart was drawn from). Updates reuse the chart.
import Chart from 'chart.js/auto';
import { useEffect, useId, useRef } from 'react';
import { setBands, type Band } from './bands';
import { config, drawKey } from './chart-config';
import { ChartTable } from './ChartTable';
import { anyCut, CUT_NOTE } from './error-bars';
import type { Dash } from './palette';

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
  /** The series are distributions (x: latency, y: % of I/Os at or below it), drawn as the PDF's:
   *  the percentile across on a 'nines' axis (0, 90, 99, 99.9 …), titled yLabel, the latency up a
   *  log axis, titled xLabel. The table lists the points as given. */
  nines?: boolean;
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
      <ChartTable {...props} />
    </figure>
  );
}
