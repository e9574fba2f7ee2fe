import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SloRequest, SloSummary } from '../api';
import { RpcReplyError, fakeEngine } from '../test/fake-engine';
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
  renderWith(fake.engine, <LatencyTarget sweep={{}} onStarted={() => undefined} />);
}

const bad = [
  { field: 'percentile', flag: '--percentile', label: 'percentile', message: 'must be above 0 and below 100, e.g. 99 or 99.9; got 150' },
  { field: 'latency_ns', flag: '--latency', label: 'latency target', message: "'fast' is not a latency (a number with a unit: ns, us, ms, s)" },
  { field: 'max_qd', flag: '--max-qd', label: 'deepest queue', message: "must be a whole number from 1 to 4096; got '-3'" },
];

describe('LatencyTarget', () => {
  it('names every bad field at once as it is typed, and starts nothing while any is bad', async () => {
    const fake = fakeEngine({
      'curves.list': () => ({ curves: [] }),
      'slo.check': (p: SloRequest) => {
        if (p.percentile === '150') throw new RpcReplyError({ code: -32602, message: 'bad', data: { problems: bad } });
        return { label: 'randread 4KiB QD1 T1', max_qd: 256, point_s: 12 };
      },
    });
    renderWith(fake.engine, <LatencyTarget sweep={{}} onStarted={() => undefined} />);
    const startButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Find the most IOPS within the target' });
    await waitFor(() => expect(startButton().disabled).toBe(false));
    await userEvent.clear(screen.getByLabelText('Target percentile'));
    await userEvent.type(screen.getByLabelText('Target percentile'), '150');
    expect((await screen.findByText(bad[0]!.message)).getAttribute('data-field')).toBe('percentile');
    expect(screen.getByText(bad[1]!.message).getAttribute('data-field')).toBe('latency');
    expect(screen.getByText(bad[2]!.message).getAttribute('data-field')).toBe('max_qd');
    expect(startButton().disabled).toBe(true);
    await userEvent.click(startButton());
    expect(fake.calls.some((c) => c.method === 'slo.start')).toBe(false);
  });

  it('marks the depth with the most IOPS within the target as the answer', async () => {
    show(search);
    const table = await screen.findByRole('table', { name: 'Depths tried' });
    const marked = within(table).getAllByRole('row').filter((row) => row.textContent?.includes('most IOPS'));
    expect(marked).toHaveLength(1);
    const best = search.points.filter((p) => p.meets).reduce((a, b) => (b.iops > a.iops ? b : a));
    expect(marked[0]?.textContent).toContain(`QD${best.queue_depth}`);
    expect(screen.getByTestId('slo-answer').textContent).toContain(`QD${best.queue_depth} gave the most IOPS`);
  });

  it('gives every depth\'s latency to one decimal, a whole number of µs too', async () => {
    show({ ...search, percentile: 99.9 });
    const table = await screen.findByRole('table', { name: 'Depths tried' });
    const cells = within(table).getAllByRole('row').slice(1).flatMap((row) => [...row.querySelectorAll('td')].slice(3, 5).map((td) => td.textContent));
    expect(cells).toContain('428.0');
    expect(cells.filter((c) => !/^\d{1,3}(,\d{3})*\.\d$/.test(c ?? ''))).toEqual([]);
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
