import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChartConfiguration } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import type { Count, RunEvent } from '../api';
import { idle, liveReducer } from '../state/live';
import { fullRun } from '../test/fixtures';
import { formatLatencyNs } from '../lib/units';
import { Live } from './Live';

// Chart.js draws on a canvas the test DOM lacks: a stand-in keeps each configuration it is given.
const drawn = vi.hoisted(() => [] as ChartConfiguration[]);
vi.mock('chart.js/auto', () => {
  class FakeChart {
    static defaults = { plugins: { legend: { labels: { generateLabels: () => [] } } } };
    canvas: HTMLCanvasElement;
    config: ChartConfiguration;
    constructor(canvas: HTMLCanvasElement, config: ChartConfiguration) {
      this.canvas = canvas;
      this.config = config;
      drawn.push(config);
    }
    destroy() { /* nothing drawn */ }
    update() { /* nothing drawn */ }
  }
  return { default: FakeChart };
});

const of10 = (done: number): Count => ({ done, total: 10, bound: 'exact', unit: 'point', note: '', text: `${done} of 10 points` });
const running = liveReducer(idle, { kind: 'sweep_started', sweep_id: 2, name: 'student', count: of10(0), estimated_s: 13, engine: 'fio', engine_reason: 'fio found at /usr/bin/fio' });

// Counts as the engine's adaptive.progress_count sends them for a curve (points 10..100 %) and a search.
const curveNote = '1 full-speed probe + 6 offered rates';
const curveCount = (done: number): Count => ({ done, total: 7, bound: 'exact', unit: 'point', note: curveNote, text: `${done} of 7 points (${curveNote})` });
const searchNote = 'queue depths tried; the search goes on until it has its answer, QD256 at the deepest';
const searchCount = (done: number): Count => ({ done, total: null, bound: 'open', unit: 'point', note: searchNote, text: `${done} points so far (${searchNote})` });

/** A growing sweep's events in the order the runner sends them: started, then each point started and finished. */
function played(name: string, count: (done: number) => Count, points: number): RunEvent[] {
  const events: RunEvent[] = [{ kind: 'sweep_started', sweep_id: 5, name, count: count(0), estimated_s: 16, engine: 'fio', engine_reason: 'fio found' }];
  for (let done = 0; done < points; done += 1) {
    events.push({ kind: 'point_started', index: done, repeat: 0, number: done + 1, count: count(done), round: null, workload: fullRun.workload, eta_s: 10 });
    events.push({ kind: 'point_finished', number: done + 1, count: count(done + 1), result: fullRun });
  }
  return events;
}
const noop = { onCancel: vi.fn(), onOpenResults: vi.fn(), onDesign: vi.fn(), onResume: vi.fn() };

