import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeEngine } from '../test/fake-engine';
import { chartCase, chartHandlers, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { GroupsPanel } from './GroupsPanel';

function barRows(): string[][] {
  const table = screen.getByTestId('group-bars');
  return within(table).getAllByRole('row').slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? ''));
}

describe('GroupsPanel', () => {
  it('keeps a group\'s runs of one setting apart unless pooled, naming their source', async () => {
    const fake = fakeEngine({ ...chartHandlers() });
    renderWith(fake.engine, <GroupsPanel runs={studentRuns} />);
    await waitFor(() => expect(screen.getByTestId('group-bars')).toBeDefined());
    const asked = fake.calls.find((c) => c.method === 'runs.bars')?.params;
    expect(asked).toEqual(chartCase('the sweep as one group, by its recorded interface').params);
    // the student preset measures 4 KiB QD1 reads in two of its series: two bars of one run each
    const qd1 = barRows().filter((r) => r[0]!.startsWith('randread 4KiB QD1 T1'));
    expect(qd1.map((r) => [r[0], r[3]])).toEqual([
      ['randread 4KiB QD1 T1 (run 1)', 'run 1'], ['randread 4KiB QD1 T1 (run 8)', 'run 8']]);

    const pool = screen.getByRole('checkbox', { name: /Pool a group's runs of one setting/ });
    await userEvent.click(pool);
    await waitFor(() => expect(barRows()).toHaveLength(9));
    const [pooled] = barRows().filter((r) => r[0] === 'randread 4KiB QD1 T1');
    expect(pooled![3]).toBe('n = 2 runs pooled from sweep 1');
    expect(pooled![2]).toMatch(/^[\d,.]+ ± [\d,.]+$/);
  });
});
