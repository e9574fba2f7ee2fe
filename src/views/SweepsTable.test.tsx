import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { sweepInfo } from '../test/sweep-info';
import { SWEEPS_SHOWN, SweepsTable } from './SweepsTable';

const lab = [
  sweepInfo({ id: 3, name: 'bs sweep', status: 'running', standing: 'running', runs: 4, owner: 'alice', owner_host: 'lab-pc-1',
    owner_pid: 4242, since: '2026-11-28T10:00:00+00:00', renewed_at: '2026-11-28T10:05:15+00:00' }),
  sweepInfo({ id: 2, name: 'qd sweep', status: 'running', standing: 'interrupted', runs: 3, owner: 'bob', owner_host: 'lab-pc-2',
    owner_pid: 17, since: '2026-11-28T09:00:00+00:00', renewed_at: '2026-11-28T09:01:00+00:00' }),
  sweepInfo({ id: 1, name: 'iops', kind: 'pts', status: 'done', runs: 25, owner: 'alice', owner_host: 'lab-pc-1',
    since: '2026-11-27T08:00:00+00:00' }),
];

describe('SweepsTable', () => {
  it('shows each sweep as the engine reads it: running, interrupted or ended, who ran it, where and since when', async () => {
    const fake = fakeEngine({ 'sweeps.list': () => ({ sweeps: lab, interrupted: null, last_finished: null }) });
    renderWith(fake.engine, <SweepsTable onOpenSweep={vi.fn()} />);
    const table = await screen.findByTestId('history-sweeps');
    const standings = within(table).getAllByTestId('sweep-standing').map((badge) => badge.textContent);
    expect(standings).toEqual(['running', 'interrupted', 'done']);
    const bob = table.querySelector('tr[data-sweep-id="2"]')!;
    expect(bob.textContent).toContain('bob on lab-pc-2 (pid 17)');
    expect(bob.textContent).toContain('2026-11-28 09:00:00');
    expect(bob.textContent).toContain('2026-11-28 09:01:00');
    expect(table.querySelector('tr[data-sweep-id="1"]')!.textContent).toContain('1 (PTS test)');
  });

  it('opens a sweep\'s runs, and pages a long list behind Show all', async () => {
    const onOpenSweep = vi.fn();
    const many = Array.from({ length: SWEEPS_SHOWN + 5 }, (_, i) => sweepInfo({ id: 100 - i, name: `s${i}`, status: 'done', runs: 1 }));
    const fake = fakeEngine({ 'sweeps.list': () => ({ sweeps: many, interrupted: null, last_finished: null }) });
    renderWith(fake.engine, <SweepsTable onOpenSweep={onOpenSweep} />);
    const table = await screen.findByTestId('history-sweeps');
    expect(within(table).getAllByTestId('sweep-standing')).toHaveLength(SWEEPS_SHOWN);
    await userEvent.click(screen.getByRole('button', { name: `Show all ${many.length}` }));
    expect(within(table).getAllByTestId('sweep-standing')).toHaveLength(many.length);
    await userEvent.click(screen.getByRole('button', { name: 'Open sweep 100' }));
    expect(onOpenSweep).toHaveBeenCalledWith(100);
  });

  it('says when the store could not list them', async () => {
    const fake = fakeEngine({});
    renderWith(fake.engine, <SweepsTable onOpenSweep={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toContain('Stored sweeps could not be listed');
  });
});
