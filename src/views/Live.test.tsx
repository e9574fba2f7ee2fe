import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { idle, liveReducer } from '../state/live';
import { fullRun } from '../test/fixtures';
import { Live } from './Live';

const running = liveReducer(idle, { kind: 'sweep_started', sweep_id: 2, name: 'student', total_points: 10, already_done: 0, estimated_s: 13, engine: 'fio', engine_reason: 'fio found at /usr/bin/fio' });

describe('Live', () => {
  it('shows overall progress and cancels on request', async () => {
    const onCancel = vi.fn();
    const state = liveReducer(running, { kind: 'point_finished', number: 1, total_points: 10, result: fullRun });
    render(<Live state={state} onCancel={onCancel} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    expect(screen.getByText('Overall: 1 of 10 points')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('says how to start when nothing runs', () => {
    render(<Live state={idle} onCancel={vi.fn()} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    expect(screen.getByText(/Nothing is running/)).toBeDefined();
  });
});

describe('Live, several hosts', () => {
  const sample = (host: string, second: number, iops: number) => ({
    elapsed_s: second, read_iops: iops, write_iops: 0, read_bw_bytes_per_s: iops * 4096, write_bw_bytes_per_s: 0,
    read_lat_ns_mean: 90_000, write_lat_ns_mean: null, read_lat_ns_p99: 200_000, write_lat_ns_p99: null, host, ramping: false,
  });
  const progress = (host: string, second: number, iops: number) => ({
    kind: 'point_progress' as const, number: 1, total_points: 1, point_elapsed_s: second, point_duration_s: 10, eta_s: 10 - second,
    sample: sample(host, second, iops),
  });

  it('draws one line per host and names a host that went quiet', () => {
    let state = liveReducer(running, { kind: 'point_started', index: 0, repeat: 0, number: 1, total_points: 1, eta_s: 10, workload: fullRun.workload });
    for (let s = 1; s <= 5; s += 1) state = liveReducer(state, progress('node-a', s, 1000 + s));
    for (let s = 1; s <= 2; s += 1) state = liveReducer(state, progress('node-b', s, 500));
    expect(state.samples).toHaveLength(0);
    render(<Live state={state} onCancel={vi.fn()} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    const iops = screen.getByRole('table', { name: /IOPS, per second/ });
    expect(new Set([...iops.querySelectorAll('tbody tr')].map((r) => r.firstElementChild?.textContent))).toEqual(new Set(['node-a', 'node-b']));
    const hosts = screen.getByTestId('live-hosts');
    expect(hosts.querySelector('[data-host=node-a]')?.textContent).toContain('running');
    expect(hosts.querySelector('[data-host=node-a]')?.textContent).toContain('1005');
    expect(hosts.querySelector('[data-host=node-b]')?.textContent).toContain('no data for 3 s');
  });
});
