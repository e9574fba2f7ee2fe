import type { Chart } from 'chart.js';
import { describe, expect, it } from 'vitest';
import { phaseBands, setBands } from './bands';

/** A chart whose x axis maps v to pixel 10·v, its plot x 0–200, on a canvas that records. */
function fakeChart() {
  const drawn = { rects: [] as number[][], texts: [] as [string, number][] };
  const ctx = {
    save() {}, restore() {}, beginPath() {}, rect() {}, clip() {}, moveTo() {}, lineTo() {},
    stroke() {}, setLineDash() {}, font: '', textBaseline: '', fillStyle: '', strokeStyle: '',
    fillRect: (x: number, y: number, w: number, h: number) => drawn.rects.push([x, y, w, h]),
    fillText: (text: string, x: number) => drawn.texts.push([text, x]),
    measureText: (text: string) => ({ width: 6 * text.length }),
  };
  const canvas = document.createElement('canvas');
  const chart = { canvas, ctx, chartArea: { left: 0, right: 200, top: 0, bottom: 100 },
    scales: { x: { getPixelForValue: (v: number) => 10 * v } } } as unknown as Chart;
  return { chart, canvas, drawn };
}

const draw = (chart: Chart) => (phaseBands.beforeDatasetsDraw as (c: Chart) => void)(chart);

describe('phase bands', () => {
  it('shades each band between its x values, clipped to the plot, and names it at its top', () => {
    const { chart, canvas, drawn } = fakeChart();
    setBands(canvas, [{ from: 0, to: 5, label: 'cache' }, { from: 5, to: 40, label: 'after' }]);
    draw(chart);
    expect(drawn.rects).toEqual([[0, 0, 50, 100], [50, 0, 150, 100]]);
    expect(drawn.texts).toEqual([['cache', 4], ['after', 54]]);
  });

  it('cuts a name too long for its band with an ellipsis', () => {
    const { chart, canvas, drawn } = fakeChart();
    setBands(canvas, [{ from: 0, to: 5, label: 'after the second drop: 50 MB/s' }]);
    draw(chart);
    const [text] = drawn.texts[0]!;
    expect(text.endsWith('…')).toBe(true);
    expect(6 * text.length).toBeLessThanOrEqual(50 - 8);
  });

  it('draws nothing on a chart given no bands', () => {
    const { chart, drawn } = fakeChart();
    draw(chart);
    expect(drawn.rects).toEqual([]);
  });
});
