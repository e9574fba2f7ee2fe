import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SloSummary } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import recorded from '../test/slo-search.json';
import { LatencyTarget } from './LatencyTarget';

// Recorded from the real engine: `ssdprof slo --rw randread --bs 4k --percentile 99 --latency 300us
// --max-qd 32 --runtime 0.5s` on this machine's disk, then `ssdprof slo --show 1 --format json`.
const search = recorded as SloSummary;

function show(summary: SloSummary) {
  const fake = fakeEngine({
    'curves.list': () => ({ curves: [{ sweep_id: 1, kind: 'slo', name: 'search', status: 'done', created_at: '' }] }),
    'slo.get': () => summary,
  });
  renderWith(fake.engine, <LatencyTarget sweep={() => ({})} onStarted={() => undefined} />);
}

describe('LatencyTarget', () => {
  it('marks the depth with the most IOPS within the target as the answer', async () => {
    show(search);
    const table = await screen.findByRole('table', { name: 'Depths tried' });
    const marked = within(table).getAllByRole('row').filter((row) => row.textContent?.includes('most IOPS'));
    expect(marked).toHaveLength(1);
    const best = search.points.filter((p) => p.meets).reduce((a, b) => (b.iops > a.iops ? b : a));
    expect(marked[0]?.textContent).toContain(`QD${best.queue_depth}`);
    expect(screen.getByTestId('slo-answer').textContent).toContain(`QD${best.queue_depth} gave the most IOPS`);
  });

  it('shows p99 once when the target is at p99, and beside the target percentile otherwise', async () => {
    show(search);
    const headers = (await screen.findAllByRole('columnheader')).map((h) => h.textContent);
    expect(headers.filter((h) => h?.startsWith('p99'))).toHaveLength(1);
  });

  it('gives p99 a column of its own when the target is at p99.9', async () => {
    show({ ...search, percentile: 99.9 });
    const headers = (await screen.findAllByRole('columnheader')).map((h) => h.textContent);
    expect(headers).toContain('p99.9 µs');
    expect(headers).toContain('p99 µs');
  });

  it('names the deepest depth within the target when it is not the answer', async () => {
    const shallow = search.points.find((p) => p.meets && p.queue_depth !== search.best?.queue_depth);
    show({ ...search, deepest: shallow ?? null });
    const table = await screen.findByRole('table', { name: 'Depths tried' });
    const row = within(table).getAllByRole('row').find((r) => r.textContent?.includes('deepest within'));
    expect(row?.textContent).toContain(`QD${shallow?.queue_depth}`);
  });
});
