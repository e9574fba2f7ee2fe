import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SustainResult, SustainStarted } from '../api';
import { formatBytes, formatDuration, formatMbPerS } from '../lib/units';
import recordedCliff from '../test/sustain-cliff.json';
import { SustainProgress, liveLines, sustainProgress } from './SustainProgress';

const cliff = recordedCliff as SustainResult;
const started: SustainStarted = {
  kind: 'sustain_started', sustain_id: cliff.id, name: cliff.name, label: cliff.label,
  write_bytes: cliff.parameters.write_bytes, idle_s: cliff.parameters.idle_s, fill_done: false,
  recovery_done: 0, estimated_s: 600, engine: 'fio', engine_reason: 'fio found', notes: [],
};
const fill = {
  kind: 'sustain_step_started', step: 'fill', recovery_step: 0,
  bytes_total: cliff.parameters.write_bytes,
} as const;

describe('SustainProgress', () => {
  it('draws each second of the fill against the bytes written so far, and says how far', () => {
    let state = sustainProgress(null, started);
    state = sustainProgress(state, fill);
    for (const sample of cliff.samples.slice(0, 3)) {
      state = sustainProgress(state, { kind: 'sustain_sample', step: 'fill', recovery_step: 0,
        sample, bytes_total: fill.bytes_total, eta_s: 90 });
    }
    render(<SustainProgress state={state} />);
    const last = cliff.samples[2]!;
    const written = `${formatBytes(last.bytes_written)} of ${formatBytes(fill.bytes_total)}`;
    expect(screen.getByTestId('sustain-doing').textContent).toBe(
      `The fill: ${written}, ${formatMbPerS(last.bw_bytes_per_s)}, about 1m30s left`);
    const chart = document.querySelector<HTMLElement>('[data-chart="sustain-live"]')!;
    const rows = within(chart).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-y')))
      .toEqual(cliff.samples.slice(0, 3).map((s) => String(s.bw_bytes_per_s / 1e6)));
  });

  it('counts down the idle time, then draws each recovery write as its own line', () => {
    let state = sustainProgress(sustainProgress(null, started), fill);
    state = sustainProgress(state, { kind: 'sustain_step_done', step: 'fill', recovery_step: 0,
      run_id: 7, bytes_written: cliff.fill_bytes, seconds: cliff.fill_seconds, recovery: null,
      cache_bytes: cliff.verdict.cache_bytes });
    const idle = started.idle_s[0]!;
    state = sustainProgress(state, { kind: 'sustain_idle', recovery_step: 1, idle_s: idle,
      remaining_s: 3 });
    render(<SustainProgress state={state} />);
    expect(screen.getByTestId('sustain-doing').textContent)
      .toBe(`Idle before recovery write 1 of ${started.idle_s.length}: 3s left`);
    expect(screen.getByTestId('sustain-fill-done').textContent)
      .toContain(formatBytes(cliff.verdict.cache_bytes));

    state = sustainProgress(state, { kind: 'sustain_step_started', step: 'recovery',
      recovery_step: 1, bytes_total: 1 << 30 });
    state = sustainProgress(state, { kind: 'sustain_sample', step: 'recovery', recovery_step: 1,
      sample: cliff.samples[0]!, bytes_total: 1 << 30, eta_s: 3 });
    expect(liveLines(state).map((l) => [l.label, l.samples.length])).toEqual([
      ['the fill, each second', 0], [`recovery write 1, after ${formatDuration(idle)} idle`, 1]]);
  });

  it('keeps one test when its start arrives both as the reply and as an event', () => {
    const state = sustainProgress(sustainProgress(sustainProgress(null, started), fill), started);
    expect(state.step).toBe('fill');
  });
});
