import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  FieldProblem, SustainEstimate, SustainEventNotification, SustainRequest, SustainResult,
  SustainStarted, SustainStatus,
} from '../api';
import { formatBytes, formatDuration } from '../lib/units';
import { fakeEngine, RpcReplyError, type FakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import recordedCliff from '../test/sustain-cliff.json';
import recordedEstimate from '../test/sustain-estimate.json';
import { Sustain } from './Sustain';

// The engine's answers (scripts/gen_sustain_fixtures.py): the estimate of a short test on a real
// folder, and a real fill with a cliff (the kernel throttled its writes) as `sustain.get` answers
// it.
const estimate = recordedEstimate as SustainEstimate;
const cliff = recordedCliff as SustainResult;
const IDLE: SustainStatus = { running: false, sustain_id: null, step: '', recovery_step: 0 };
const started: SustainStarted = {
  kind: 'sustain_started', sustain_id: cliff.id, name: cliff.name, label: cliff.label,
  write_bytes: cliff.parameters.write_bytes, idle_s: cliff.parameters.idle_s, fill_done: false,
  recovery_done: 0, estimated_s: 60, engine: 'fio', engine_reason: 'fio found', notes: [],
};
const loop = {
  path: '/dev/loop3', description: '/dev/loop3 (loop device over /var/tmp/d.img on vda, 64MiB)',
  model: 'QEMU HARDDISK', size_bytes: 64 << 20, kind: 'loop',
  stack: ['loop3: loop device over /var/tmp/d.img', 'vda: disk, holding the data'], in_use: [],
  ram: '',
};
const consent = { field: 'allow_overwrite', flag: '--allow-overwrite', label: 'allow overwrite',
  message: 'writing destroys the contents of /dev/loop3; pass --allow-overwrite to confirm' };

const startButton = () => screen.getByRole('button', { name: 'Start sustained writes' });
const refuse = (problem: FieldProblem): never => {
  throw new RpcReplyError({ code: -32602, message: 'bad params', data: { problems: [problem] } });
};
const send = (fake: FakeEngine, event: SustainEventNotification['event']) =>
  fake.notify({ method: 'sustain.event', params: { event } });

const handlers = {
  'sustain.list': () => ({ tests: [] }), 'sustain.status': () => IDLE,
  'devices.list': () => ({ devices: [] }), 'sustain.estimate': () => estimate,
};

describe('Sustain', () => {
  it('says what it will write, for how long and the wear before it starts', async () => {
    renderWith(fakeEngine(handlers).engine, <Sustain busy={false} />);
    const line = await screen.findByTestId('sustain-estimate');
    expect(line.textContent).toContain(`the fill writes ${formatBytes(estimate.write_bytes)}`);
    expect(screen.getByTestId('sustain-total').textContent).toBe(formatBytes(estimate.total_bytes));
    expect(screen.getByTestId('sustain-time').textContent)
      .toBe(formatDuration(estimate.estimated_s));
    expect(screen.getByTestId('sustain-wear').textContent).toBe(`Wear: ${estimate.wear.text}`);
    expect(startButton()).toHaveProperty('disabled', false);
  });

  it('sends the form as typed, the idle intervals as a list', async () => {
    const fake = fakeEngine(handlers);
    renderWith(fake.engine, <Sustain busy={false} />);
    await userEvent.clear(screen.getByLabelText('Amount to write'));
    await userEvent.type(screen.getByLabelText('Amount to write'), '64m');
    await userEvent.clear(screen.getByLabelText('Idle intervals'));
    await userEvent.type(screen.getByLabelText('Idle intervals'), '1s, 2s');
    await waitFor(() => {
      const asked = fake.calls.filter((c) => c.method === 'sustain.estimate');
      const last = asked.at(-1)!.params as SustainRequest;
      expect([last.write_bytes, last.idle_s]).toEqual(['64m', ['1s', '2s']]);
    });
  });

  it('names a bad field beside it and will not start', async () => {
    const problem = { field: 'idle_s', flag: '--idle', label: 'idle intervals',
      message: "'2x' is not a duration; e.g. 10s,30s,60s,5m" };
    const fake = fakeEngine({ ...handlers, 'sustain.estimate': () => refuse(problem) });
    renderWith(fake.engine, <Sustain busy={false} />);
    expect((await screen.findByText(problem.message)).getAttribute('data-field')).toBe('idle_s');
    expect(startButton()).toHaveProperty('disabled', true);
  });

  it('confirms before overwriting a block device, naming it, and consents only then', async () => {
    const onDevice: SustainEstimate = { ...estimate, device: loop, overwrite_bytes: 64 << 20,
      region: 'target /dev/loop3 (…): OVERWRITES 64MiB (67108864 bytes) from offset 0; the data '
        + 'there is destroyed' };
    const fake = fakeEngine({ ...handlers, 'devices.list': () => ({ devices: [loop] }),
      'sustain.estimate': (p) => {
        if (p.target === loop.path && !p.allow_overwrite) refuse(consent);
        return p.target === loop.path ? onDevice : estimate;
      },
      'sustain.start': () => started });
    renderWith(fake.engine, <Sustain busy={false} />);
    await userEvent.selectOptions(await screen.findByLabelText('Block device'), loop.path);
    expect(screen.getByLabelText<HTMLInputElement>('Sustain target').value).toBe(loop.path);
    expect(await screen.findByText(onDevice.region)).toBeDefined();
    await userEvent.click(startButton());
    expect((await screen.findByRole('alertdialog')).textContent).toContain(loop.path);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.calls.some((c) => c.method === 'sustain.start')).toBe(false);
    await userEvent.click(startButton());
    await userEvent.click(await screen.findByRole('button', { name: `Overwrite ${loop.path}` }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'sustain.start')).toBe(true));
    const asked = fake.calls.find((c) => c.method === 'sustain.start')!.params as SustainRequest;
    expect([asked.target, asked.allow_overwrite]).toEqual([loop.path, true]);
  });

  it("follows the test live, then shows the engine's verdict, phases and recovery", async () => {
    const fake = fakeEngine({ ...handlers, 'sustain.start': () => started,
      'sustain.get': () => cliff });
    renderWith(fake.engine, <Sustain busy={false} />);
    await screen.findByTestId('sustain-estimate');
    await userEvent.click(startButton());
    await screen.findByTestId('sustain-progress');
    const total = cliff.parameters.write_bytes;
    const sample = cliff.samples[0]!;
    send(fake, { kind: 'sustain_step_started', step: 'fill', recovery_step: 0,
      bytes_total: total });
    send(fake, { kind: 'sustain_sample', step: 'fill', recovery_step: 0, sample, bytes_total: total,
      eta_s: 30 });
    expect((await screen.findByTestId('sustain-doing')).textContent)
      .toContain(formatBytes(sample.bytes_written));
    send(fake, { kind: 'sustain_finished', sustain_id: cliff.id, status: 'done', wall_s: 95,
      reason: '' });
    expect((await screen.findByTestId('sustain-verdict')).textContent)
      .toContain(cliff.verdict.sentence);
    expect(screen.getByTestId('sustain-finished').textContent).toContain('done after 1m35s');
    expect(screen.getByTestId('sustain-recovery')).toBeDefined();
  });

  it('resumes a test that stopped, from its report', async () => {
    const file = `/var/tmp/ssd/ssdprof-testfile-sustain${cliff.id}.dat`;
    const stopped: SustainResult = { ...cliff, status: 'stopped', reason: 'the engine stopped', test_file: file,
      test_file_bytes: cliff.parameters.region_bytes };
    const fake = fakeEngine({ ...handlers, 'sustain.get': () => stopped,
      'sustain.list': () => ({ tests: [{ id: cliff.id, created_at: cliff.created_at,
        name: cliff.name, status: 'stopped', target: '', write_bytes: 1, verdict: 'cliff',
        cache_bytes: null, recovery_done: 1, recovery_total: 2 }] }),
      'sustain.resume': () => ({ ...started, fill_done: true, recovery_done: 1 }) });
    renderWith(fake.engine, <Sustain busy={false} />);
    await screen.findByRole('option', { name: new RegExp(`^#${cliff.id} `) });
    await userEvent.selectOptions(screen.getByLabelText('Earlier tests'), String(cliff.id));
    const resumeButton = await screen.findByRole('button', { name: `Resume test #${cliff.id}` });
    // the kept test file and the space it holds (the region's, not the fill's) are said where the user decides to resume
    expect(resumeButton.parentElement!.textContent)
      .toContain(`${file} (${formatBytes(cliff.parameters.region_bytes)})`);
    expect(resumeButton.parentElement!.textContent).not.toContain('as large as the fill');
    await userEvent.click(resumeButton);
    await screen.findByTestId('sustain-progress');
    expect(fake.calls.find((c) => c.method === 'sustain.resume')?.params)
      .toEqual({ sustain_id: cliff.id });
  });

  it('opens an earlier test from the list', async () => {
    const listed = { id: cliff.id, created_at: cliff.created_at, name: cliff.name,
      status: cliff.status, target: cliff.parameters.target,
      write_bytes: cliff.parameters.write_bytes, verdict: cliff.verdict.kind,
      cache_bytes: cliff.verdict.cache_bytes, recovery_done: 3, recovery_total: 4 };
    const fake = fakeEngine({ ...handlers, 'sustain.list': () => ({ tests: [listed] }),
      'sustain.get': () => cliff });
    renderWith(fake.engine, <Sustain busy={false} />);
    const option = await screen.findByRole('option', { name: new RegExp(`^#${cliff.id} `) });
    const cache = formatBytes(cliff.verdict.cache_bytes);
    expect(option.textContent).toContain(`cache ${cache}, 3 of 4 recovery writes`);
    await userEvent.selectOptions(screen.getByLabelText('Earlier tests'), String(cliff.id));
    expect((await screen.findByTestId('sustain-report')).textContent).toContain(cliff.label);
  });
});
