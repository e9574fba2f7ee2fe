import { describe, expect, it } from 'vitest';
import type { CurveSummary } from '../api';
import { curveSeries } from './Curves';

type Point = CurveSummary['points'][number];

function point(pct: number | null, offered: number, achieved: number, saturated: boolean): Point {
  return { index: pct ?? 0, pct, offered_iops: offered, rate_iops: offered, achieved_iops: achieved, saturated,
    lat_ns_mean: 100e3, lat_ns_p50: 90e3, lat_ns_p99: 300e3, lat_ns_p99_9: 900e3, run_id: 1, status: 'ok' };
}

function curve(points: Point[]): CurveSummary {
  return { sweep_id: 1, name: 'curve', label: 'randread 4KiB QD4 T1', status: 'done', reason: '', engine: 'fio',
    max_iops: 28_000, tolerance_pct: 5, stop_latency_ns: null, stopped_at_pct: null, points_pct: [20, 60], points,
    knee: null, spec: null, latency_from: 'submission' };
}

describe('curveSeries', () => {
  it('names a saturated series in the legend only when a point saturated', () => {
    const calm = curve([point(null, 0, 28_000, true), point(20, 5_600, 5_560, false), point(60, 17_000, 16_900, false)]);
    expect(curveSeries(calm, null).map((s) => s.label)).not.toContain('saturated');
    const pushed = curve([point(null, 0, 28_000, true), point(20, 5_600, 5_560, false), point(90, 25_000, 19_000, true)]);
    const saturated = curveSeries(pushed, null).find((s) => s.label === 'saturated');
    expect(saturated?.points).toEqual([{ x: 19_000, y: 300 }]);
  });
});
