// The Curves form as typed (strings) and the request the engine plans it from (`curve.check`,
// `curve.start`; the latency-target search shares its workload). Nothing is judged here.
import type { CurveRequest, SweepRequest, WorkloadInput } from '../api';

export interface CurveForm {
  target: string;
  pattern: NonNullable<WorkloadInput['pattern']>;
  block_size_bytes: string;
  queue_depth: string;
  runtime_s: string;
  ramp_s: string;
  size_bytes: string;
  engine: NonNullable<WorkloadInput['engine']>;
  points: string;
  stop: string;
}

export const INITIAL_CURVE: CurveForm = {
  target: '', pattern: 'randread', block_size_bytes: '4k', queue_depth: '32', runtime_s: '10s', ramp_s: '2s',
  size_bytes: '256MiB', engine: 'auto', points: '10,50,70,80,90,100', stop: '',
};

/** The workload the curve and the latency-target search share (the search varies queue depth itself). */
export function curveSweep(form: CurveForm): SweepRequest {
  return { base: { target: form.target || undefined, pattern: form.pattern, block_size_bytes: form.block_size_bytes,
    queue_depth: form.queue_depth, runtime_s: form.runtime_s, ramp_s: form.ramp_s, size_bytes: form.size_bytes,
    engine: form.engine } };
}

export function curveRequest(form: CurveForm): CurveRequest {
  return { sweep: curveSweep(form), points_pct: form.points, stop_latency: form.stop || null };
}

/** The engine's field names that this form calls otherwise. */
export const CURVE_FIELD: Record<string, keyof CurveForm> = { points_pct: 'points', stop_latency_ns: 'stop' };
