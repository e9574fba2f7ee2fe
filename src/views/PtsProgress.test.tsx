import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Count, PtsStarted } from '../api';
import { fullRun } from '../test/fixtures';
import { PtsProgress, ptsProgress } from './PtsProgress';

const started: PtsStarted = { kind: 'pts_started', pts_id: 3, test: 'iops', profile: 'laptop', pts_compliant: false, compliance_note: '',
  points_per_round: 2, max_rounds: 25, already_rounds: 0, estimated_s: 100, engine: 'fio', engine_reason: 'fio found' };
// Counts as the engine's PTS runner sends them (pts_runner._points_count, _rounds_count).
const points = (done: number): Count => ({ done, total: 50, bound: 'at_most', unit: 'point', note: '2 a round, rounds until steady state, 25 at the most',
  text: `${done} of at most 50 points (2 a round, rounds until steady state, 25 at the most)` });
const rounds = (done: number): Count => ({ done, total: 25, bound: 'at_most', unit: 'round', note: 'until steady state', text: `${done} of at most 25 rounds (until steady state)` });

describe('PtsProgress', () => {
  it('places each point in its round as the engine counts the rounds', () => {
    let state = ptsProgress(null, started);
    state = ptsProgress(state, { kind: 'point_started', index: 1, repeat: 2, number: 6, count: points(5), round: rounds(2), workload: fullRun.workload, eta_s: 40 });
    render(<PtsProgress state={state} />);
    expect(screen.getByText('Round 3 of at most 25, point 2 of 2')).toBeDefined();
  });

  it('keeps showing the round measured when its end arrives before the next round starts', () => {
    let state = ptsProgress(null, { ...started, max_rounds: 5 });
    state = ptsProgress(state, { kind: 'point_started', index: 1, repeat: 4, number: 10, count: points(9),
      round: { ...rounds(4), total: 5 }, workload: fullRun.workload, eta_s: 1 });
    const steady = { attained: false, reason: 'not yet', window: [], excursion_pct: null, slope_excursion_pct: null };
    state = ptsProgress(state, { kind: 'round_finished', round: 5, tracking_value: 70,
      steady_state: steady } as unknown as Parameters<typeof ptsProgress>[1]);
    render(<PtsProgress state={state} />);
    expect(screen.getByText('Round 5 of at most 5, point 2 of 2')).toBeDefined();
  });
});
