import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SweepParams, ValidateParams } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { defaults, info } from '../test/fixtures';
import { renderWith } from '../test/render';
import { Designer } from './Designer';

const problem = { field: 'queue_depth', flag: '--qd', message: 'must be an integer from 1 to 4096; got 0' };

function engineFor() {
  return fakeEngine({
    'presets.list': () => ({ presets: [{ name: 'student', description: 'one factor at a time', points: 10 }, { name: 'quick', description: 'CDM', points: 8 }] }),
    'workload.validate': (p: ValidateParams) => (p.workload.queue_depth === '0'
      ? { ok: false, problems: [problem], workload: null, label: '', duration_s: 0 }
      : { ok: true, problems: [], workload: defaults, label: 'randread 4KiB QD1 T1', duration_s: 12 }),
    'sweep.estimate': (p: SweepParams) => ({ name: 'x', points: [], repeats: 1, total_points: p.preset ? 10 : 1, estimated_s: p.preset ? 13 : 12.3, layout_bytes: 0 }),
    'sweep.start': () => ({ kind: 'sweep_started', sweep_id: 1, name: 'student', total_points: 10, already_done: 0, estimated_s: 13, engine: 'fio', engine_reason: 'fio found' }),
  });
}

describe('Designer', () => {
  it('shows the engine message next to a bad field and will not start', async () => {
    const fake = engineFor();
    const onStarted = vi.fn();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={onStarted} />);
    const qd = screen.getByLabelText('Queue depth');
    await userEvent.clear(qd);
    await userEvent.type(qd, '0');
    expect(await screen.findByText(problem.message)).toBeDefined();
    expect(qd.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Start' }) as HTMLButtonElement).disabled).toBe(true);
    expect(fake.calls.some((c) => c.method === 'sweep.start')).toBe(false);
  });

  it('starts the chosen preset with the typed runtime and shows the estimate first', async () => {
    const fake = engineFor();
    const onStarted = vi.fn();
    renderWith(fake.engine, <Designer info={info} running={false} onStarted={onStarted} />);
    await userEvent.clear(screen.getByLabelText('Runtime'));
    await userEvent.type(screen.getByLabelText('Runtime'), '1s');
    await userEvent.click(screen.getByLabelText('a preset'));
    expect(await screen.findByText(/10 points, estimated/)).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
    const start = fake.calls.find((c) => c.method === 'sweep.start')!.params as SweepParams;
    expect(start.preset).toBe('student');
    expect(start.base?.runtime_s).toBe('1s');
  });

  it('says which engine auto will use and why', () => {
    renderWith(engineFor().engine, <Designer info={info} running={false} onStarted={vi.fn()} />);
    expect(screen.getByText('auto chooses fio: fio-3.33 at /usr/bin/fio')).toBeDefined();
  });
});
