import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BarChart, BarsParams, RunsCompareParams, RunsCompareResult, RunsGroupsParams, RunsGroupsResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { chartCase, chartHandlers, studentRuns } from '../test/fixtures';
import { renderWith } from '../test/render';
import { GroupsPanel } from './GroupsPanel';

function barRows(): string[][] {
  const table = screen.getByTestId('group-bars');
  return within(table).getAllByRole('row').slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? ''));
}

const KEYS = [{ key: 'none', name: 'no split' }, { key: 'tag chunk', name: 'chunk' }, { key: 'tag interface', name: 'interface' },
  { key: 'recorded interface', name: 'recorded interface' }, { key: 'recorded drive', name: 'recorded drive' }];
const SATA = Array.from({ length: 4320 }, (_, i) => i + 1);
const PCIE = SATA.map((i) => i + 4320);
const SETTINGS = Array.from({ length: 30 }, (_, i) => `read ${4 * (i + 1)}KiB QD4 T1 on 8 hosts`);

/** The study split as the engine splits it: by interface (its choice) or by chunk (groups measuring apart). */
function groups(p: RunsGroupsParams): RunsGroupsResult {
  if (p.key === 'tag chunk') {
    return { key: 'tag chunk', name: 'chunk', keys: KEYS, why: '', groups: [
      { label: '4096', run_ids: SATA, shared_settings: 15 }, { label: '65536', run_ids: PCIE, shared_settings: 0 }] };
  }
  return { key: 'tag interface', name: 'interface', keys: KEYS,
    why: p.key ? '' : 'interface splits these runs into 2 groups that measured 30 setting(s) in common',
    groups: [{ label: 'PCIe', run_ids: PCIE, shared_settings: 30 }, { label: 'SATA', run_ids: SATA, shared_settings: 30 }] };
}

function bars(p: BarsParams): BarChart {
  return { categories: SETTINGS, series: p.groups.map((g, k) => ({ label: g.label, setting: '', statistic: '',
    points: SETTINGS.map((_, x) => ({ x, y: 1000 * (k + 1) + x, half_width: 10, n: 30, run_ids: [], source: 'n = 30 repeats of sweep 3' })) })) };
}

function compared(p: RunsCompareParams): RunsCompareResult {
  return { metric: 'iops', unit: 'IOPS', latency_note: '', summary: `${p.b_label} against ${p.a_label} at 30 setting(s): ...`,
    comparisons: SETTINGS.map((setting) => ({ setting, same_setting: true, drive_state_note: '', a_run_ids: [], b_run_ids: [],
      a: { n: 30, mean: 2000, stddev: 10, half_width: 4 }, b: { n: 30, mean: 1000, stddev: 10, half_width: 4 },
      diff_pct: -50, p_value: 1e-9, significant: true, a_pooled: null, b_pooled: null, verdict: `${p.b_label} is 50.0 % lower than ${p.a_label}` })) };
}

const study = () => fakeEngine({ 'runs.groups': groups, 'runs.bars': bars, 'runs.compare': compared });

