// A running PTS test as its events arrive: purge, preconditioning (not measured) with its ETA, then
// each round with its tracking value and the steady-state check so far, and the end.
import type { PtsEventNotification, PtsStarted, SweepEnd } from '../api';
import { formatDuration } from '../lib/units';

type PtsEvent = PtsEventNotification['event'];

export interface PtsProgressState {
  pts_id: number | null;
  test: string;
  phase: string;
  compliance: string;
  /** Rounds finished. */
  round: number;
  /** The round the last point started belongs to (1-based): what "Round N" shows while it runs. */
  measuring: number;
  max_rounds: number;
  point: number;
  points_per_round: number;
  precondition: { done: number; total: number; eta_s: number } | null;
  purge: string;
  /** The steady-state check after the last finished round, in the engine's words. */
  check: string;
  rounds: { round: number; value: number | null }[];
  finished: { status: SweepEnd; attained: boolean; rounds: number; reason: string } | null;
}

const EMPTY: PtsProgressState = {
  pts_id: null, test: '', phase: '', compliance: '', round: 0, measuring: 0, max_rounds: 0, point: 0,
  points_per_round: 0,
  precondition: null, purge: '', check: '', rounds: [], finished: null,
};

/** The state after one event; `null` starts afresh. A repeated pts_started (the reply and its event) keeps one. */
export function ptsProgress(state: PtsProgressState | null, event: PtsEvent | PtsStarted | null): PtsProgressState {
  const s = state ?? EMPTY;
  if (!event) return s;
  switch (event.kind) {
    case 'pts_started':
      if (state && state.pts_id === event.pts_id && !state.finished) return state;
      return { ...EMPTY, pts_id: event.pts_id, test: event.test, phase: 'starting', compliance: event.compliance_note,
        max_rounds: event.max_rounds, points_per_round: event.points_per_round, round: event.already_rounds };
    case 'purge_done':
      return { ...s, phase: 'purge', purge: `${event.detail}${event.limitation ? ` (${event.limitation})` : ''}` };
    case 'precondition_progress':
      return { ...s, phase: event.done ? 'rounds' : 'precondition', precondition: { done: event.bytes_done, total: event.bytes_total, eta_s: event.eta_s } };
    case 'point_started':
      // The engine counts a test's rounds (finished, of at most) and places the point in its round.
      return { ...s, phase: 'rounds', point: event.index + 1, round: event.round?.done ?? s.round,
        measuring: (event.round?.done ?? s.round) + 1, max_rounds: event.round?.total ?? s.max_rounds };
    case 'round_finished':
      return { ...s, round: event.round, check: event.steady_state.reason,
        rounds: [...s.rounds.filter((r) => r.round !== event.round), { round: event.round, value: event.tracking_value }] };
    case 'pts_finished':
      return { ...s, phase: 'finished', finished: { status: event.status, attained: event.attained, rounds: event.rounds, reason: event.reason } };
    default:
      return s;
  }
}

export function PtsProgress({ state }: { state: PtsProgressState }) {
  const pre = state.precondition;
  return (
    <section className="pts-progress" aria-live="polite" data-testid="pts-progress">
      <h3>PTS {state.test}{state.pts_id !== null ? ` #${state.pts_id}` : ''}</h3>
      {state.compliance && <p className="hint">{state.compliance}</p>}
      {state.purge && <p>Purged: {state.purge}</p>}
      {pre && (
        <p>Preconditioning (not measured): <progress max={pre.total} value={pre.done} /> {Math.round((100 * pre.done) / Math.max(pre.total, 1))} %
          {pre.done < pre.total ? `, about ${formatDuration(pre.eta_s)} left` : ', done'}</p>
      )}
      {state.phase === 'rounds' && !state.finished && (
        // a round's end arrives before the next round's first point: the round shown is the one measured
        <p>Round {state.measuring} of at most {state.max_rounds}, point {state.point} of {state.points_per_round}</p>
      )}
      {state.check && <p data-testid="pts-check">After round {state.round}: {state.check}</p>}
      {state.finished && (
        <p className={state.finished.attained ? 'badge done' : 'warning'} data-testid="pts-finished">
          {state.finished.status}: {state.finished.attained ? 'steady state reached' : 'steady state NOT reached'} after {state.finished.rounds} round(s)
          {state.finished.reason ? ` — ${state.finished.reason}` : ''}
        </p>
      )}
    </section>
  );
}
