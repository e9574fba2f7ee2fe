import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from './App';
import { fakeEngine } from './test/fake-engine';
import { info } from './test/fixtures';
import { renderWith } from './test/render';

function engine() {
  return fakeEngine({
    'engine.info': () => info,
    'sweep.status': () => ({ running: false, sweep_id: null, name: '', total_points: 0, finished_points: 0 }),
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
      'sweep.status': () => ({ running: false, sweep_id: null, name: '', total_points: 0, finished_points: 0 }),
      'presets.list': () => ({ presets: [] }),
      'runs.list': () => ({ runs: [], total: 0 }),
      'sweep.resume': () => ({ kind: 'sweep_started', sweep_id: 4, name: 'student', total_points: 10, already_done: 3, estimated_s: 9, engine: 'fio', engine_reason: 'fio found' }),
    });
    renderWith(fake.engine, <App />);
    await screen.findByText('fio-3.33');
    act(() => fake.notify({ method: 'run.event', params: { event: { kind: 'sweep_started', sweep_id: 4, name: 'student', total_points: 10, already_done: 0, estimated_s: 13, engine: 'fio', engine_reason: 'fio found' } } }));
    act(() => fake.notify({ method: 'engine.status', params: { state: 'restarting', message: 'The engine stopped unexpectedly (exit SIGKILL); restarting it.' } }));
    act(() => fake.notify({ method: 'engine.status', params: { state: 'ready', message: 'The engine was restarted.' } }));
    await userEvent.click(screen.getByRole('tab', { name: /Live run/ }));
    expect(screen.getByRole('alert').textContent).toMatch(/engine stopped in the middle of this sweep/);
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(fake.calls.some((c) => c.method === 'sweep.resume')).toBe(true);
    expect(await screen.findByText('Overall: 3 of 10 points')).toBeDefined();
  });

  it('follows run events into the live view', async () => {
    const fake = engine();
    renderWith(fake.engine, <App />);
    await screen.findByText('fio-3.33');
    act(() => fake.notify({ method: 'run.event', params: { event: { kind: 'sweep_started', sweep_id: 4, name: 'student', total_points: 10, already_done: 0, estimated_s: 13, engine: 'fio', engine_reason: 'fio found' } } }));
    await userEvent.click(screen.getByRole('tab', { name: /Live run/ }));
    expect(screen.getByText('Overall: 0 of 10 points')).toBeDefined();
  });
});
