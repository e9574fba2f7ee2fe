import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EngineContext, type StudentSummary as Summary, type SummaryParams } from '../api';
import { fakeEngine, RpcReplyError } from '../test/fake-engine';
import { studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import recorded from '../test/student-summary.json';
import { AUTO, NONE } from './SpecPanel';
import { StudentSummary } from './StudentSummary';

// The real engine's answers to runs.summary for the student sweep (scripts/gen_summary_fixture.py).
const answers = recorded.answers as { case: string; params: SummaryParams; result: Summary }[];
const unnamed = answers[0]!.result;
const againstEvo = answers[1]!.result;
const EVO = 'samsung-970-evo-plus-1tb';

function engineAnswering() {
  return fakeEngine({
    'runs.summary': (p) => {
      const found = answers.find((a) => a.params.spec_id === p.spec_id && p.compare_spec !== false);
      if (found) return found.result;
      const message = `no recorded answer for ${JSON.stringify(p)}`;
      throw new RpcReplyError({ code: -32001, message });
    },
  });
}

const texts = (items: HTMLElement[]) => items.map((li) => li.textContent);

describe('StudentSummary', () => {
  it('draws the key figures the engine computed, leaving unmeasured cells empty', async () => {
    renderWith(engineAnswering().engine, <StudentSummary runs={studentRuns} specChoice={AUTO} />);
    const table = await screen.findByTestId('glance-table');
    const rows = within(table).getAllByRole('row').slice(2);
    expect(rows.map((r) => r.getAttribute('data-row'))).toEqual(unnamed.table.map((r) => r.label));
    const deep = unnamed.table[0]!;
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(texts(cells.slice(0, 3))).toEqual([
      (deep.read!.bw_bytes_per_s / 1e6).toFixed(1),
      Math.round(deep.read!.iops).toLocaleString('en-US'),
      `${(deep.read!.lat_ns_mean! / 1e6).toFixed(2)} ms`,
    ]);
    expect(deep.write).toBeNull();
    expect(cells[3]!.getAttribute('aria-label')).toBe('write: not measured');
    expect(cells[3]!.textContent).toBe('');
    expect(within(rows[1]!).getAllByRole('cell')[0]!.getAttribute('title'))
      .toBe('randread 4KiB QD1 T1: run #1; measured separately in runs #4, #8, not averaged in');
  });

  it('marks a cell one of several separate runs shows, and gives all of them as the engine pooled them', async () => {
    renderWith(engineAnswering().engine, <StudentSummary runs={studentRuns} specChoice={AUTO} />);
    const cell = unnamed.table[1]!.read!;
    const all = cell.all_runs!;
    expect(all.n).toBe(2);
    const rows = within(await screen.findByTestId('glance-table')).getAllByRole('row').slice(2);
    expect(within(rows[1]!).getAllByRole('cell')[1]!.textContent).toBe(`${Math.round(cell.iops).toLocaleString('en-US')} *`);
    expect(screen.getByTestId('glance-all-runs').textContent).toBe(`* ${all.sentence}.`);
    expect(all.sentence).toMatch(/^randread 4KiB QD1 T1 read: run 1 shown; all 2 runs of the setting give [\d,]+ ± [\d,]+ IOPS/);
  });

  it('gives each factor, the best figures and the caveats in the engine\'s words', async () => {
    renderWith(engineAnswering().engine, <StudentSummary runs={studentRuns} specChoice={AUTO} />);
    const factors = await screen.findByTestId('factor-findings');
    expect(texts(within(factors).getAllByRole('listitem')))
      .toEqual(unnamed.factors.map((f) => f.sentence));
    expect(factors.textContent).toMatch(/From 4KiB to 128KiB \(randread QD1 T1\), IOPS fell/);
    const caveats = within(screen.getByTestId('caveats')).getAllByRole('listitem');
    expect(caveats.map((li) => li.getAttribute('data-code')))
      .toEqual(unnamed.caveats.map((c) => c.code));
    expect(screen.getByTestId('spec-verdict').textContent).toMatch(/choose a spec sheet/);
    expect(screen.getByText(unnamed.best[0]!.sentence)).toBeDefined();
  });

  it('asks for the chosen sheet, or for none, and shows the best figure against it', async () => {
    const fake = engineAnswering();
    const { rerender } = renderWith(fake.engine,
      <StudentSummary runs={studentRuns} specChoice={EVO} />);
    const verdict = () => screen.getByTestId('spec-verdict').textContent;
    await waitFor(() => expect(verdict()).toBe(againstEvo.spec.sentence));
    expect(verdict()).toMatch(/reached \d+ % of the rated rand_read IOPS/);
    rerender(
      <EngineContext.Provider value={fake.engine}>
        <StudentSummary runs={studentRuns} specChoice={NONE} />
      </EngineContext.Provider>,
    );
    await screen.findByRole('alert');
    const asked = fake.calls.filter((c) => c.method === 'runs.summary')
      .map((c) => c.params as SummaryParams);
    expect(asked.map((p) => [p.spec_id, p.compare_spec])).toEqual([[EVO, true], [null, false]]);
  });
});
