import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BarChart, RunsGroupsParams, RunsGroupsResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { chartCase, chartHandlers, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { GroupsPanel } from './GroupsPanel';

function barRows(): string[][] {
  const table = screen.getByTestId('group-bars');
  return within(table).getAllByRole('row').slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? ''));
}

/** The engine's grouping of the student sweep: no tags, one recorded interface. */
function grouped(ids: number[], groups = [{ label: 'virtio', run_ids: ids }]): RunsGroupsResult {
  return { key: 'recorded interface', name: 'recorded interface', keys: ['recorded interface', 'recorded drive'], groups };
}

describe('GroupsPanel', () => {
  it('keeps a group\'s runs of one setting apart unless pooled, naming their source', async () => {
    const ids = studentRuns.map((r) => r.id!);
    const fake = fakeEngine({ ...chartHandlers(), 'runs.groups': () => grouped(ids) });
    renderWith(fake.engine, <GroupsPanel runIds={ids} />);
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

  it('titles the chart with the grouping its bars were drawn for, and compares big groups', async () => {
    const sata = Array.from({ length: 4320 }, (_, i) => i + 1);
    const pcie = sata.map((i) => i + 4320);
    const byInterface: RunsGroupsResult = {
      key: 'tag interface', name: 'interface', keys: ['tag chunk', 'tag interface', 'recorded interface', 'recorded drive'],
      groups: [{ label: 'interface=PCIe', run_ids: pcie }, { label: 'interface=SATA', run_ids: sata }],
    };
    const byChunk: RunsGroupsResult = { ...byInterface, key: 'tag chunk', name: 'chunk',
      groups: [{ label: 'chunk=4096', run_ids: sata }, { label: 'chunk=65536', run_ids: pcie }] };
    const bars = (labels: string[]): BarChart => ({ categories: ['randread 4KiB QD4 T1 on 8 hosts'],
      series: labels.map((label, i) => ({ label, setting: '', statistic: '', points: [
        { x: 0, y: 1000 * (i + 1), half_width: 10, n: 4320, run_ids: [], source: 'n = 4320 runs pooled' }] })) });
    const fake = fakeEngine({
      'runs.groups': (p: RunsGroupsParams) => (p.key === 'tag interface' ? byInterface : byChunk),
      'runs.bars': (p) => bars(p.groups.map((g) => g.label)),
      'runs.compare': () => ({ metric: 'iops', unit: 'IOPS', latency_note: '', comparisons: [] }),
    });
    renderWith(fake.engine, <GroupsPanel runIds={[...sata, ...pcie]} />);
    await waitFor(() => expect(screen.getAllByText(/IOPS per setting and chunk/)).not.toHaveLength(0));
    await userEvent.selectOptions(screen.getByLabelText('Group by'), 'tag interface');
    await waitFor(() => expect(screen.getAllByText(/IOPS per setting and interface/)).not.toHaveLength(0));
    expect(screen.queryAllByText(/per setting and chunk/)).toHaveLength(0);
    expect(barRows().map((r) => r[1])).toEqual(['interface=PCIe', 'interface=SATA']);
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.compare')).toBe(true));
    const asked = fake.calls.filter((c) => c.method === 'runs.compare').at(-1)!.params as { a: number[]; b: number[] };
    expect([asked.a.length, asked.b.length]).toEqual([4320, 4320]);
  });
});
