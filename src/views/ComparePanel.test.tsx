import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { EngineContext, type RunResult, type RunsCompareResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { ComparePanel } from './ComparePanel';

const [current, earlier] = [studentRuns[0]!, studentRuns[1]!];
const verdict: RunsCompareResult = {
  metric: 'iops', unit: 'IOPS', comparisons: [{
    setting: 'randread 4KiB QD1 T1', same_setting: true, drive_state_note: '',
    a_run_ids: [earlier.id!], b_run_ids: [current.id!],
    a: { n: 3, mean: 10000, stddev: 100, half_width: 248.4 }, b: { n: 3, mean: 15000, stddev: 200, half_width: 496.8 },
    diff_pct: 50, p_value: 0.0004, significant: true, verdict: 'B is 50.0 % higher than A: significant at 5%',
  }],
  latency_note: '',
};

describe('ComparePanel', () => {
  it('overlays a run chosen from History and shows Welch\'s verdict', async () => {
    const fake = fakeEngine({ 'runs.list': () => ({ runs: [current, earlier], total: 2 }), 'runs.compare': () => verdict });
    let chosen: RunResult[] = [];
    const onEarlier = vi.fn((runs: RunResult[]) => { chosen = runs; });
    const { rerender } = renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[]} onEarlier={onEarlier} />);
    const rows = within(await screen.findByTestId('earlier-runs')).findAllByRole('checkbox');
    expect(await rows).toHaveLength(1); // the run on screen is not offered
    await userEvent.click((await rows)[0]!);
    expect(chosen.map((r) => r.id)).toEqual([earlier.id]);

    rerender(<EngineContext.Provider value={fake.engine}><ComparePanel runs={[current]} earlier={chosen} onEarlier={onEarlier} /></EngineContext.Provider>);
    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const cell = await screen.findByTestId('verdict');
    expect(cell.textContent).toMatch(/^significant — B is 50.0 % higher/);
    expect(within(screen.getByTestId('compare-table')).getByText('10,000 ± 248.4 (n=3)')).toBeDefined();
    expect(fake.calls.find((c) => c.method === 'runs.compare')?.params).toEqual({ a: [earlier.id], b: [current.id], metric: 'iops', confidence: 0.95 });
    expect(screen.queryByTestId('latency-note')).toBeNull();
  });

  it('says so when the engine finds the two groups\' latencies are of different kinds', async () => {
    const note = 'latencies of different kinds are compared (group A: completion latency only; group B: total latency)';
    const fake = fakeEngine({ 'runs.list': () => ({ runs: [current, earlier], total: 2 }), 'runs.compare': () => ({ ...verdict, latency_note: note }) });
    renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[earlier]} onEarlier={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Compare' }));
    expect((await screen.findByTestId('latency-note')).textContent).toBe(note);
  });

  it('cannot compare before an earlier run is chosen', async () => {
    const fake = fakeEngine({ 'runs.list': () => ({ runs: [], total: 0 }) });
    renderWith(fake.engine, <ComparePanel runs={[current]} earlier={[]} onEarlier={vi.fn()} />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Compare' }).disabled).toBe(true);
    expect(await screen.findByText('No other runs match.')).toBeDefined();
  });
});
