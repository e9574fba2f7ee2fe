import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RunsSelectParams, RunsSelectResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { Models } from './Models';

const STUDY = Array.from({ length: 8640 }, (_, i) => i + 1);

function selected(p: RunsSelectParams): RunsSelectResult {
  const search = p.filter?.search ?? '';
  if (search === 'study=ceph') return { run_ids: STUDY, total: 8640, tag_keys: ['study'], understood: ['tag study=ceph'], offers: [] };
  return { run_ids: [], total: 0, tag_keys: [], understood: ['“interface” in a target, device model, engine or source'],
    offers: [{ tag: 'interface=PCIe', runs: 4320, search: 'interface=PCIe' }, { tag: 'interface=SATA', runs: 4320, search: 'interface=SATA' }] };
}

const study = () => fakeEngine({
  'runs.select': selected,
  'analysis.correlation': () => ({ method: 'spearman', groups: [] }),
  'runs.groups': () => ({ key: 'tag study', name: 'study', why: '', keys: [{ key: 'tag study', name: 'study' }],
    groups: [{ label: 'ceph', run_ids: STUDY, shared_settings: 144 }] }),
  'runs.bars': () => ({ categories: [], series: [] }),
});

describe('Models', () => {
  it('learns from every run a search finds, however many, and says so', async () => {
    const fake = study();
    renderWith(fake.engine, <Models open={{ title: '', runs: [] }} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find runs' }), 'study=ceph');
    await waitFor(() => expect(screen.getByTestId('model-runs').textContent).toBe('8,640 run(s), every one matching'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'analysis.correlation')).toBe(true));
    const asked = fake.calls.find((c) => c.method === 'analysis.correlation')!.params as { run_ids: number[] };
    expect(asked.run_ids).toHaveLength(8640);
  });

  it('keeps the runs it learns from when the view is left and opened again, and shows them at once', async () => {
    const fake = study();
    const first = renderWith(fake.engine, <Models open={{ title: '', runs: [] }} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find runs' }), 'study=ceph');
    await waitFor(() => expect(screen.getByTestId('model-runs').textContent).toBe('8,640 run(s), every one matching'));
    await waitFor(() => expect(screen.getByTestId('groups-said').textContent).toContain('ceph (8,640 runs)'));
    first.unmount();
    const asked = fake.calls.length;
    renderWith(fake.engine, <Models open={{ title: '', runs: [] }} />);
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Find runs' }).value).toBe('study=ceph');
    // drawn from the answers kept for the page before the engine answers again (it is asked again)
    expect(screen.getByTestId('model-runs').textContent).toBe('8,640 run(s), every one matching');
    expect(screen.getByTestId('groups-said').textContent).toContain('ceph (8,640 runs)');
    await waitFor(() => expect(fake.calls.slice(asked).map((c) => c.method)).toContain('runs.groups'));
  });

  it('says how a search that finds nothing was read, and offers the tags a bare word names', async () => {
    const fake = study();
    renderWith(fake.engine, <Models open={{ title: '', runs: [] }} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find runs' }), 'interface');
    await waitFor(() => expect(screen.getByTestId('search-read').textContent)
      .toContain('Understood: “interface” in a target, device model, engine or source.'));
    await waitFor(() => expect(screen.getByTestId('models-empty').textContent).toMatch(/^No run matches “interface”: predictions, scaling, groups/));
    await userEvent.click(screen.getByRole('button', { name: 'interface=SATA (4,320 runs)' }));
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Find runs' }).value).toBe('interface=SATA');
  });
});
