import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from './App';
import { fakeEngine } from './test/fake-engine';
import { info, specChoices, studentRuns } from './test/fixtures';
import { renderWith } from './test/render';
import type { Count, SweepInfo, SweepStarted } from './api';
import { sweepInfo } from './test/sweep-info';

const of10 = (done: number): Count => ({ done, total: 10, bound: 'exact', unit: 'point', note: '', text: `${done} of 10 points` });
const student = (done: number): SweepStarted => ({ kind: 'sweep_started', sweep_id: 4, name: 'student', count: of10(done), estimated_s: 13, engine: 'fio', engine_reason: 'fio found' });
const NOT_RUNNING = { running: false, sweep_id: null, name: '', count: null };
const nothingInterrupted = (): { sweeps: SweepInfo[]; last_finished: null; interrupted: null } => ({ sweeps: [], last_finished: null, interrupted: null });

function engine() {
  return fakeEngine({
    'engine.info': () => info,
    'sweep.status': () => NOT_RUNNING,
    'sweeps.list': nothingInterrupted,
    'presets.list': () => ({ presets: [] }),
    'runs.list': () => ({ runs: [], total: 0 }),
  });
}

describe('App', () => {
  it('moves between views with the arrow keys', async () => {
    renderWith(engine().engine, <App />);
    await screen.findByRole('heading', { name: 'Design a measurement' });
    screen.getByRole('tab', { name: 'Designer' }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Live run' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Live run' }));
    expect(screen.getByText(/Nothing is running/)).toBeDefined();
  });

  it('tells the user when the desktop shell restarts the engine', async () => {
    const fake = engine();
    renderWith(fake.engine, <App />);
    await screen.findByText('fio-3.33');
    act(() => fake.notify({ method: 'engine.status', params: { state: 'restarting', message: 'The engine stopped unexpectedly; restarting it.' } }));
    expect(screen.getByRole('alert').textContent).toContain('restarting it');
    act(() => fake.notify({ method: 'engine.status', params: { state: 'ready', message: 'The engine was restarted.' } }));
    expect(screen.queryByText(/restarting it/)).toBeNull();
  });

  it('offers to resume a sweep the engine died in, once the shell restarted it', async () => {
    const fake = fakeEngine({
      'engine.info': () => info,
      'sweep.status': () => NOT_RUNNING,
      'sweeps.list': nothingInterrupted,
      'presets.list': () => ({ presets: [] }),
      'runs.list': () => ({ runs: [], total: 0 }),
      'sweep.resume': () => student(3),
    });
    renderWith(fake.engine, <App />);
    await screen.findByText('fio-3.33');
    act(() => fake.notify({ method: 'run.event', params: { event: student(0) } }));
    act(() => fake.notify({ method: 'engine.status', params: { state: 'restarting', message: 'The engine stopped unexpectedly (exit SIGKILL); restarting it.' } }));
    act(() => fake.notify({ method: 'engine.status', params: { state: 'ready', message: 'The engine was restarted.' } }));
    await userEvent.click(screen.getByRole('tab', { name: /Live run/ }));
    expect(screen.getByRole('alert').textContent).toMatch(/engine stopped in the middle of this sweep/);
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(fake.calls.find((c) => c.method === 'sweep.resume')?.params).toEqual({ sweep_id: 4 });
    expect(await screen.findByText('Overall: 3 of 10 points')).toBeDefined();
  });

  it('offers the interrupted sweep\'s resume on the Designer it opens on, and resumes it by its id', async () => {
    const fake = fakeEngine({
      'engine.info': () => info,
      'sweep.status': () => NOT_RUNNING,
      'sweeps.list': () => ({ sweeps: [], last_finished: null, interrupted: sweepInfo({ id: 7, name: 'student', status: 'running', runs: 4 }) }),
      'presets.list': () => ({ presets: [] }),
      'runs.list': () => ({ runs: [], total: 0 }),
      'sweep.resume': () => ({ ...student(4), sweep_id: 7 }),
    });
    renderWith(fake.engine, <App />);
    await screen.findByRole('heading', { name: 'Design a measurement' });
    expect((await screen.findByTestId('interrupted')).textContent).toContain('Sweep 7 (student) was interrupted: 4 finished point(s) are stored.');
    await userEvent.click(screen.getByRole('button', { name: 'Resume the last interrupted sweep' }));
    expect(fake.calls.find((c) => c.method === 'sweep.resume')?.params).toEqual({ sweep_id: 7 });
    expect(await screen.findByText('Overall: 4 of 10 points')).toBeDefined();
    expect(screen.getByRole('tab', { name: /Live run/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('interrupted')).toBeNull(); // not beside the sweep it resumed, running
  });

  it('follows run events into the live view', async () => {
    const fake = engine();
    renderWith(fake.engine, <App />);
    await screen.findByText('fio-3.33');
    act(() => fake.notify({ method: 'run.event', params: { event: student(0) } }));
    await userEvent.click(screen.getByRole('tab', { name: /Live run/ }));
    expect(screen.getByText('Overall: 0 of 10 points')).toBeDefined();
  });

  it('after a reload, shows the last finished sweep in Results and offers no resume when nothing was interrupted', async () => {
    const fake = fakeEngine({
      'engine.info': () => info,
      'sweep.status': () => NOT_RUNNING,
      'sweeps.list': () => ({ sweeps: [], interrupted: null, last_finished: sweepInfo({ id: 9, name: 'student', status: 'done', runs: studentRuns.length }) }),
      'presets.list': () => ({ presets: [] }),
      'runs.list': () => ({ runs: studentRuns, total: studentRuns.length }),
    });
    renderWith(fake.engine, <App />);
    await screen.findByRole('heading', { name: 'Design a measurement' });
    expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: /Live run/ }));
    expect(screen.queryByRole('button', { name: /Resume/ })).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Results' }));
    expect(await screen.findByRole('heading', { name: 'Results — sweep 9' })).toBeDefined();
    expect(fake.calls.find((c) => c.method === 'runs.list')?.params).toEqual({ sweep_id: 9 });
  });

  it('brings a curve started from the Curves view back there when it is done', async () => {
    const curve = (done: number): Count => ({ done, total: 2, bound: 'exact', unit: 'point', note: '1 full-speed probe + 1 offered rate',
      text: `${done} of 2 points (1 full-speed probe + 1 offered rate)` });
    const started: SweepStarted = { kind: 'sweep_started', sweep_id: 6, name: 'curve randread 4KiB QD32 T1', count: curve(0), estimated_s: 25, engine: 'fio', engine_reason: 'fio found' };
    const fake = fakeEngine({
      'engine.info': () => info,
      'sweep.status': () => NOT_RUNNING,
      'sweeps.list': nothingInterrupted,
      'presets.list': () => ({ presets: [] }),
      'specs.list': () => ({
        specs: [], problems: [], user_spec_ids: [], user_spec_dir: null, choices: specChoices,
      }),
      'curves.list': () => ({ curves: [] }),
      'curve.check': () => ({ label: 'randread 4KiB QD32 T1', points: 2, estimated_s: 24 }),
      'slo.check': () => ({ label: 'randread 4KiB QD1 T1', max_qd: 256, point_s: 12 }),
      'curve.start': () => started,
    });
    renderWith(fake.engine, <App />);
    await userEvent.click(screen.getByRole('tab', { name: 'Curves' }));
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Start curve' }).disabled).toBe(false));
    await userEvent.click(screen.getByRole('button', { name: 'Start curve' }));
    expect(await screen.findByText('Overall: 0 of 2 points (1 full-speed probe + 1 offered rate)')).toBeDefined();
    expect(screen.getByRole('tab', { name: /Live run/ }).getAttribute('aria-selected')).toBe('true');
    act(() => fake.notify({ method: 'run.event', params: { event: { kind: 'sweep_finished', sweep_id: 6, status: 'done', run_ids: [1, 2], wall_s: 25, layout_s: 0, reason: '' } } }));
    expect(screen.getByRole('tab', { name: 'Curves' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('curve-run').textContent).toContain('done');
  });
});