describe('Live', () => {
  it('shows overall progress and cancels on request', async () => {
    const onCancel = vi.fn();
    const state = liveReducer(running, { kind: 'point_finished', number: 1, count: of10(1), result: fullRun });
    render(<Live state={state} onCancel={onCancel} onOpenResults={vi.fn()} onDesign={vi.fn()} onResume={vi.fn()} />);
    expect(screen.getByText('Overall: 1 of 10 points')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('gives a finished mixed point\'s p99 as that of all its I/Os, each direction\'s beside it', () => {
    const state = liveReducer(running, { kind: 'point_finished', number: 1, count: of10(1), result: fullRun });
    render(<Live state={state} {...noop} />);
    const table = screen.getByRole('table', { name: /Finished points/ });
    expect(within(table).getByText('p99 latency, all I/Os')).toBeDefined();
    const row = within(table).getAllByRole('row')[1]!;
    const cells = [...row.querySelectorAll('td')].map((c) => c.textContent);
    expect(screen.getByTestId('live-p99').textContent).toBe(formatLatencyNs(fullRun.mixed.lat_ns.p99));
    expect(fullRun.mixed.lat_ns.p99).not.toBe(fullRun.read.lat_ns.p99);
    expect(cells).toContain(formatLatencyNs(fullRun.read.lat_ns.p99));
    expect(cells).toContain(formatLatencyNs(fullRun.write.lat_ns.p99));
  });

  it('numbers a resumed sweep\'s finished points as the sweep does, after those finished before', () => {
    const resumed: RunEvent[] = [
      { kind: 'sweep_started', sweep_id: 2, name: 'student', count: of10(2), estimated_s: 13, engine: 'fio', engine_reason: 'fio found' },
      { kind: 'point_finished', number: 3, count: of10(3), result: { ...fullRun, id: 31 } },
      { kind: 'point_finished', number: 4, count: of10(4), result: { ...fullRun, id: 32 } },
    ];
    render(<Live state={resumed.reduce(liveReducer, idle)} {...noop} />);
    const rows = within(screen.getByRole('table', { name: /Finished points/ })).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('td')?.textContent)).toEqual(['3', '4']);
  });

  it('says how to start when nothing runs', () => {
    render(<Live state={idle} {...noop} />);
    expect(screen.getByText(/Nothing is running/)).toBeDefined();
    expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
  });

  it('counts a curve\'s points against the probe and its rates, from its first event', () => {
    const events = played('curve randread 4KiB QD32', curveCount, 6);
    render(<Live state={events.reduce(liveReducer, idle)} {...noop} />);
    expect(screen.getByText('Overall: 6 of 7 points (1 full-speed probe + 6 offered rates)')).toBeDefined();
    expect(screen.getByLabelText(/^Overall:/).getAttribute('value')).toBe(String(6 / 7));
    expect(liveReducer(idle, events[0]!).count?.text).toBe(`0 of 7 points (${curveNote})`);
  });

  it('counts a search\'s depths so far and draws no total it does not have', () => {
    render(<Live state={played('latency target', searchCount, 10).reduce(liveReducer, idle)} {...noop} />);
    expect(screen.getByText(`Overall: 10 points so far (${searchNote})`)).toBeDefined();
    expect(screen.getByLabelText(/^Overall:/).hasAttribute('value')).toBe(false);
    expect(screen.getByTestId('eta').textContent).toBe('ETA –');
  });

  it('drops a finished search\'s stripe of work going on and its "goes on until", and says what it measured', () => {
    const events = [...played('latency target', searchCount, 7),
      { kind: 'sweep_finished' as const, sweep_id: 5, status: 'done' as const, run_ids: [1], wall_s: 30, layout_s: 0, reason: '' }];
    render(<Live state={events.reduce(liveReducer, idle)} {...noop} />);
    expect(screen.getByText('Overall: 7 points measured (done)')).toBeDefined();
    expect(screen.queryByText(/goes on until/)).toBeNull();
    expect(screen.getByLabelText(/^Overall:/).getAttribute('value')).toBe('1');
  });
});

describe('Live, several hosts', () => {
  const sample = (host: string, second: number, iops: number) => ({
    elapsed_s: second, interval_s: null, start_s: null, read_iops: iops, write_iops: 0, read_bw_bytes_per_s: iops * 4096, write_bw_bytes_per_s: 0,
    read_lat_ns_mean: 90_000, write_lat_ns_mean: null, read_lat_ns_p99: 200_000, write_lat_ns_p99: null, lat_ns_mean: 90_000, lat_ns_p99: 200_000, host, ramping: false,
  });
  const progress = (host: string, second: number, iops: number) => ({
    kind: 'point_progress' as const, number: 1, count: of10(0), point_elapsed_s: second, point_duration_s: 10, eta_s: 10 - second,
    sample: sample(host, second, iops), drive_temperature_c: null,
  });

  it('draws one line per host and names a host that went quiet', () => {
    let state = liveReducer(running, { kind: 'point_started', index: 0, repeat: 0, number: 1, count: of10(0), round: null, eta_s: 10, workload: fullRun.workload });
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

describe('Live, the drive\'s temperature and the cool-down', () => {
  const sample = { elapsed_s: 1, interval_s: null, start_s: null, read_iops: 1000, write_iops: 0, read_bw_bytes_per_s: 4096000, write_bw_bytes_per_s: 0,
    read_lat_ns_mean: 60000, write_lat_ns_mean: null, read_lat_ns_p99: 90000, write_lat_ns_p99: null, lat_ns_mean: 60000, lat_ns_p99: 90000, host: 'local', ramping: false };
  const progress = (second: number, celsius: number | null) => ({ kind: 'point_progress' as const, number: 1, count: of10(0),
    sample: { ...sample, elapsed_s: second }, point_elapsed_s: second, point_duration_s: 10, eta_s: 9, drive_temperature_c: celsius });
  const started = liveReducer(running, { kind: 'point_started', index: 0, repeat: 0, number: 1, count: of10(0), round: null, eta_s: 10, workload: fullRun.workload });

  it('draws the drive\'s temperature beside IOPS against a second axis in °C', () => {
    const canvas = vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({} as CanvasRenderingContext2D);
    drawn.length = 0;
    const state = [progress(1, 48.9), progress(2, 50.1)].reduce(liveReducer, started);
    render(<Live state={state} {...noop} />);
    canvas.mockRestore();
    const iops = drawn.find((c) => c.data.datasets.some((d) => d.label === 'read'))!;
    const temperature = iops.data.datasets.find((d) => d.label?.startsWith('drive temperature'))!;
    expect((temperature as { yAxisID?: string }).yAxisID).toBe('y2');
    expect(temperature.data).toEqual([{ x: 1, y: 48.9 }, { x: 2, y: 50.1 }]);
    const scales = iops.options?.scales as Record<string, { position?: string; title?: { text?: string } }>;
    expect(scales.y2?.position).toBe('right');
    expect(scales.y2?.title?.text).toBe('°C');
    expect(scales.y?.title?.text).toBe('IOPS');
    const table = screen.getByRole('table', { name: /IOPS and the drive's temperature, per second/ });
    expect(within(table).getAllByText('drive temperature (°C, right axis)')).toHaveLength(2);
  });

  it('draws no second axis for a drive that reports no temperature', () => {
    const state = [progress(1, null), progress(2, null)].reduce(liveReducer, started);
    expect(state.temperatures).toEqual([]);
    render(<Live state={state} {...noop} />);
    expect(screen.getByRole('table', { name: /^IOPS, per second/ })).toBeDefined();
    expect(screen.queryByText('drive temperature (°C, right axis)')).toBeNull();
  });

  it('says how the cool-down goes until the next point starts', () => {
    const cooling = { kind: 'cooling' as const, number: 2, celsius: 52, start_c: 55, target_c: 45, waited_s: 40, most_s: 300,
      done: false, text: 'cooling before point 2: 52 °C → 45 °C, 40 s (at most 300 s)' };
    const waiting = liveReducer(started, cooling);
    render(<Live state={waiting} {...noop} />);
    expect(screen.getByTestId('cooling').textContent).toBe('cooling before point 2: 52 °C → 45 °C, 40 s (at most 300 s)');
    const next = liveReducer(waiting, { kind: 'point_started', index: 1, repeat: 0, number: 2, count: of10(1), round: null, eta_s: 9, workload: fullRun.workload });
    expect(next.cooling).toBeNull();
  });
});
