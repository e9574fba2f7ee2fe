// Shaded spans of the x axis behind a chart's lines, each named at its top: a sustained-write
// test's phases (fast, after the cliff) as the engine found them. Drawn before the datasets, so a
// line is never hidden, and clipped to the plot area.
import type { Chart, Plugin } from 'chart.js';
import { cssVar, paletteColours } from './palette';

export interface Band {
  /** Where the span starts and ends, in the x axis's own values. */
  from: number;
  to: number;
  label: string;
}

/** A band's fill: a palette colour, faint enough that lines drawn over it keep their contrast. */
export function bandFill(colour: string): string {
  return colour.startsWith('#') && colour.length === 7 ? `${colour}22` : colour;
}

function draw(chart: Chart, bands: readonly Band[]): void {
  const x = chart.scales.x;
  const { ctx, chartArea: area } = chart;
  if (!x || bands.length === 0) return;
  const colours = paletteColours();
  ctx.save();
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  bands.forEach((band, i) => {
    const left = Math.max(x.getPixelForValue(band.from), area.left);
    const right = Math.min(x.getPixelForValue(band.to), area.right);
    if (right <= left) return;
    ctx.fillStyle = bandFill(colours[(i + 2) % colours.length]!);
    ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
    ctx.strokeStyle = cssVar('--muted', '#777');
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(left, area.top);
    ctx.lineTo(left, area.bottom);
    ctx.stroke();
    ctx.fillStyle = cssVar('--fg', '#222');
    const text = fitted(ctx, band.label, right - left - 8);
    if (text) ctx.fillText(text, left + 4, area.top + 4);
  });
  ctx.restore();
}

/** The label, cut with an ellipsis to the width it has (nothing when not even a letter fits). */
function fitted(ctx: CanvasRenderingContext2D, label: string, width: number): string {
  if (ctx.measureText(label).width <= width) return label;
  for (let n = label.length - 1; n > 0; n -= 1) {
    const text = `${label.slice(0, n)}…`;
    if (ctx.measureText(text).width <= width) return text;
  }
  return '';
}

// Kept by canvas, not in the chart's options: Chart.js reads option arrays as per-dataset values.
const BANDS = new WeakMap<HTMLCanvasElement, readonly Band[]>();

/** The bands the chart on `canvas` draws from its next drawing on (none: an empty list). */
export function setBands(canvas: HTMLCanvasElement, bands: readonly Band[]): void {
  BANDS.set(canvas, bands);
}

/** A Chart.js plugin drawing each chart's bands (see `setBands`) behind its datasets. */
export const phaseBands: Plugin = {
  id: 'ssdprofBands',
  beforeDatasetsDraw(chart) {
    draw(chart, BANDS.get(chart.canvas) ?? []);
  },
};
