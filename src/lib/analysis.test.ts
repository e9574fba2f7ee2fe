import { describe, expect, it } from 'vitest';
import { fullRun, studentRuns } from '../test/fixtures';
import { groupRepeats, meanCi95, percentileCurve, seriesAlong, totals } from './analysis';

describe('seriesAlong', () => {
  it('finds the access-size series of the student sweep', () => {
    const [sizes, ...others] = seriesAlong(studentRuns, 'block_size_bytes');
    expect(others).toEqual([]);
    expect(sizes!.points.map((p) => p.x)).toEqual([4096, 16384, 131072]);
    expect(sizes!.label).toBe('randread QD1 T1');
  });

  it('finds queue depth and read/write mix series', () => {
    expect(seriesAlong(studentRuns, 'queue_depth')[0]!.points.map((p) => p.x)).toEqual([1, 10, 100]);
    expect(seriesAlong(studentRuns, 'read_pct')[0]!.points.map((p) => p.x)).toEqual([0, 50, 70, 100]);
  });

  it('needs at least two values of the factor', () => {
    expect(seriesAlong(studentRuns.slice(0, 1), 'block_size_bytes')).toEqual([]);
  });
});

describe('meanCi95', () => {
  it('uses Student t for small samples', () => {
    const spread = meanCi95([10, 12, 14]);
    expect(spread.mean).toBe(12);
    expect(spread.ci95).toBeCloseTo((4.303 * 2) / Math.sqrt(3), 6);
  });

  it('has no interval for one value', () => {
    expect(meanCi95([5])).toEqual({ mean: 5, ci95: 0, n: 1 });
  });
});

describe('percentileCurve', () => {
  it('reaches 100 % and agrees with the engine on p99 (first bin reaching 99 %)', () => {
    const main = totals(fullRun).main;
    const curve = percentileCurve(main.lat_bins_ns);
    expect(curve.at(-1)!.percentile).toBeCloseTo(100, 9);
    expect(curve.find((p) => p.percentile >= 99)!.latencyNs).toBe(main.lat_ns.p99);
  });
});

describe('groupRepeats', () => {
  it('puts identical workloads together', () => {
    const groups = groupRepeats([...studentRuns.slice(0, 2), studentRuns[0]!]);
    expect(groups.map((g) => g.runs.length)).toEqual([2, 1]);
  });
});
