import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { RunsSelectParams } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import { Models } from './Models';

const STUDY = Array.from({ length: 8640 }, (_, i) => i + 1);

describe('Models', () => {
  it('learns from every run a search finds, however many, and says so', async () => {
    const fake = fakeEngine({
      'runs.select': (p: RunsSelectParams) => ({ run_ids: p.filter?.search === 'study=ceph' ? STUDY : [], total: 8640, tag_keys: ['study'] }),
      'analysis.correlation': () => ({ method: 'spearman', groups: [] }),
      'runs.groups': () => ({ key: 'tag study', name: 'study', keys: ['tag study'], groups: [{ label: 'study=ceph', run_ids: STUDY }] }),
      'runs.bars': () => ({ categories: [], series: [] }),
    });
    renderWith(fake.engine, <Models open={{ title: '', runs: [] }} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Find runs' }), 'study=ceph');
    await waitFor(() => expect(screen.getByTestId('model-runs').textContent).toBe('8,640 run(s), every one matching'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'analysis.correlation')).toBe(true));
    const asked = fake.calls.find((c) => c.method === 'analysis.correlation')!.params as { run_ids: number[] };
    expect(asked.run_ids).toHaveLength(8640);
  });
});
