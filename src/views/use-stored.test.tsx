import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StoredCurve, SweepState } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { fullRun } from '../test/fixtures';
import { renderWith } from '../test/render';
import { useStored } from './use-stored';

function Shown() {
  const { stored, shownId, setShownId, version } = useStored('curve');
  return (
    <div>
      <p data-testid="shown">{shownId ?? 'none'} @{version}</p>
      {stored.map((c) => <button key={c.sweep_id} type="button" onClick={() => setShownId(c.sweep_id)}>{c.sweep_id}</button>)}
    </div>
  );
}

const curve = (sweep_id: number, status: SweepState = 'done'): StoredCurve => ({
  sweep_id, created_at: '', name: `curve ${sweep_id}`, status, kind: 'curve',
});
const done = { kind: 'sweep_finished' as const, sweep_id: 2, status: 'done' as const, run_ids: [], wall_s: 1, layout_s: 0, reason: '' };

describe('useStored', () => {
  it('shows a curve as soon as it starts, reads it again as its points finish, and keeps a curve the user chose', async () => {
    let curves = [curve(1)];
    const fake = fakeEngine({ 'curves.list': () => ({ curves }) });
    renderWith(fake.engine, <Shown />);
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toBe('1 @0'));
    curves = [curve(2, 'running'), curve(1)];
    const count = { done: 0, total: 2, bound: 'exact' as const, unit: 'point' as const, note: '', text: '0 of 2 points' };
    act(() => fake.notify({ method: 'run.event', params: { event: { kind: 'sweep_started', sweep_id: 2, name: 'curve 2', count, estimated_s: 2, engine: 'fio', engine_reason: '' } } }));
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toBe('2 @1'));
    act(() => fake.notify({ method: 'run.event', params: { event: { kind: 'point_finished', number: 1, count: { ...count, done: 1, text: '1 of 2 points' }, result: { ...fullRun, sweep_id: 2 } } } }));
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toBe('2 @2'));
    await userEvent.click(screen.getByRole('button', { name: '1' }));
    act(() => fake.notify({ method: 'run.event', params: { event: done } }));
    await waitFor(() => expect(screen.getByTestId('shown').textContent).toBe('1 @3'));
  });
});
