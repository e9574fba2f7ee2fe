import { describe, expect, it } from 'vitest';
import type { Count, SweepStarted } from '../api';
import { fullRun } from '../test/fixtures';
import { idle, liveReducer, overallFraction } from './live';

/** A plain sweep's count as the engine sends it (adaptive.progress_count). */
const of10 = (done: number): Count => ({ done, total: 10, bound: 'exact', unit: 'point', note: '', text: `${done} of 10 points` });
const started: SweepStarted = { kind: 'sweep_started', sweep_id: 3, name: 'student', count: of10(0), estimated_s: 13, engine: 'fio', engine_reason: 'fio found' };
const sample = { elapsed_s: 1, interval_s: null, start_s: null, read_iops: 1000, write_iops: 0, read_bw_bytes_per_s: 4096000, write_bw_bytes_per_s: 0, read_lat_ns_mean: 60000, write_lat_ns_mean: null, read_lat_ns_p99: 90000, write_lat_ns_p99: null, lat_ns_mean: 60000, lat_ns_p99: 90000, host: 'local', ramping: false };

describe('liveReducer', () => {
  it('keeps each remote host on its own series, the sweep time running on across points', () => {
    const point = (index: number) => ({ kind: 'point_started' as const, index, repeat: 0, number: index + 1, count: of10(index), round: null, workload: fullRun.workload, eta_s: 4 });
    const remote = (host: string, second: number) => ({ kind: 'point_progress' as const, number: 1, count: of10(0),
      sample: { ...sample, host, elapsed_s: second }, point_elapsed_s: second, point_duration_s: 2, eta_s: 2, drive_temperature_c: null });
    let state = liveReducer(liveReducer(idle, started), point(0));
    state = [remote('a', 1), remote('b', 1), remote('a', 2), remote('b', 2)].reduce(liveReducer, state);
    state = [point(1), remote('a', 1), remote('b', 1)].reduce(liveReducer, state);
    expect(state.samples).toHaveLength(0);
    expect(state.hosts.a!.map((s) => s.elapsed_s)).toEqual([1, 2, 3]);
    expect(state.hosts.b!.map((s) => s.elapsed_s)).toEqual([1, 2, 3]);
  });

  it('follows a point from start to finish', () => {
    let state = liveReducer(idle, started);
    state = liveReducer(state, { kind: 'point_started', index: 0, repeat: 0, number: 1, count: of10(0), round: null, workload: fullRun.workload, eta_s: 13 });
    expect(state.current?.label).toBe('randrw 70%R 4KiB QD1 T1');
    state = liveReducer(state, { kind: 'point_progress', number: 1, count: of10(0), sample, point_elapsed_s: 0.5, point_duration_s: 1, eta_s: 12, drive_temperature_c: null });
    expect(state.samples).toHaveLength(1);
    expect(overallFraction(state)).toBeCloseTo(0.05);
    state = liveReducer(state, { kind: 'point_finished', number: 1, count: of10(1), result: fullRun });
    expect(state.count?.done).toBe(1);
    state = liveReducer(state, { kind: 'sweep_finished', sweep_id: 3, status: 'cancelled', run_ids: [1], wall_s: 3, layout_s: 0.2, reason: '' });
    expect(state.status).toBe('cancelled');
    expect(state.finished).toHaveLength(1);
  });

  it('a sweep stopped because a host was lost can be resumed, and says why', () => {
    const state = liveReducer(liveReducer(idle, started), { kind: 'sweep_finished', sweep_id: 3, status: 'stopped', run_ids: [1], wall_s: 3,
      layout_s: 0.2, reason: 'stopped after 1 of 10 points: h2: ssh failed: connection lost' });
    expect(state.status).toBe('interrupted');
    expect(state.reason).toContain('h2: ssh failed');
  });

  it('ignores the start reply when the same sweep_started already arrived as an event', () => {
    const running = liveReducer(liveReducer(idle, started), { kind: 'layout_done', path: '/x', size_bytes: 1, seconds: 0.1 });
    expect(liveReducer(running, started)).toBe(running);
  });

  it('runs the per-second timeline on across points', () => {
    let state = liveReducer(idle, started);
    for (const number of [1, 2]) {
      state = liveReducer(state, { kind: 'point_started', index: number - 1, repeat: 0, number, count: of10(number - 1), round: null, workload: fullRun.workload, eta_s: 5 });
      state = liveReducer(state, { kind: 'point_progress', number, count: of10(number - 1), sample, point_elapsed_s: 1, point_duration_s: 1, eta_s: 4, drive_temperature_c: null });
    }
    expect(state.samples.map((s) => s.elapsed_s)).toEqual([1, 2]);
  });

  it('counts points finished before a resume', () => {
    expect(liveReducer(idle, { ...started, count: of10(4) }).count?.done).toBe(4);
  });

  it('knows no fraction for a search, whose total the engine does not know', () => {
    const open: Count = { done: 3, total: null, bound: 'open', unit: 'point', note: 'queue depths tried', text: '3 points so far (queue depths tried)' };
    expect(overallFraction(liveReducer(idle, { ...started, count: open }))).toBeNull();
  });
});
