import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EngineContext, type RunResult, type RunsCompareResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { pageRow, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { ComparePanel } from './ComparePanel';

const [current, earlier] = [studentRuns[0]!, studentRuns[1]!];
const verdict: RunsCompareResult = {
  metric: 'iops', unit: 'IOPS', summary: '', comparisons: [{
    setting: 'randread 4KiB QD1 T1', same_setting: true, drive_state_note: '',
    a_run_ids: [earlier.id!], b_run_ids: [current.id!],
    a: { n: 3, mean: 10000, stddev: 100, half_width: 248.4 }, b: { n: 3, mean: 15000, stddev: 200, half_width: 496.8 },
    a_pooled: null, b_pooled: null,
    diff_pct: 50, p_value: 0.0004, significant: true, verdict: 'B is 50.0 % higher than A: significant at 5%',
  }],
  latency_note: '',
};

function store(runs: RunResult[], total = runs.length) {
  return {
    'runs.page': () => ({ rows: runs.map(pageRow), total, offset: 0, limit: 50 }),
    'runs.list': (p: { run_ids?: number[] | null }) => ({ runs: runs.filter((r) => p.run_ids?.includes(r.id!)), total: 1 }),
  };
}

describe('ComparePanel', () => {
  it('overlays a run chosen from History and shows Welch\'s verdict', async () => {
    const fake = fakeEngine({ ...store([current, earlier]), 'runs.compare': () => verdict });
    let chosen: RunResult[] = [];
    const onEarlier = vi.fn((update: (earlier: RunResult[]) => RunResult[]) => { chosen = update(chosen); });
    const { rerender } = renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[]} onEarlier={onEarlier} />);
    const rows = within(await screen.findByTestId('earlier-runs')).findAllByRole('checkbox');
    expect(await rows).toHaveLength(1); // the run on screen is not offered
    await userEvent.click((await rows)[0]!);
    await waitFor(() => expect(chosen.map((r) => r.id)).toEqual([earlier.id]));
    expect(fake.calls.find((c) => c.method === 'runs.page')?.params).toEqual({ filter: { search: '' }, offset: 0, limit: 51 });

    rerender(<EngineContext.Provider value={fake.engine}><ComparePanel runs={[current]} earlier={chosen} onEarlier={onEarlier} /></EngineContext.Provider>);
    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const cell = await screen.findByTestId('verdict');
    expect(cell.textContent).toMatch(/^significant — B is 50.0 % higher/);
    expect(within(screen.getByTestId('compare-table')).getByText('10,000 ± 248.4 (n=3)')).toBeDefined();
    // both sides named for the engine's verdict, as the CLI names them ('B is 12.4 % lower than A' named neither)
    expect(fake.calls.find((c) => c.method === 'runs.compare')?.params).toEqual({ a: [earlier.id], b: [current.id], metric: 'iops',
      confidence: 0.95, a_label: `the earlier run #${earlier.id}`, b_label: `run #${current.id} shown` });
    expect(screen.getByTestId('compare-table').querySelector('caption')?.textContent)
      .toMatch(new RegExp(`^the earlier run #${earlier.id} against run #${current.id} shown`));
    expect(screen.queryByTestId('latency-note')).toBeNull();
  });

  it('says so when the engine finds the two groups\' latencies are of different kinds', async () => {
    const note = 'latencies of different kinds are compared (group A: completion latency only; group B: total latency)';
    const fake = fakeEngine({ ...store([current, earlier]), 'runs.compare': () => ({ ...verdict, latency_note: note }) });
    renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[earlier]} onEarlier={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    expect((await screen.findByTestId('latency-note')).textContent).toBe(note);
  });

  it('cannot compare before an earlier run is chosen', async () => {
    const fake = fakeEngine(store([]));
    renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[]} onEarlier={vi.fn()} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Compare' }).disabled).toBe(true);
    expect(await screen.findByText('No other runs match.')).toBeDefined();
  });

  it('searches the store and says how many more runs match than it lists', async () => {
    const fake = fakeEngine(store([current, earlier], 8640));
    renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[]} onEarlier={vi.fn()} />);
    await userEvent.type(screen.getByLabelText('Find earlier runs'), 'interface=SATA nodes=2');
    await waitFor(() => expect(fake.calls.at(-1)?.params).toEqual(
      { filter: { search: 'interface=SATA nodes=2' }, offset: 0, limit: 51 }));
    expect((await screen.findByTestId('earlier-more')).textContent).toMatch(/newest 1 of 8,640 matching runs; narrow the search/);
  });
});
