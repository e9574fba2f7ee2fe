// A running sustained-write test as its events arrive: the fill's speed each second drawn against
// the bytes written, then each idle interval counting down and each recovery write, and the end.
// The engine finds the phases and the cliff once the fill is done; nothing is judged here.
import type {
  SustainEventNotification, SustainSample, SustainSampled, SustainStarted, SustainStepStarted,
  SweepEnd,
} from '../api';
import { formatBytes, formatDuration, formatMbPerS } from '../lib/units';
import { SustainChart, type SustainLine } from './SustainChart';

type SustainEvent = SustainEventNotification['event'];

export interface SustainProgressState {
  sustain_id: number | null;
  label: string;
  engine: string;
  notes: string[];
  idle_s: number[];
  /** What is under way: the fill, idle time before recovery write N, recovery write N. */
  step: 'starting' | 'fill' | 'idle' | 'recovery' | 'finished';
  recovery_step: number;
  /** The write under way: the bytes it will write, and its time left at its speed so far. */
  bytes_total: number;
  eta_s: number | null;
  remaining_idle_s: number | null;
  fill: SustainSample[];
  /** Each recovery write's seconds, by its step (1 for the first). */
  recovery: Record<number, SustainSample[]>;
  cache_bytes: number | null;
  fill_done: boolean;
  finished: { status: SweepEnd; reason: string; wall_s: number } | null;
}

const EMPTY: SustainProgressState = {
  sustain_id: null, label: '', engine: '', notes: [], idle_s: [], step: 'starting',
  recovery_step: 0, bytes_total: 0, eta_s: null, remaining_idle_s: null, fill: [], recovery: {},
  cache_bytes: null, fill_done: false, finished: null,
};

function stepStarted(s: SustainProgressState, event: SustainStepStarted): SustainProgressState {
  const next = { ...s, step: event.step, recovery_step: event.recovery_step,
    bytes_total: event.bytes_total, eta_s: null, remaining_idle_s: null };
  if (event.step === 'fill') return { ...next, fill: [] };
  return { ...next, recovery: { ...s.recovery, [event.recovery_step]: [] } };
}

function sampled(s: SustainProgressState, event: SustainSampled): SustainProgressState {
  const next = { ...s, step: event.step, bytes_total: event.bytes_total, eta_s: event.eta_s };
  if (event.step === 'fill') return { ...next, fill: [...s.fill, event.sample] };
  const step = event.recovery_step;
  const samples = [...(s.recovery[step] ?? []), event.sample];
  return { ...next, recovery_step: step, recovery: { ...s.recovery, [step]: samples } };
}

/** The state after one event; `null` starts afresh. A repeated sustain_started (the reply and its
 * event) keeps one. */
export function sustainProgress(
  state: SustainProgressState | null, event: SustainEvent | SustainStarted | null,
): SustainProgressState {
  const s = state ?? EMPTY;
  if (!event) return s;
  switch (event.kind) {
    case 'sustain_started':
      if (state && state.sustain_id === event.sustain_id && !state.finished) return state;
      return { ...EMPTY, sustain_id: event.sustain_id, label: event.label, engine: event.engine,
        notes: event.notes, idle_s: event.idle_s, fill_done: event.fill_done };
    case 'sustain_step_started':
      return stepStarted(s, event);
    case 'sustain_sample':
      return sampled(s, event);
    case 'sustain_idle':
      return { ...s, step: 'idle', recovery_step: event.recovery_step, eta_s: null,
        remaining_idle_s: event.remaining_s };
    case 'sustain_step_done':
      return event.step === 'fill' ? { ...s, fill_done: true, cache_bytes: event.cache_bytes } : s;
    case 'sustain_finished':
      return { ...s, step: 'finished', eta_s: null,
        finished: { status: event.status, reason: event.reason, wall_s: event.wall_s } };
    default:
      return s;
  }
}

/** Each live line keeps its last N seconds in the accessible table (a fill runs for hours). */
const LIVE_TABLE_POINTS = 120;

const idleWords = (seconds: number) => `after ${formatDuration(seconds)} idle`;

/** The live lines: the fill, then each recovery write against its own bytes written. */
export function liveLines(state: SustainProgressState): SustainLine[] {
  const lines: SustainLine[] = [{ label: 'the fill, each second', samples: state.fill }];
  for (const [step, samples] of Object.entries(state.recovery)) {
    const idle = state.idle_s[Number(step) - 1];
    const after = idle === undefined ? '' : `, ${idleWords(idle)}`;
    lines.push({ label: `recovery write ${step}${after}`, samples });
  }
  return lines;
}

/** What the test is doing, in a line: how far the write under way is, or the idle time left. */
function doing(state: SustainProgressState): string {
  const samples = state.step === 'fill' ? state.fill : state.recovery[state.recovery_step];
  const last = samples?.at(-1);
  const total = formatBytes(state.bytes_total);
  const written = last
    ? `${formatBytes(last.bytes_written)} of ${total}, ${formatMbPerS(last.bw_bytes_per_s)}`
    : `${total} to write`;
  const left = state.eta_s !== null ? `, about ${formatDuration(state.eta_s)} left` : '';
  const of = `${state.recovery_step} of ${state.idle_s.length}`;
  switch (state.step) {
    case 'starting': return 'Starting…';
    case 'fill': return `The fill: ${written}${left}`;
    case 'idle': {
      const remaining = state.remaining_idle_s;
      const rest = remaining !== null ? `: ${formatDuration(remaining)} left` : '';
      return `Idle before recovery write ${of}${rest}`;
    }
    case 'recovery': return `Recovery write ${of}: ${written}${left}`;
    default: return '';
  }
}

function FillDone({ cache }: { cache: number | null }) {
  return (
    <p data-testid="sustain-fill-done">
      The fill is done{cache !== null ? `: speed fell after ${formatBytes(cache)}` : ''}; the
      engine&apos;s verdict is below.
    </p>
  );
}

export function SustainProgress({ state }: { state: SustainProgressState }) {
  const { finished } = state;
  const id = state.sustain_id !== null ? ` #${state.sustain_id}` : '';
  return (
    <section className="sustain-progress" aria-live="polite" data-testid="sustain-progress">
      <h3>Sustained writes{id}: {state.label}</h3>
      {state.engine && <p className="hint">engine: {state.engine}</p>}
      {state.notes.map((n) => <p key={n} className="warning">{n}</p>)}
      {!finished && <p data-testid="sustain-doing">{doing(state)}</p>}
      {state.fill_done && state.step !== 'fill' && <FillDone cache={state.cache_bytes} />}
      {finished && (
        <p data-testid="sustain-finished">
          <span className={`badge ${finished.status}`}>{finished.status}</span> after{' '}
          {formatDuration(finished.wall_s)}{finished.reason ? ` — ${finished.reason}` : ''}
        </p>
      )}
      {!finished && (
        <SustainChart id="sustain-live" title="Write speed each second against bytes written (live)"
          lines={liveLines(state)} tableLast={LIVE_TABLE_POINTS}
          empty="The first second of the fill arrives after a second." />
      )}
    </section>
  );
}
