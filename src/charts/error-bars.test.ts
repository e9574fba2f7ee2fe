import type { Chart, Scale } from 'chart.js';
import { describe, expect, it } from 'vitest';
import { anyCut, errorBars } from './error-bars';

const AREA = { left: 40, top: 30, right: 400, bottom: 230 };

/** One series, 10 ± 5 at x 1 and 20 ± 15 at x 2 (or `errors`), on `scale`; its canvas records every call. */
function fakeChart(scale: Scale, errors = [5, 15]) {
  const calls: string[] = [];
  const record = (name: string) => (...args: unknown[]) => {
    calls.push(`${name}(${args.join(',')})`);
  };
  const ctx = new Proxy({}, { get: (_, name: string) => record(name), set: () => true });
  const points = [{ x: 1, y: 10 }, { x: 2, y: 20 }];
  const chart = {
    ctx, chartArea: AREA, scales: { y: scale },
    data: { datasets: [{ data: points, errors }] },
    isDatasetVisible: () => true,
    getDatasetMeta: () => ({
      yAxisID: 'y', data: points.map((p) => ({ getProps: () => ({ x: 100 * p.x }) })),
    }),
  } as unknown as Chart;
  return { chart, calls };
}

function linearScale(max: number): Scale {
  const scale = { axis: 'y', id: 'y', type: 'linear', min: 0, max,
    getPixelForValue: (v: number) => AREA.bottom - (v / scale.max) * (AREA.bottom - AREA.top) };
  return scale as unknown as Scale;
}

describe('error bars', () => {
  it('widen the y axis to hold every bar', () => {
    const scale = linearScale(20);
    const { chart } = fakeChart(scale);
    errorBars.afterDataLimits?.(chart, { scale }, {});
    expect(scale.max).toBe(35);
    expect(scale.min).toBe(0);
  });

  it('are drawn clipped to the plot area, so none reaches the legend', () => {
    const { chart, calls } = fakeChart(linearScale(35));
    errorBars.afterDatasetsDraw?.(chart, {}, {}, false);
    const clip = calls.indexOf('clip()');
    const { left, top, right, bottom } = AREA;
    expect(calls[clip - 1]).toBe(`rect(${left},${top},${right - left},${bottom - top})`);
    expect(clip).toBeLessThan(calls.indexOf('stroke()'));
    expect(calls.at(-1)).toBe('restore()');
  });

  it('leave the axis to the means where an interval is wider than its mean (n = 2), cut and marked at the axis end', () => {
    const scale = linearScale(20);
    const { chart } = fakeChart(scale, [5, 180]); // 20 ± 180: the axis would run to 200
    errorBars.afterDataLimits?.(chart, { scale }, {});
    expect(scale.max).toBe(20);
    const { chart: drawn, calls } = fakeChart(scale, [5, 180]);
    errorBars.afterDatasetsDraw?.(drawn, {}, {}, false);
    // the ▲ at x 200 on the plot's top edge, and only there (10 ± 5 stays inside)
    expect(calls.filter((c) => c === 'fill()')).toHaveLength(1);
    expect(calls).toContain(`lineTo(200,${AREA.top})`);
  });

  it('are said to be cut only where an interval is wider than its mean', () => {
    expect(anyCut([{ points: [{ y: 62000, err: 140000 }, { y: 50000, err: 900 }] }])).toBe(true);
    expect(anyCut([{ points: [{ y: 62000, err: 9000 }, { y: null, err: 5 }, { y: 3 }] }])).toBe(false);
  });
});
