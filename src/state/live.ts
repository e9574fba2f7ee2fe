// The live view's state, folded from run events in order. Pure, so it is tested without React.
import type {
  Cooling, Count, ProgressSample, RunEvent, RunResult, SweepEnd, SweepStarted,
} from '../api';

/** 'interrupted': the engine process died mid-sweep (the shell restarts it); finished points are kept. */
export type LiveStatus =
  'idle' | 'starting' | 'running' | Exclude<SweepEnd, 'stopped'> | 'interrupted';

export interface LiveState {
  status: LiveStatus;
  sweep: SweepStarted | null;
  /** Points finished (those before a resume too) of how many, as the engine's latest event said. */
  count: Count | null;
  current: { number: number; label: string; elapsedS: number; durationS: number } | null;
  etaS: number | null;
  /** Per-second samples of the whole sweep on this machine; elapsed_s runs on across points. */
  samples: ProgressSample[];
  /** Per-second samples of each remote host of a multi-host run, by host name (same time axis). */
  hosts: Record<string, ProgressSample[]>;
  /** This machine's drive temperature (°C) as each sample arrived, on the samples' time axis. */
  temperatures: { x: number; y: number }[];
  /** The cool-down gate's latest word before the next point; null while a point runs. */
  cooling: Cooling | null;
  /** Sweep time of the latest sample from anywhere. */
  lastElapsedS: number;
  /** Sweep time at which the current point started. */
  pointOffsetS: number;
  finished: RunResult[];
  /** Each finished point's number in the sweep, as the engine numbers it (a resumed sweep's go on
   *  after the points finished before it). */
  numbers: number[];
  layout: { seconds: number; sizeBytes: number } | null;
  cancelling: boolean;
  /** Why the sweep stopped before its end (a host was lost); empty when the engine itself stopped. */
  reason: string;
}

export const idle: LiveState = {
  status: 'idle', sweep: null, count: null, current: null, etaS: null, samples: [], hosts: {},
  temperatures: [], cooling: null, lastElapsedS: 0, pointOffsetS: 0, finished: [], numbers: [],
  layout: null, cancelling: false, reason: '',
};

/** Samples from a remote host carry its name; this machine's say "local". */
export function isRemote(sample: ProgressSample): boolean {
  return sample.host !== '' && sample.host !== 'local';
}

const MAX_SAMPLES = 600;

export type LiveAction = RunEvent | { kind: 'cancel_requested' } | { kind: 'reset' } | { kind: 'engine_lost' };

export function liveReducer(state: LiveState, action: LiveAction): LiveState {
  switch (action.kind) {
    case 'reset':
      return idle;
    case 'cancel_requested':
      return { ...state, cancelling: true };
    case 'engine_lost':
      return state.status === 'running' ? { ...state, status: 'interrupted', current: null, etaS: null, cancelling: false } : state;
    case 'sweep_started':
      if (state.status === 'running' && state.sweep && state.sweep.sweep_id === action.sweep_id) return state;
      return {
        ...idle, status: 'running', sweep: action, count: action.count, etaS: action.estimated_s,
      };
    case 'layout_done':
      return { ...state, layout: { seconds: action.seconds, sizeBytes: action.size_bytes } };
    case 'point_started':
      return {
        ...state,
        count: action.count,
        current: { number: action.number, label: action.workload.label, elapsedS: 0, durationS: action.workload.runtime_s + action.workload.ramp_s },
        etaS: action.eta_s,
        pointOffsetS: state.lastElapsedS,
        cooling: null,
      };
    case 'cooling':
      return { ...state, cooling: action };
    case 'point_progress': {
      const sample = { ...action.sample, elapsed_s: state.pointOffsetS + action.sample.elapsed_s };
      const current = state.current && { ...state.current, elapsedS: action.point_elapsed_s, durationS: action.point_duration_s };
      const lastElapsedS = Math.max(state.lastElapsedS, sample.elapsed_s);
      if (isRemote(sample)) {
        const hosts = { ...state.hosts, [sample.host]: [...(state.hosts[sample.host] ?? []), sample].slice(-MAX_SAMPLES) };
        return { ...state, hosts, lastElapsedS, current, etaS: action.eta_s };
      }
      const samples = [...state.samples, sample].slice(-MAX_SAMPLES);
      const celsius = action.drive_temperature_c;
      const temperatures = celsius === null ? state.temperatures
        : [...state.temperatures, { x: sample.elapsed_s, y: celsius }].slice(-MAX_SAMPLES);
      return { ...state, samples, temperatures, lastElapsedS, current, etaS: action.eta_s };
    }
    case 'point_finished':
      return { ...state, count: action.count, finished: [...state.finished, action.result], numbers: [...state.numbers, action.number] };
    case 'sweep_finished':
      return {
        ...state, status: statusOf(action.status), current: null, etaS: 0, cancelling: false,
        reason: action.reason ?? '', cooling: null,
      };
  }
}

function statusOf(status: SweepEnd): LiveStatus {
  if (status === 'cancelled' || status === 'failed') return status;
  if (status === 'stopped') return 'interrupted'; // a host was lost: resumable, like an engine that died
  return 'done';
}

/** Overall progress 0..1: finished points plus the running point's share, of the total or its
 * bound; null when the engine knows no total (a search goes on until it has its answer). */
export function overallFraction(state: LiveState): number | null {
  const total = state.count?.total ?? null;
  if (state.count === null) return 0;
  if (total === null) return null;
  if (!total) return 0;
  const partial = state.current ? Math.min(state.current.elapsedS / Math.max(state.current.durationS, 1e-9), 1) : 0;
  return Math.min((state.count.done + partial) / total, 1);
}
