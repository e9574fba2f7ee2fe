import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  EngineContext, type Engine, type Spec, type SpecCompareParams, type SpecCompareResult,
  type SpecRememberParams,
} from '../api';
import { fakeEngine, type FakeEngine } from '../test/fake-engine';
import { evoPlus, fullRun, specChoices } from '../test/fixtures';
import { renderWith } from '../test/render';
import { AUTO, NONE, SpecPanel, runList } from './SpecPanel';

const qd1 = evoPlus.figures.find((f) => f.queue_depth === 1)!;
const qd32 = evoPlus.figures.find((f) => f.queue_depth === 32)!;

function compared(p: SpecCompareParams): SpecCompareResult {
  if (!p.spec_id) return { comparisons: [], unmatched: { [String(fullRun.id)]: 'the drive model is unknown here (virtual disk?); choose a spec sheet' } };
  return {
    unmatched: {},
    comparisons: [
      { run_id: fullRun.id!, run_ids: [fullRun.id!], spec_id: evoPlus.id, how: 'chosen', sentence: '', comparison: {
        spec_id: evoPlus.id, figure: qd1, status: 'unstated', measured: 9500, rated_canonical: 19000, pct_of_spec: 50,
        notes: ['thread count not stated by the source (assumed 1)'] } },
      { run_id: fullRun.id!, run_ids: [fullRun.id!], spec_id: evoPlus.id, how: 'chosen', sentence: '', comparison: {
        spec_id: evoPlus.id, figure: qd32, status: 'mismatch', measured: 9500, rated_canonical: 600000, pct_of_spec: null,
        notes: ['rated at QD32x1 = 32 outstanding I/Os, this run had 1'] } },
    ],
  };
}

describe('SpecPanel', () => {
  it('says why nothing is compared when the drive is not matched, then compares with a chosen spec', async () => {
    const fake = fakeEngine({ 'specs.list': () => ({
      specs: [evoPlus], problems: [], user_spec_ids: [], user_spec_dir: null, choices: specChoices,
    }), 'specs.compare': compared });
    const onSpec = vi.fn();
    const { rerender } = renderWith(fake.engine, <SpecPanel runs={[fullRun]} choice={AUTO} onChoice={vi.fn()} onSpec={onSpec} />);
    expect(await screen.findByText(/virtual disk\?\); choose a spec sheet/)).toBeDefined();

    rerender(<SpecPanelIn engine={fake.engine} choice={evoPlus.id} onSpec={onSpec} />);
    const table = await screen.findByTestId('spec-table');
    const cells = within(table).getAllByTestId('pct-of-spec').map((c) => c.textContent);
    expect(cells).toEqual(['50 % of spec (indicative)', 'not compared']);
    expect(within(table).getAllByText('9,500 IOPS')).toHaveLength(2);
    expect(within(table).getByText(/this run had 1/)).toBeDefined();
    await waitFor(() => expect(onSpec).toHaveBeenLastCalledWith(evoPlus));
    expect(fake.calls.filter((c) => c.method === 'specs.compare').map((c) => c.params))
      .toEqual([{ run_ids: [fullRun.id], spec_id: null }, { run_ids: [fullRun.id], spec_id: evoPlus.id }]);
  });

  it('offers every spec in the library to choose from', async () => {
    const fake = fakeEngine({ 'specs.list': () => ({
      specs: [evoPlus], problems: [], user_spec_ids: [], user_spec_dir: null, choices: specChoices,
    }), 'specs.compare': compared });
    const onChoice = vi.fn();
    renderWith(fake.engine, <SpecPanel runs={[fullRun]} choice={AUTO} onChoice={onChoice} onSpec={vi.fn()} />);
    await screen.findByRole('option', { name: 'Samsung 970 EVO Plus 1TB' });
    await userEvent.selectOptions(screen.getByLabelText('Spec sheet'), evoPlus.id);
    expect(onChoice).toHaveBeenCalledWith(evoPlus.id);
  });
});

