import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReplayResult } from '../api';
import { fakeEngine } from '../test/fake-engine';
import { renderWith } from '../test/render';
import recorded from '../test/replay-iolog.json';
import { ReplayReport } from './ReplayReport';

// The engine's answer to replay.get for a real replay (ssdprof replay trace.iolog --engine portable --qd 4 --json):
// a fio iolog of 120 I/Os over 2 s, which records when each I/O was issued but not how long it took
// (engine/tests/model/test_replay_results.py holds it to the engine's model).
const result = recorded as unknown as ReplayResult;

describe('ReplayReport', () => {
  it("counts the trace's I/Os in the latency table and says the trace recorded no latency for them", () => {
    renderWith(fakeEngine({}).engine, <ReplayReport result={result} />);
    const table = screen.getByTestId('replay-latency-table');
    expect(within(table).getAllByRole('columnheader')[1]!.textContent).toBe('I/Os in the trace');
    for (const beside of result.latency) {
      expect(beside.recorded_count).toBe(0);
      const cells = within(within(table).getByRole('row', { name: new RegExp(`^${beside.direction}`) })).getAllByRole('cell');
      expect(cells[0]!.textContent).toBe(beside.trace_count.toLocaleString('en-US'));
      expect(cells[0]!.textContent).not.toBe('0');
      expect(cells[2]!.textContent).toBe('–');  // no recorded p50
    }
    const said = screen.getAllByTestId('replay-latency-unrecorded').map((p) => p.textContent);
    expect(said).toEqual(['The trace records no latency for its 80 reads.', 'The trace records no latency for its 40 writes.']);
  });

  it('says how late the I/Os were issued and whether the recorded timing was kept', () => {
    renderWith(fakeEngine({}).engine, <ReplayReport result={result} />);
    expect(result.timing_kept).toBe(true);
    const timing = screen.getByTestId('replay-timing').textContent;
    expect(timing).toContain('the target kept the recorded timing: 0.0 % of I/Os were issued more than 10 ms after');
    expect(timing).toContain(`99 % within ${result.late_p99_ms!.toPrecision(3).replace(/\.?0+$/, '')} ms`);
  });
});
