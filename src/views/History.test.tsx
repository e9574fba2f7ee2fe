import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RunsListParams } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { History } from './History';

function engine(stored = 0) {
  let runs = [...studentRuns];
  return fakeEngine({
    'runs.list': (p: RunsListParams) => ({ runs: p.text === 'nothing' ? [] : runs, total: p.text === 'nothing' ? 0 : Math.max(stored, runs.length) }),
    'runs.delete': (p) => { runs = runs.filter((r) => r.id !== p.run_id); return { deleted: true }; },
  });
}

describe('History', () => {
  it('lists runs newest first and opens one', async () => {
    const onOpen = vi.fn();
    renderWith(engine().engine, <History onOpen={onOpen} />);
    const rows = within(await screen.findByTestId('history-table')).getAllByRole('row').slice(1);
    expect(rows[0]!.getAttribute('data-run-id')).toBe('10');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Open' }));
    expect(onOpen).toHaveBeenCalledWith('run 10', [studentRuns[9]]);
  });

  it('says when the list holds only the newest runs of many', async () => {
    renderWith(engine(812).engine, <History onOpen={vi.fn()} />);
    expect((await screen.findByTestId('history-truncated')).textContent).toMatch(/newest 10 of 812/);
  });

  it('searches by text through the engine', async () => {
    const fake = engine();
    renderWith(fake.engine, <History onOpen={vi.fn()} />);
    await screen.findByTestId('history-table');
    await userEvent.type(screen.getByLabelText('Target, device or engine'), 'nothing');
    expect(await screen.findByText(/No runs match these filters/)).toBeDefined();
    expect(fake.calls.at(-1)).toEqual({ method: 'runs.list', params: { text: 'nothing', tag: null, since: null } });
  });

  it('deletes only after a confirmation', async () => {
    const fake = engine();
    renderWith(fake.engine, <History onOpen={vi.fn()} />);
    const row = within(await screen.findByTestId('history-table')).getAllByRole('row')[1]!;
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(fake.calls.some((c) => c.method === 'runs.delete')).toBe(false);
    await userEvent.click(within(row).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(within(screen.getByTestId('history-table')).getAllByRole('row')).toHaveLength(10));
  });
});
