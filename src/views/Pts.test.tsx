import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PtsEstimate, PtsRequest, PtsResult, PtsStatus } from '../api';
import { fakeEngine, RpcReplyError } from '../test/fake-engine';
import { info } from '../test/fixtures';
import recordedEstimate from '../test/pts-estimate.json';
import recordedResult from '../test/pts-latency.json';
import { renderWith } from '../test/render';
import { Pts } from './Pts';
import { PtsReport } from './PtsReport';

// Recorded from the real engine (scripts/gen_pts_fixtures.py): a laptop-profile latency test on real fio.
const estimate = recordedEstimate as PtsEstimate;
const result = recordedResult as PtsResult;
const IDLE: PtsStatus = { running: false, pts_id: null, test: '', phase: '', round: 0, max_rounds: 0 };

describe('Pts', () => {
  it('says what the test will do, how long it may take and that the laptop profile is not PTS-compliant', async () => {
    renderWith(fakeEngine({ 'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE, 'pts.estimate': () => estimate }).engine,
      <Pts busy={false} />);
    const line = await screen.findByTestId('pts-estimate');
    expect(line.textContent).toContain(`${estimate.points_per_round} points a round`);
    expect(line.textContent.match(/\d+s to \d+s/g)).toHaveLength(1); // the range, said once
    expect(screen.getByTestId('pts-compliance').textContent).toContain('NOT PTS-compliant');
    expect(screen.getByRole('button', { name: 'Start PTS test' })).toHaveProperty('disabled', false);
  });

  it('offers the tests, profiles and preconditioning the engine lists, by its names', async () => {
    const fake = fakeEngine({
      'engine.info': () => info, 'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE,
      'pts.estimate': () => estimate,
    });
    renderWith(fake.engine, <Pts busy={false} />);
    const tests = await screen.findByRole('option', { name: 'Latency (QD1, 0.5/4/8 KiB)' });
    expect(tests.getAttribute('value')).toBe('latency');
    const named = (label: string) => [...screen.getByLabelText<HTMLSelectElement>(label).options]
      .map((o) => o.value);
    expect(named('Profile')).toEqual(info.field_rules.profile!.choices.map((c) => c.value));
    expect(named('Preconditioning')).toEqual(['auto', 'none']);
  });

  it('names a bad field beside it and will not start', async () => {
    const problem = { field: 'round_time_s', flag: '--round-time', label: 'time per point',
      message: "'0s' is out of range; allowed above 0 s and at most 3600 s, e.g. 60s" };
    const fake = fakeEngine({
      'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE,
      'pts.estimate': () => { throw new RpcReplyError({ code: -32602, message: 'bad params', data: { problems: [problem] } }); },
    });
    renderWith(fake.engine, <Pts busy={false} />);
    await userEvent.type(screen.getByLabelText('Time per point'), '0s');
    expect((await screen.findByText(problem.message)).getAttribute('data-field')).toBe('roundTime');
    expect(screen.getByRole('button', { name: 'Start PTS test' })).toHaveProperty('disabled', true);
    expect(fake.calls.some((c) => c.method === 'pts.start')).toBe(false);
  });

  it('shows every bad field at once, each beside its input, and a workload field it has no input for under the form', async () => {
    const problems = [
      { field: 'round_time_s', flag: '--round-time', label: 'time per point', message: "'0s' is out of range; allowed above 0 s, e.g. 60s" },
      { field: 'engine', flag: '--engine', label: 'engine', message: "'fiio' is not one of the choices; allowed auto, fio or portable, e.g. auto" },
      { field: 'target', flag: '--target', label: 'target', message: "'/nowhere' does not exist" },
      { field: 'numjobs', flag: '--jobs', label: 'jobs', message: '0 is out of range; allowed 1–256, e.g. 4' },
    ];
    const fake = fakeEngine({
      'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE,
      'pts.estimate': () => { throw new RpcReplyError({ code: -32602, message: 'bad params', data: { problems } }); },
    });
    renderWith(fake.engine, <Pts busy={false} />);
    expect((await screen.findByText(problems[0]!.message)).getAttribute('data-field')).toBe('roundTime');
    expect(screen.getByText(problems[1]!.message).getAttribute('data-field')).toBe('engine');
    expect(screen.getByText(problems[2]!.message).getAttribute('data-field')).toBe('target');
    expect(screen.getByText(`jobs: ${problems[3]!.message}`)).toBeDefined();
    expect(screen.getByLabelText('Time per point').getAttribute('aria-invalid')).toBe('true');
  });

  it('confirms before overwriting a block device, naming it, and starts with consent only then', async () => {
    const loop = {
      path: '/dev/loop3', description: '/dev/loop3 (loop device over /var/tmp/d.img on vda, 64MiB)',
      model: 'QEMU HARDDISK', size_bytes: 64 << 20, kind: 'loop',
      stack: ['loop3: loop device over /var/tmp/d.img', 'vda: disk, holding the data'], in_use: [], ram: '',
    };
    const onDevice: PtsEstimate = { ...estimate, device: loop, overwrite_bytes: 64 << 20,
      region: 'target /dev/loop3 (…): OVERWRITES 64MiB (67108864 bytes) from offset 0; the data there is destroyed' };
    const fake = fakeEngine({
      'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE, 'pts.estimate': () => onDevice,
      'pts.start': () => { throw new RpcReplyError({ code: -32000, message: 'not here' }); },
    });
    renderWith(fake.engine, <Pts busy={false} />);
    const start = await screen.findByRole('button', { name: 'Start PTS test' });
    await waitFor(() => expect(start).toHaveProperty('disabled', false));
    await userEvent.click(start);
    expect((await screen.findByRole('alertdialog')).textContent).toContain(onDevice.region);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.calls.some((c) => c.method === 'pts.start')).toBe(false);
    await userEvent.click(start);
    await userEvent.click(await screen.findByRole('button', { name: `Overwrite ${loop.path}` }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'pts.start')).toBe(true));
    expect((fake.calls.find((c) => c.method === 'pts.start')!.params as PtsRequest).allow_overwrite).toBe(true);
  });

  it('follows the rounds and then shows the report pages of the finished test', async () => {
    const fake = fakeEngine({
      'pts.list': () => ({ tests: [] }), 'pts.status': () => IDLE, 'pts.estimate': () => estimate,
      'pts.get': () => result,
    });
    renderWith(fake.engine, <Pts busy={false} />);
    const round = result.rounds[0]!;
    fake.notify({ method: 'pts.event', params: { event: { kind: 'round_finished', round: 1, max_rounds: 6, tracking_value: round.tracking_value,
      steady_state: result.steady_state, run_ids: round.runs, bytes_written: round.bytes_written } } });
    expect((await screen.findByTestId('pts-check')).textContent).toContain(result.steady_state.reason);
    fake.notify({ method: 'pts.event', params: { event: { kind: 'pts_finished', pts_id: result.id, status: 'done',
      attained: result.steady_state.attained, rounds: result.rounds.length, wall_s: 10, reason: '' } } });
    const report = await screen.findByTestId('pts-report');
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'pts.get')).toBe(true));
    // the convergence plot has a point per round; the determination table shows each tracking variable with its limits
    const convergence = within(report).getByRole('table', { name: 'Steady-state convergence' });
    expect(within(convergence).getAllByRole('row').length - 1).toBe(result.rounds.length);
    const determination = within(report).getByTestId('pts-determination');
    expect(within(determination).getAllByRole('row')).toHaveLength(1 + result.checks.length);
    expect(determination.textContent).toContain(result.checks[0]!.tracking);
    expect(determination.textContent).toContain(result.steady_state.attained ? 'reached' : 'NOT reached');
    expect(within(report).getByTestId('pts-latency').textContent).toContain('p99.999');
  });

  it('says the drive state in the engine\'s words and its figures with thousands separated, as the CLI and PDF do', () => {
    const iops: PtsResult = { ...result, test: 'iops' };
    renderWith(fakeEngine({}).engine, <PtsReport result={iops} />);
    expect(screen.getByTestId('pts-drive-state').textContent).toBe(result.drive_state_text);
    const top = Math.max(...result.matrix.map((c) => c.iops));
    expect(top).toBeGreaterThan(1000);
    expect(screen.getByTestId('pts-matrix').textContent).toContain(Math.round(top).toLocaleString('en-US'));
  });
});