describe('GroupsPanel', () => {
  it('summarises each group\'s runs of a setting as one bar, named by the tag\'s value, a page of settings at a time', async () => {
    const fake = study();
    renderWith(fake.engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    await waitFor(() => expect(screen.getByTestId('group-bars')).toBeDefined());
    expect(fake.calls.find((c) => c.method === 'runs.groups')!.params).toMatchObject({ key: '' });
    expect(screen.getByTestId('groups-said').textContent).toBe('interface splits these runs into 2 groups that measured 30 '
      + 'setting(s) in common. interface: PCIe (4,320 runs), SATA (4,320 runs).');
    expect(fake.calls.find((c) => c.method === 'runs.bars')!.params).toMatchObject({ pool_same_setting: true });
    expect(barRows()).toHaveLength(24); // 12 settings x 2 groups, not 8,640 bars
    expect(barRows()[0]).toEqual([SETTINGS[0], 'PCIe', '1,000 ± 10', 'n = 30 repeats of sweep 3']);
    const pages = screen.getByTestId('groups-pages');
    expect(within(pages).getByRole('status').textContent).toBe('settings 1–12 of 30');
    await userEvent.click(within(pages).getByRole('button', { name: 'Next ›' }));
    expect(barRows()[0]![0]).toBe(SETTINGS[12]);
    expect(screen.getByRole('option', { name: 'interface' })).toBeDefined();
    expect(screen.queryByRole('option', { name: /^tag / })).toBeNull();
  });

  it('compares each group with the first by Welch\'s test, naming both, a page of settings at a time', async () => {
    const fake = study();
    renderWith(fake.engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    const verdicts = await screen.findByTestId('group-verdicts');
    expect(fake.calls.find((c) => c.method === 'runs.compare')!.params).toMatchObject({ a_label: 'PCIe', b_label: 'SATA' });
    expect(within(verdicts).getByTestId('verdict-summary').textContent).toBe('SATA against PCIe at 30 setting(s): ....');
    expect(within(verdicts).getAllByRole('row')).toHaveLength(13); // a header and 12 settings
    expect(verdicts.textContent).toContain('SATA is 50.0 % lower than PCIe');
    await userEvent.type(screen.getByLabelText('Settings containing'), '120KiB');
    await waitFor(() => expect(within(verdicts).getAllByRole('row')).toHaveLength(2));
    expect(barRows().map((r) => r[0])).toEqual([SETTINGS[29], SETTINGS[29]]);
  });

  it('says which groups measured nothing in common and compares none of them', async () => {
    const fake = study();
    renderWith(fake.engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    await screen.findByTestId('group-bars');
    await userEvent.selectOptions(screen.getByLabelText('Split by'), 'tag chunk');
    await waitFor(() => expect(screen.getByTestId('groups-apart').textContent).toMatch(/^65536 measured none of the settings 4096 measured/));
    expect(fake.calls.filter((c) => c.method === 'runs.compare').map((c) => (c.params as RunsCompareParams).b_label)).toEqual(['SATA']);
    expect(screen.queryByTestId('group-verdicts')).toBeNull();
  });

  it('names each metric with its unit once: IOPS, not \'IOPS (IOPS)\'', async () => {
    renderWith(study().engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    await screen.findByTestId('group-bars');
    const names = within(screen.getByLabelText('Metric')).getAllByRole('option').map((o) => o.textContent);
    expect(names).toEqual(['IOPS', 'bandwidth (MB/s)', 'mean latency, all I/Os (µs)', 'p99 latency, all I/Os (µs)',
      'p99.9 latency, all I/Os (µs)']);
  });

  it('keeps the split chosen when the view is left and opened again', async () => {
    const fake = study();
    const first = renderWith(fake.engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    await screen.findByTestId('group-bars');
    await userEvent.selectOptions(screen.getByLabelText('Split by'), 'tag chunk');
    first.unmount();
    renderWith(fake.engine, <GroupsPanel runIds={[...SATA, ...PCIE]} />);
    await waitFor(() => expect(screen.getByLabelText<HTMLSelectElement>('Split by').value).toBe('tag chunk'));
    expect(fake.calls.filter((c) => c.method === 'runs.groups').at(-1)!.params).toMatchObject({ key: 'tag chunk' });
  });

  it('draws the engine\'s bars of a sweep with no split, each setting\'s runs as one', async () => {
    const ids = studentRuns.map((r) => r.id!);
    const fake = fakeEngine({ ...chartHandlers(), 'runs.groups': () => ({ key: 'recorded interface', name: 'recorded interface',
      keys: KEYS, why: '', groups: [{ label: 'virtio', run_ids: ids, shared_settings: 9 }] }) });
    renderWith(fake.engine, <GroupsPanel runIds={ids} />);
    await waitFor(() => expect(screen.getByTestId('group-bars')).toBeDefined());
    expect(fake.calls.find((c) => c.method === 'runs.bars')?.params)
      .toEqual(chartCase('the sweep as one group, its runs of one setting pooled on request').params);
    const [pooled] = barRows().filter((r) => r[0] === 'randread 4KiB QD1 T1');
    expect(pooled![3]).toBe('n = 2 runs pooled from sweep 1');
  });
});
