// The metrics the engine's models work on, with the unit each is shown in. Values arrive in the
// metric's own unit (IOPS, bytes/s, ns) and are divided by `scale` once, for display only.
import type { PredictParams, RunsCompareParams } from '../api';

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

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1000, kib: 1024, m: 2 ** 20, mb: 1e6, mib: 2 ** 20, g: 2 ** 30, gb: 1e9, gib: 2 ** 30 };

/** "4k, 1m, 2MiB" -> bytes; "64, 128" -> counts (sizes: false). Throws with the part that is wrong. */
export function parseSettings(text: string, sizes: boolean): number[] {
  return text.split(',').map((t) => t.trim()).filter(Boolean).map((part) => {
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(part);
    const factor = m ? (sizes ? SIZE_UNITS[m[2]!.toLowerCase()] : m[2] === '' ? 1 : undefined) : undefined;
    if (!m || factor === undefined || Number(m[1]) <= 0) {
      throw new Error(`“${part}” is not ${sizes ? 'a size (e.g. 1m, 512k, 2MiB)' : 'a positive number'}`);
    }
    return Number(m[1]) * factor;
  });
}
