import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RunsListParams, RunsPageParams } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { pageRow, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { History } from './History';

/** A store of ``stored`` runs: the student sweep's ten, and older ones numbered below them. */
function engine(stored = studentRuns.length) {
  let runs = [...studentRuns];
  const older = Array.from({ length: Math.max(stored - runs.length, 0) }, (_, i) => ({ ...studentRuns[0]!, id: 1000 + i }));
  const all = () => [...runs, ...older].sort((a, b) => b.id! - a.id!);
  return fakeEngine({
    'runs.page': (p: RunsPageParams) => {
      const found = p.filter?.search === 'nothing' ? [] : all();
      const offset = p.offset ?? 0;
      return { rows: found.slice(offset, offset + (p.limit ?? 100)).map(pageRow), total: found.length, offset, limit: p.limit ?? 100 };
    },
    'runs.people': () => ({ users: ['ana', 'ben'], machines: ['lab-1'] }),
    'sweeps.list': () => ({ sweeps: [], interrupted: null, last_finished: null }),
    'runs.select': () => ({ run_ids: all().map((r) => r.id!).reverse(), total: all().length, tag_keys: [], understood: [], offers: [] }),
    'runs.list': (p: RunsListParams) => ({ runs: all().filter((r) => p.run_ids?.includes(r.id!)).reverse(), total: p.run_ids?.length ?? 0 }),
    'runs.delete': (p) => { runs = runs.filter((r) => r.id !== p.run_id); return { deleted: true }; },
  });
}

describe('History', () => {
  it('lists runs newest first, says who stored them, and opens one', async () => {
    const onOpen = vi.fn();
    renderWith(engine().engine, <History onOpen={onOpen} />);
    const rows = within(await screen.findByTestId('history-table')).getAllByRole('row').slice(1);
    expect(rows[0]!.getAttribute('data-run-id')).toBe('10');
    expect(rows[0]!.textContent).toContain('ana on lab-1');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith('run 10', [studentRuns[9]]));
  });

  it('keeps its search, page and selection across a tab switch', async () => {
    const first = renderWith(engine().engine, <History onOpen={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Tag'), 'interface=SATA');
    const box = within(await screen.findByTestId('history-table')).getAllByRole('checkbox')[0]!;
    await userEvent.click(box);
    first.unmount();
    renderWith(engine().engine, <History onOpen={vi.fn()} />);
    expect(screen.getByLabelText('Tag')).toHaveProperty('value', 'interface=SATA');
    expect(await screen.findByText('1 selected')).toBeDefined();
  });

  it('lets a target path break only after its separators, never inside a name', async () => {
    renderWith(engine().engine, <History onOpen={vi.fn()} />);
    const row = within(await screen.findByTestId('history-table')).getAllByRole('row')[1]!;
    const path = row.querySelector('td.path')!;
    const target = studentRuns[9]!.workload.target;
    expect(path.textContent).toBe(target);
    expect(path.querySelectorAll('wbr')).toHaveLength((target.match(/\//g) ?? []).length - (target.endsWith('/') ? 1 : 0));
  });

  it('pages through a store of thousands, a page at a time', async () => {
    const fake = engine(8740);
    renderWith(fake.engine, <History onOpen={vi.fn()} />);
    const table = await screen.findByTestId('history-table');
    expect(within(table).getAllByRole('row')).toHaveLength(101);
    expect(table.querySelector('caption')!.textContent).toMatch(/1–100 of 8,740/);
    expect(screen.getByTestId('history-pages').textContent).toContain('Page 1 of 88');
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.getByTestId('history-pages').textContent).toContain('Page 2 of 88'));
    expect(fake.calls.filter((c) => c.method === 'runs.page').at(-1)?.params).toMatchObject({ offset: 100, limit: 100 });
  });

  it('selects every matching run in one action and opens them', async () => {
    const onOpen = vi.fn();
    const fake = engine(250);
    renderWith(fake.engine, <History onOpen={onOpen} />);
    await screen.findByTestId('history-table');
    await userEvent.click(screen.getByRole('button', { name: 'Select all 250 matching' }));
    expect(await screen.findByText('250 selected')).toBeDefined();
    await userEvent.click(screen.getByRole('button', { name: 'Open 250 selected' }));
    await waitFor(() => expect(onOpen).toHaveBeenCalled());
    expect(onOpen.mock.calls[0]![0]).toBe('250 selected runs');
    expect(onOpen.mock.calls[0]![1]).toHaveLength(250);
  });

  it('says when a selection is more than Results opens, and where to learn from all of it', async () => {
    renderWith(engine(8740).engine, <History onOpen={vi.fn()} />);
    await screen.findByTestId('history-table');
    await userEvent.click(screen.getByRole('button', { name: 'Select all 8,740 matching' }));
    expect((await screen.findByTestId('history-open-limit')).textContent).toMatch(/at most 5,000 runs .* in Models/);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Open 8,740 selected' }).disabled).toBe(true);
  });

  it('searches by text, tag, user and machine through the engine', async () => {
    const fake = engine();
    renderWith(fake.engine, <History onOpen={vi.fn()} />);
    await screen.findByTestId('history-table');
    await userEvent.selectOptions(await screen.findByLabelText('Stored by'), 'ben');
    await userEvent.type(screen.getByLabelText('Tag'), 'interface=SATA');
    await userEvent.type(screen.getByLabelText('Target, device or engine'), 'nothing');
    expect(await screen.findByText(/No runs match these filters/)).toBeDefined();
    expect(fake.calls.filter((c) => c.method === 'runs.page').at(-1)?.params).toEqual({
      filter: { search: 'nothing', tags: ['interface=SATA'], since: null, measured_by: 'ben', measured_on: null },
      offset: 0, limit: 100,
    });
  });

  it('deletes only after a confirmation', async () => {
    const fake = engine();
    renderWith(fake.engine, <History onOpen={vi.fn()} />);
    const row0 = within(await screen.findByTestId('history-table')).getAllByRole('row')[1]!;
    await userEvent.click(within(row0).getByRole('button', { name: 'Delete' }));
    expect(fake.calls.some((c) => c.method === 'runs.delete')).toBe(false);
    await userEvent.click(within(row0).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(within(screen.getByTestId('history-table')).getAllByRole('row')).toHaveLength(10));
  });
});
