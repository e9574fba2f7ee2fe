// The metrics the engine's models work on, named and scaled as the engine names them. Values arrive
// in the metric's own unit (IOPS, bytes/s, ns) and are divided by `scale` once, for display only.
import {
  EngineError, METRIC_NAMES, type FitQualityInfo, type PredictParams, type RunsCompareParams,
} from '../api';

/** The metrics every analysis method takes (prediction, scaling and group comparison alike). */
export type MetricId = NonNullable<PredictParams['metric']> & NonNullable<RunsCompareParams['metric']>;

/** A metric as the engine names it (METRIC_NAMES in the contract): label, display unit, and
 *  the divisor from the metric's own unit into it. */
export interface MetricInfo {
  id: MetricId;
  label: string;
  unit: string;
  scale: number;
  /** 'bandwidth (MB/s)', or 'IOPS' where the label is the unit */
  title: string;
}

/** Which metrics the Models view offers: a choice of this view's; their names are the engine's. */
const OFFERED: MetricId[] = ['iops', 'bw_bytes_per_s', 'lat_ns_mean', 'lat_ns_p99', 'lat_ns_p99_9'];

export function metricInfo(id: string): MetricInfo {
  const known = (id in METRIC_NAMES ? id : 'iops') as MetricId;
  return { id: known, ...METRIC_NAMES[known] };
}

export const METRICS: MetricInfo[] = OFFERED.map(metricInfo);

/** A number as a table shows it: thousands separated, four significant digits below 1000. */
export function fmt(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(4)).toString();
}

/** A fit over its own runs as the engine judged it: R² (and adjusted R²) only where settings
 *  outnumber the model's parameters; an exact fit says so instead of showing R² = 1. */
export function fitQualityText(q: FitQualityInfo, info: MetricInfo): string {
  const where = `${q.runs} runs at ${q.settings} settings`;
  if (q.rmse === null) return `${where}: ${q.note}`;
  const adjusted = q.adjusted_r2 === null ? '' : `, adjusted ${q.adjusted_r2.toFixed(3)}`;
  const r2 = q.r2 === null ? 'R² n/a (every run measured the same)'
    : `R² ${q.r2.toFixed(3)}${adjusted}`;
  const note = q.note ? `; ${q.note}` : '';
  return `${where}: ${r2}, RMSE ${fmt(q.rmse / info.scale)} ${info.unit}${note}`;
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
