// The metrics the engine's models work on, with the unit each is shown in. Values arrive in the
// metric's own unit (IOPS, bytes/s, ns) and are divided by `scale` once, for display only.
import { EngineError, type PredictParams, type RunsCompareParams } from '../api';

/** The metrics every analysis method takes (prediction, scaling and group comparison alike). */
export type MetricId = NonNullable<PredictParams['metric']> & NonNullable<RunsCompareParams['metric']>;

export interface MetricInfo {
  id: MetricId;
  label: string;
  unit: string;
  scale: number;
}

export const METRICS: MetricInfo[] = [
  { id: 'iops', label: 'IOPS', unit: 'IOPS', scale: 1 },
  { id: 'bw_bytes_per_s', label: 'bandwidth', unit: 'MB/s', scale: 1e6 },
  { id: 'lat_ns_mean', label: 'mean latency', unit: 'µs', scale: 1e3 },
  { id: 'lat_ns_p99', label: 'p99 latency', unit: 'µs', scale: 1e3 },
  { id: 'lat_ns_p99_9', label: 'p99.9 latency', unit: 'µs', scale: 1e3 },
];

export function metricInfo(id: string): MetricInfo {
  return METRICS.find((m) => m.id === id) ?? METRICS[0]!;
}

/** A number as a table shows it: thousands separated, four significant digits below 1000. */
export function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(4)).toString();
}

/** A comma-separated list as typed ("4k, 1MiB", "8, 16"): the engine reads each item and names what it cannot read. */
export function typedList(text: string): string[] {
  return text.split(',').map((t) => t.trim()).filter(Boolean);
}

/** What the engine refused, in its words, each problem after the label of the input it concerns. */
export function engineProblem(error: unknown, labels: Record<string, string>): string {
  if (error instanceof EngineError && error.problems.length) {
    return error.problems.map((p) => `${labels[p.field.split('.')[0]!] ?? p.field}: ${p.message}`).join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}
