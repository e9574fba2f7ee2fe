// Error bars (95 % CI half widths) for Chart.js: the y axis is widened to hold them, and they are
// drawn clipped to the plot area, so a wide interval never runs into the legend or the axis titles.
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

/** Each visible bar's [bottom, top] on a scale: bottoms stop at zero (no rate is negative). */
function spans(chart: Chart, scaleId: string): [number, number][] {
  const found: [number, number][] = [];
  chart.data.datasets.forEach((dataset, index) => {
    const { errors, data } = dataset as unknown as WithErrors;
    const meta = chart.getDatasetMeta(index);
    if (!errors || !chart.isDatasetVisible(index) || (meta.yAxisID ?? 'y') !== scaleId) return;
    data.forEach((raw, i) => {
      const value = yValue(raw);
      const err = errors[i];
      if (err && value !== undefined) found.push([Math.max(value - err, 0), value + err]);
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

function draw(chart: Chart): void {
  const { ctx, chartArea: area } = chart;
  ctx.save();
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  ctx.strokeStyle = cssVar('--fg', '#222');
  ctx.lineWidth = 1.5;
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
      drawBar(ctx, x, yScale.getPixelForValue(value + err), bottom);
    });
  });
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