describe('SpecPanel for a drive the OS does not name', () => {
  const crucial: Spec = {
    ...evoPlus, id: 'crucial-p3-1tb', vendor: 'Crucial', model: 'P3 1TB', match_patterns: [],
  };
  const library = () => ({
    specs: [crucial, evoPlus], problems: [], user_spec_ids: [], user_spec_dir: null, choices: specChoices,
  });
  const remembered = (p: SpecRememberParams) => ({
    device: 'disk vda on vm', spec_id: p.spec_id ?? null,
  });
  const rememberCalls = (fake: FakeEngine) =>
    fake.calls.filter((c) => c.method === 'specs.remember').map((c) => c.params);

  it('finds a sheet by typing and remembers the pick for the device', async () => {
    const fake = fakeEngine({
      'specs.list': library, 'specs.compare': compared, 'specs.remember': remembered,
    });
    const onChoice = vi.fn();
    renderWith(fake.engine,
      <SpecPanel runs={[fullRun]} choice={AUTO} onChoice={onChoice} onSpec={vi.fn()} />);
    const search = await screen.findByRole('combobox', { name: 'Find a spec sheet' });
    await screen.findByRole('option', { name: 'Crucial P3 1TB' });
    await userEvent.type(search, '970');
    expect(screen.getByTestId('spec-matches').textContent).toBe('1 of 2 sheets match');
    const picker = screen.getByLabelText('Spec sheet', { exact: true });
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'automatic (by drive model, or as chosen before)', 'none', 'Samsung 970 EVO Plus 1TB']);
    await userEvent.clear(search);
    await userEvent.type(search, 'Samsung 970 EVO Plus 1TB');
    expect(onChoice).toHaveBeenLastCalledWith(evoPlus.id);
    expect(rememberCalls(fake)).toEqual([{ run_id: fullRun.id, spec_id: evoPlus.id }]);
    expect((await screen.findByTestId('spec-remembered')).textContent)
      .toMatch(/^Remembered for disk vda on vm: applied next time/);
  });

  it('shows the sheet applied from the earlier choice, and forgets it on request', async () => {
    const fake = fakeEngine({
      'specs.list': library, 'specs.remember': remembered,
      'specs.compare': (p) => {
        const answer = compared({ ...p, spec_id: evoPlus.id });
        const how = 'chosen earlier for disk vda on vm';
        return { ...answer, comparisons: answer.comparisons.map((c) => ({ ...c, how })) };
      },
    });
    const onChoice = vi.fn();
    const onSpec = vi.fn();
    renderWith(fake.engine,
      <SpecPanel runs={[fullRun]} choice={AUTO} onChoice={onChoice} onSpec={onSpec} />);
    expect((await screen.findByTestId('spec-used')).textContent)
      .toBe('Compared with Samsung 970 EVO Plus 1TB (NVMe) — chosen earlier for disk vda on vm');
    await waitFor(() => expect(onSpec).toHaveBeenLastCalledWith(evoPlus));
    await userEvent.click(screen.getByRole('button', { name: 'Forget this choice' }));
    expect(onChoice).toHaveBeenLastCalledWith(NONE);
    expect(rememberCalls(fake)).toEqual([{ run_id: fullRun.id, spec_id: null }]);
    expect((await screen.findByTestId('spec-remembered')).textContent)
      .toBe('Forgot the sheet chosen for disk vda on vm.');
  });
});

function SpecPanelIn({ engine, choice, onSpec }: { engine: Engine; choice: string; onSpec: (s: Spec | null) => void }) {
  return <EngineContext.Provider value={engine}><SpecPanel runs={[fullRun]} choice={choice} onChoice={vi.fn()} onSpec={onSpec} /></EngineContext.Provider>;
}

describe('runList', () => {
  it('writes consecutive run ids as ranges', () => {
    expect(runList([7])).toBe('run #7');
    expect(runList([3, 1, 2, 7, 9, 10])).toBe('runs #1–#3, #7, #9–#10');
  });
});
