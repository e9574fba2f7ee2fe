import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ChartSet, HealthRecord, RunResult } from '../api';
import recorded from '../test/drive-health.json';
import { fakeEngine } from '../test/fake-engine';
import { chartCase, chartHandlers, fullRun, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { Results } from './Results';
import { sweepInfo } from '../test/sweep-info';

function chartPoints(title: string): string[] {
  const table = screen.getByRole('table', { name: title });
  return within(table).getAllByRole('row').slice(1).map((r) => r.getAttribute('data-x') ?? '');
}

describe('Results', () => {
  const engine = () => fakeEngine({ 'runs.get': () => ({ run: fullRun }), ...chartHandlers() }).engine;

  it('draws the student curves the engine computed', async () => {
    const fake = fakeEngine({ 'runs.get': () => ({ run: fullRun }), ...chartHandlers() });
    renderWith(fake.engine, <Results title="sweep 1" runs={studentRuns} onDesign={vi.fn()} />);
    // 4 KiB QD1 reads, measured by two of the preset's series: two points, not one of "2 repeats";
    // the line is the access-size series, the other measurement a point of its own after it
    const bySize = ['4096', '16384', '131072', '4096'];
    await waitFor(() => expect(chartPoints('IOPS vs access size')).toEqual(bySize));
    expect(fake.calls.find((c) => c.method === 'runs.charts')?.params).toEqual(chartCase('the student sweep').params);
    expect(chartPoints('Latency vs queue depth, all I/Os (µs)'))
      .toEqual(['1', '10', '100', '1', '1', '10', '100', '1']);
    expect(chartPoints('IOPS vs read/write mix')).toEqual(['0', '50', '70', '100', '100', '100']);
    expect(await screen.findAllByRole('row')).not.toHaveLength(0);
  });

  it('draws bandwidth against access size in MB/s, as the PDF does', async () => {
    renderWith(engine(), <Results title="sweep 1" runs={studentRuns} onDesign={vi.fn()} />);
    const title = 'Bandwidth vs access size (MB/s = 10⁶ B/s)';
    await waitFor(() => expect(chartPoints(title)).toEqual(['4096', '16384', '131072', '4096']));
    const at16k = studentRuns.find((r) => r.workload.block_size_bytes === 16384)!;
    const rows = within(screen.getByRole('table', { name: title })).getAllByRole('row');
    const row = rows.find((r) => r.getAttribute('data-x') === '16384')!;
    expect(Number(row.getAttribute('data-y'))).toBeCloseTo(at16k.read.bw_bytes_per_s / 1e6, 6);
  });

  it('states units in the table and marks a warning next to the number it concerns', () => {
    const warned: RunResult = { ...studentRuns[0]!, warnings: [{ code: 'short_run', severity: 'warning', message: 'read ran 0.5 s of the 1 s asked', concerns: ['read.iops'] }] };
    renderWith(engine(), <Results title="one" runs={[warned]} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getByText('MB/s')).toBeDefined();
    expect(within(table).getByText('p99 µs')).toBeDefined();
    expect(within(table).getByRole('img', { name: 'read ran 0.5 s of the 1 s asked' })).toBeDefined();
  });

  it('shows a mixed run\'s reads, writes and all its I/Os together, the p99 of all from the engine', () => {
    renderWith(engine(), <Results title="one" runs={[fullRun]} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-direction'))).toEqual(['read', 'write', 'all']);
    const all = rows[2]!;
    expect(all.textContent).toContain((fullRun.mixed.lat_ns.p99! / 1e3).toFixed(1));
    expect(all.textContent).toContain((fullRun.read.iops + fullRun.write.iops).toFixed(0));
    expect(within(table).getByRole('caption').textContent).toMatch(/all: a run's reads and writes together/);
  });

  it('shows total latency, and its submission and completion parts and the device\'s queue on request', async () => {
    const run: RunResult = { ...studentRuns[0]!, device_queue: { disk: 'vda', requested_outstanding: 32, mean_in_flight: 7.14, read_request_lat_ns_mean: 48_000, write_request_lat_ns_mean: null, requests: 290_000, busy_pct: null } };
    renderWith(engine(), <Results title="one" runs={[run]} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getByRole('caption').textContent).toMatch(/total latency, submission to completion/);
    const mean = (run.read.lat_ns.mean! / 1e3).toFixed(1);
    expect(within(table).getByText(mean)).toBeDefined();
    expect(within(table).queryByText('submission mean µs')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Submission / completion' }));
    expect(within(table).getByText((run.read.slat_ns.mean! / 1e3).toFixed(1))).toBeDefined();
    expect(within(table).getByText((run.read.clat_ns.mean! / 1e3).toFixed(1))).toBeDefined();
    expect(within(table).getByText('at device (mean I/Os)')).toBeDefined();
    expect(within(table).getByText('7.1')).toBeDefined();
  });

  it('shows the drive\'s lowest–highest temperature in the table and draws it beside the run\'s IOPS', async () => {
    // the engine's HealthRecord for a run whose drive was read each second (scripts/gen_drive_health_fixture.py)
    const warm: RunResult = { ...fullRun, drive_health: recorded.written as HealthRecord };
    const fake = fakeEngine({ 'runs.get': () => ({ run: warm }), ...chartHandlers() });
    renderWith(fake.engine, <Results title="one" runs={[warm, studentRuns[0]!]} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getByText('drive °C')).toBeDefined();
    expect(within(table).getAllByTestId('drive-temperature').map((c) => c.textContent)).toContain('50–51');
    expect(within(table).getAllByTestId('drive-temperature').map((c) => c.textContent)).toContain('–');
    const series = await screen.findByRole('table', { name: 'IOPS and the drive\'s temperature per second' });
    const temperatures = within(series).getAllByText('drive temperature (°C, right axis)');
    expect(temperatures).toHaveLength(warm.drive_health!.temperatures.length);
  });

  it('leaves the temperature out where no run read one', () => {
    renderWith(engine(), <Results title="one" runs={[studentRuns[0]!]} onDesign={vi.fn()} />);
    expect(within(screen.getByTestId('results-table')).queryByText('drive °C')).toBeNull();
  });

  it('draws the first rows of a long sweep and the rest on request', async () => {
    const many: RunResult[] = Array.from({ length: 250 }, (_, i) => ({ ...studentRuns[0]!, id: 1000 + i, repeat: i }));
    renderWith(engine(), <Results title="long" runs={many} onDesign={vi.fn()} />);
    const table = screen.getByTestId('results-table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 200);
    await userEvent.click(screen.getByRole('button', { name: 'Show all 250 rows' }));
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 250);
  });

  it('picks the run to detail by point, then by repeat', async () => {
    const fake = fakeEngine({ 'runs.get': () => ({ run: fullRun }), ...chartHandlers() });
    const ids = chartCase('a point repeated three times beside another').params.run_ids as number[];
    const repeats: RunResult[] = ids.slice(0, 3).map((id, i) => ({ ...studentRuns[0]!, id, repeat: i }));
    renderWith(fake.engine, <Results title="repeats" runs={[...repeats, { ...studentRuns[1]!, id: ids[3]! }]} onDesign={vi.fn()} />);
    await waitFor(() => expect(screen.getByLabelText('Run').querySelectorAll('option')).toHaveLength(2));
    await userEvent.selectOptions(screen.getByLabelText('Repeat'), String(ids[2]));
    expect(fake.calls.filter((c) => c.method === 'runs.get').at(-1)?.params).toEqual({ run_id: ids[2] });
  });

  it('pools runs of one setting only when asked, saying n and where they came from', async () => {
    const fake = fakeEngine({ 'runs.get': () => ({ run: fullRun }), ...chartHandlers() });
    renderWith(fake.engine, <Results title="sweep 1" runs={studentRuns} onDesign={vi.fn()} />);
    expect((await screen.findByTestId('no-pooled')).textContent).toMatch(/Every figure is one run/);
    const detail = screen.getByLabelText('Run');
    expect([...detail.querySelectorAll('option')].map((o) => o.textContent).slice(0, 2))
      .toEqual(['#1 randread 4KiB QD1 T1 (run 1)', '#2 randread 16KiB QD1 T1']);

    await userEvent.click(screen.getByRole('checkbox', { name: /Pool runs of one setting/ }));
    const pooled = chartCase('the student sweep, its runs of one setting pooled on request');
    const asked = fake.calls.filter((c) => c.method === 'runs.charts').at(-1)?.params;
    expect(asked).toEqual(pooled.params);
    const table = await screen.findByTestId('pooled-table');
    const [row] = within(table).getAllByRole('row').slice(1);
    const figure = (pooled.result as ChartSet).points.find((p) => p.kind === 'pooled')!;
    const iops = `${figure.iops!.mean.toFixed(0)} ± ${figure.iops!.half_width!.toFixed(0)}`;
    expect([...row!.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent)).toEqual([
      'randread 4KiB QD1 T1', 'n = 2 runs pooled from sweep 1', '1, 8', iops]);
    expect(screen.getByLabelText('Run').textContent).toContain(
      'randread 4KiB QD1 T1 (n = 2 runs pooled from sweep 1)');
  });

  it('names a repeated point\'s sweep beside its mean and interval', async () => {
    const ids = chartCase('a point repeated three times beside another').params.run_ids as number[];
    const repeats: RunResult[] = ids.slice(0, 3)
      .map((id, i) => ({ ...studentRuns[0]!, id, repeat: i }));
    const runs = [...repeats, { ...studentRuns[1]!, id: ids[3]! }];
    renderWith(engine(), <Results title="repeats" runs={runs} onDesign={vi.fn()} />);
    const table = await screen.findByTestId('pooled-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelectorAll('td')[1]?.textContent))
      .toEqual(['n = 3 repeats of sweep 2']);
    expect(rows[0]!.getAttribute('data-kind')).toBe('repeats');
  });

  it('suggests what to run when there are no results', () => {
    renderWith(engine(), <Results title="" runs={[]} onDesign={vi.fn()} />);
    expect(screen.getByText(/the student preset draws every chart/)).toBeDefined();
  });

  it('opens the last finished sweep the engine names when it starts with no runs, as after a reload', async () => {
    const fake = fakeEngine({
      'sweeps.list': () => ({ sweeps: [], interrupted: null,
        last_finished: sweepInfo({ id: 9, name: 'student', status: 'done', runs: studentRuns.length }) }),
      'runs.list': () => ({ runs: studentRuns, total: studentRuns.length }),
    });
    const onOpen = vi.fn();
    renderWith(fake.engine, <Results title="" runs={[]} onDesign={vi.fn()} onOpen={onOpen} />);
    expect(screen.getByText('Opening the last finished sweep…')).toBeDefined();
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith('sweep 9', studentRuns));
    expect(fake.calls.find((c) => c.method === 'runs.list')?.params).toEqual({ sweep_id: 9 });
  });

  it('opens again after a reload the runs it showed, not the last finished sweep', async () => {
    const chosen = [studentRuns[2]!, studentRuns[5]!];
    const shown = renderWith(engine(), <Results title="2 selected runs" runs={chosen} onDesign={vi.fn()} />);
    shown.unmount();
    const fake = fakeEngine({ 'runs.list': () => ({ runs: chosen, total: 2 }), ...chartHandlers() });
    const onOpen = vi.fn();
    renderWith(fake.engine, <Results title="" runs={[]} onDesign={vi.fn()} onOpen={onOpen} />);
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith('2 selected runs', chosen));
    expect(fake.calls.find((c) => c.method === 'runs.list')?.params).toEqual({ run_ids: chosen.map((r) => r.id) });
  });

  it('says there is nothing to show when the engine has no finished sweep', async () => {
    const fake = fakeEngine({ 'sweeps.list': () => ({ sweeps: [], interrupted: null, last_finished: null }) });
    const onOpen = vi.fn();
    renderWith(fake.engine, <Results title="" runs={[]} onDesign={vi.fn()} onOpen={onOpen} />);
    expect(await screen.findByText(/No results to show yet/)).toBeDefined();
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('exports the PDF the engine makes, for the runs shown', async () => {
    const fake = fakeEngine({
      'runs.get': () => ({ run: fullRun }),
      'report.pdf': () => ({ pdf_base64: 'JVBERi0=', filename: 'ssdprof-runs-1.pdf', bytes: 5, runs: 3 }),
    });
    renderWith(fake.engine, <Results title="sweep 1" runs={studentRuns.slice(0, 3)} onDesign={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect((await screen.findByTestId('export-note')).textContent).toMatch(/^Saved \/tmp\/ssdprof-runs-1.pdf/);
    expect(fake.saved).toEqual(['ssdprof-runs-1.pdf']);
    const params = fake.calls.find((c) => c.method === 'report.pdf')?.params as { run_ids: number[]; spec_id: string | null };
    expect(params.run_ids).toEqual(studentRuns.slice(0, 3).map((r) => r.id));
    expect(params.spec_id).toBeNull();
  });

  it('says why when the engine cannot make the report', async () => {
    const fake = fakeEngine({ 'runs.get': () => ({ run: fullRun }) });
    renderWith(fake.engine, <Results title="one" runs={[studentRuns[0]!]} onDesign={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect((await screen.findByTestId('export-note')).textContent).toContain('The report could not be made: report.pdf is not faked');
  });

  it('draws the percentile curve of all a mixed run\'s I/Os the engine reads off its bins, each direction\'s beside it, in µs', async () => {
    const curve = chartCase('the run in full');
    renderWith(engine(), <Results title="one" runs={[{ ...studentRuns[0]!, id: curve.params.run_id as number }]} onDesign={vi.fn()} />);
    type Points = { lat_ns: number }[];
    const found = curve.result as { points: Points; by_direction: { direction: string; points: Points }[] };
    expect(found.by_direction.map((d) => d.direction)).toEqual(['read', 'write']);
    const points = [...found.points, ...found.by_direction.flatMap((d) => d.points)];
    await waitFor(() => expect(chartPoints('Latency percentile distribution: all I/Os, and each direction'))
      .toEqual(points.map((p) => String(p.lat_ns / 1e3))));
  });

  it('prints the percentile curve so that where it reaches 99.9 and 99.99 is the engine\'s own p99.9 and p99.99', async () => {
    const curve = chartCase('the run in full');
    renderWith(engine(), <Results title="one" runs={[{ ...studentRuns[0]!, id: curve.params.run_id as number }]} onDesign={vi.fn()} />);
    const found = (curve.result as { points: { lat_ns: number; percentile: number }[] }).points;
    const title = 'Latency percentile distribution: all I/Os, and each direction';
    await waitFor(() => expect(chartPoints(title).length).toBeGreaterThan(found.length));
    const rows = within(screen.getByRole('table', { name: title })).getAllByRole('row').slice(1)
      .filter((r) => r.children[0]!.textContent.endsWith('all I/Os'))
      .map((r) => ({ us: Number(r.getAttribute('data-x')), shown: Number(r.children[2]!.textContent) }));
    for (const q of [99, 99.9, 99.99]) { // what a reader takes from the table, and what the engine's bins say
      expect(rows.find((r) => r.shown >= q)!.us).toBe(found.find((p) => p.percentile >= q)!.lat_ns / 1e3);
    }
  });

  it('shows each host and the aggregate, and the hosts\' CPU, for a multi-host run', async () => {
    const host = (name: string, iops: number) => ({ ...fullRun.read, iops });
    const multi: RunResult = {
      ...fullRun,
      hosts: [
        { host: 'h1', read: host('h1', 1000), write: fullRun.write, jobs: 1, error: null, target: '/srv/a', os: 'Linux', cpu_count: 2, fio_version: 'fio-3.33', nic_speeds_mbps: {}, start_epoch_ns: null, jobs_start_epoch_ns: [], link_limit_bytes_per_s: null, link_limit_source: '', link_interface: '', clock_offset_ns: null, clock_offset_bound_ns: null, device_queue: { disk: 'vda', requested_outstanding: 16, mean_in_flight: 5.04, read_request_lat_ns_mean: 41_000, write_request_lat_ns_mean: null, requests: 30_000, busy_pct: null }, drive_health: null },
        { host: 'h2', read: host('h2', 2000), write: fullRun.write, jobs: 1, error: null, target: '/srv/b', os: 'Linux', cpu_count: 2, fio_version: 'fio-3.33', nic_speeds_mbps: {}, start_epoch_ns: null, jobs_start_epoch_ns: [], link_limit_bytes_per_s: null, link_limit_source: '', link_interface: '', clock_offset_ns: null, clock_offset_bound_ns: null, device_queue: null, drive_health: null },
      ],
      read: { ...fullRun.read, iops: 3000 },
      monitor: [0, 1].flatMap((t) => ['h1', 'h2'].map((h) => ({ host: h, elapsed_s: t, cpu_busy_pct: 20 + t, net_rx_bytes_per_s: { eth0: 1e6 }, net_tx_bytes_per_s: {}, disk_busy_pct: {} }))),
      start_skew_ms: 3.2,
    };
    renderWith(fakeEngine({ 'runs.get': () => ({ run: multi }) }).engine, <Results title="two hosts" runs={[multi]} onDesign={vi.fn()} />);
    const table = await screen.findByTestId('host-table');
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.getAttribute('data-host'))).toEqual(['h1', 'h2', 'aggregate']);
    expect(within(table).getByRole('row', { name: /aggregate/ }).textContent).toContain('3,000');
    expect(within(table).getByRole('row', { name: /h1/ }).textContent).toContain('5.0 of 16');
    expect(within(table).getByRole('row', { name: /h2/ }).textContent).toContain('–');
    expect(chartPoints('IOPS per host').length).toBe(2);
    expect(chartPoints('CPU busy per host (%)').length).toBe(4);
    expect(screen.getByText(/start skew 3.2 ms/)).toBeDefined();
  });
});
