// Error bars (95 % CI half widths) for Chart.js: the y axis is widened to hold them, and they are
// drawn clipped to the plot area, so a wide interval never runs into the legend or the axis titles.
// An interval wider than its own mean (few repeats: with n = 2 the 95 % interval spans ±12.7 standard
// errors) does not widen the axis (it stretched a bar chart of 60k means to 200k): it is cut at the
// axis end and marked ▲ there, and the chart says so (CUT_NOTE), as the PDF does.
import type { Chart, Plugin, Scale } from 'chart.js';
import { cssVar } from './palette';

interface WithErrors {
  data: unknown[];
  errors?: (number | undefined)[];
}

function yValue(raw: unknown): number | undefined {
  if (typeof raw === 'number') return raw;
  const y = (raw as { y?: number | null } | null)?.y;
  return y === null ? undefined : y;
}

/** Said beside a chart holding an interval wider than its mean (the PDF's caption says the same). */
export const CUT_NOTE = 'An interval wider than its own mean (from few repeats: with n = 2 the 95 % interval spans '
  + '±12.7 standard errors) does not stretch the axis: the axis is scaled to the means and to the intervals no wider '
  + 'than their mean, so the means stay readable, and an interval reaching past its end is cut there and marked ▲.';

/** An interval that would stretch the axis past readability: wider than the mean it is drawn around. */
export function widerThanMean(value: number, err: number): boolean {
  return err > Math.abs(value);
}

/** Whether any point of the series has an interval wider than its mean (the chart then says CUT_NOTE). */
export function anyCut(series: { points: { y: number | null; err?: number }[] }[]): boolean {
  return series.some((s) => s.points.some((p) => p.err !== undefined && p.y !== null && widerThanMean(p.y, p.err)));
}

/** Each visible bar's [bottom, top] on a scale that the axis is to hold: bottoms stop at zero (no rate
 * is negative); an interval wider than its mean is left out (it is cut at the axis end). */
function spans(chart: Chart, scaleId: string): [number, number][] {
  const found: [number, number][] = [];
  chart.data.datasets.forEach((dataset, index) => {
    const { errors, data } = dataset as unknown as WithErrors;
    const meta = chart.getDatasetMeta(index);
    if (!errors || !chart.isDatasetVisible(index) || (meta.yAxisID ?? 'y') !== scaleId) return;
    data.forEach((raw, i) => {
      const value = yValue(raw);
      const err = errors[i];
      if (err && value !== undefined && !widerThanMean(value, err)) found.push([Math.max(value - err, 0), value + err]);
    });
  });
  return found;
}

/** The y axis grows to hold every bar; a log axis only upwards (a bar reaching towards zero would
 * stretch it over decades no point lies in), its bars' lower ends clipped instead. */
function widen(chart: Chart, scale: Scale): void {
  if (scale.axis !== 'y') return;
  for (const [bottom, top] of spans(chart, scale.id)) {
    scale.max = Math.max(scale.max, top);
    if (scale.type !== 'logarithmic') scale.min = Math.min(scale.min, bottom);
  }
}

function drawBar(ctx: CanvasRenderingContext2D, x: number, top: number, bottom: number): void {
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x, bottom);
  ctx.moveTo(x - 5, top);
  ctx.lineTo(x + 5, top);
  ctx.moveTo(x - 5, bottom);
  ctx.lineTo(x + 5, bottom);
  ctx.stroke();
}

/** ▲ on the plot's top edge where an interval runs past it. */
function drawCut(ctx: CanvasRenderingContext2D, x: number, top: number): void {
  ctx.beginPath();
  ctx.moveTo(x - 5, top + 8);
  ctx.lineTo(x, top);
  ctx.lineTo(x + 5, top + 8);
  ctx.closePath();
  ctx.fill();
}

function draw(chart: Chart): void {
  const { ctx, chartArea: area } = chart;
  ctx.save();
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  const colour = cssVar('--fg', '#222');
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  const cuts: number[] = [];
  chart.data.datasets.forEach((dataset, index) => {
    const { errors, data } = dataset as unknown as WithErrors;
    const meta = chart.getDatasetMeta(index);
    const yScale = chart.scales[meta.yAxisID ?? 'y'];
    if (!errors || !yScale || !chart.isDatasetVisible(index)) return;
    meta.data.forEach((element, i) => {
      const value = yValue(data[i]);
      const err = errors[i];
      if (!err || value === undefined) return;
      const low = Math.max(value - err, 0);
      const offLog = low === 0 && yScale.type === 'logarithmic'; // no zero on a log axis
      const bottom = offLog ? area.bottom : yScale.getPixelForValue(low);
      const { x } = element.getProps(['x'], true) as { x: number };
      const top = yScale.getPixelForValue(value + err);
      drawBar(ctx, x, top, bottom);
      if (top < area.top) cuts.push(x);
    });
  });
  ctx.restore();
  // the marks unclipped: a point at the plot's left or right edge keeps its whole ▲
  ctx.save();
  ctx.fillStyle = colour;
  for (const x of cuts) drawCut(ctx, x, area.top);
  ctx.restore();
}

export const errorBars: Plugin = {
  id: 'ssdprofErrorBars',
  afterDataLimits(chart, { scale }) {
    widen(chart, scale);
  },
  afterDatasetsDraw(chart) {
    draw(chart);
  },
};
