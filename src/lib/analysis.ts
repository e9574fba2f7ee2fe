// What the charts plot, computed from stored results: series along one varied factor, repeat
// statistics (mean ± 95 % CI), and percentile curves from histogram bins (never averaged).
import type { DirectionStats, RunResult, Workload } from '../api';

export type Factor = 'block_size_bytes' | 'queue_depth' | 'read_pct' | 'numjobs';
export type Direction = 'read' | 'write';

/** The direction a run is about: both when mixed, else the active one. */
export function activeDirections(run: RunResult): Direction[] {
  return (['read', 'write'] as const).filter((d) => run[d].io_count > 0);
}

/** IOPS and bandwidth over both directions; latency from the direction with the most I/O. */
export function totals(run: RunResult): { iops: number; bwBytesPerS: number; main: DirectionStats } {
  const main = run.read.io_count >= run.write.io_count ? run.read : run.write;
  return { iops: run.read.iops + run.write.iops, bwBytesPerS: run.read.bw_bytes_per_s + run.write.bw_bytes_per_s, main };
}

function settingsKey(workload: Workload, except: Factor): string {
  const { target: _target, keep_file: _k, allow_overwrite: _a, label: _label, [except]: _varied, ...rest } = workload;
  if (except === 'read_pct') delete (rest as Partial<Workload>).pattern;
  return JSON.stringify(rest, Object.keys(rest).sort());
}

export interface FactorSeries {
  /** What the other settings are, e.g. "randread QD1 T1". */
  label: string;
  points: { x: number; runs: RunResult[] }[];
}

/** Groups of runs that differ only in `factor` (at least two values), points sorted by it. */
export function seriesAlong(runs: RunResult[], factor: Factor): FactorSeries[] {
  const groups = new Map<string, Map<number, RunResult[]>>();
  for (const run of runs) {
    if (run.status === 'failed') continue;
    const key = settingsKey(run.workload, factor);
    const byValue = groups.get(key) ?? new Map<number, RunResult[]>();
    const x = run.workload[factor];
    const atX = byValue.get(x);
    if (atX) atX.push(run);
    else byValue.set(x, [run]);
    groups.set(key, byValue);
  }
  const series: FactorSeries[] = [];
  for (const byValue of groups.values()) {
    if (byValue.size < 2) continue;
    const points = [...byValue.entries()].sort(([a], [b]) => a - b).map(([x, rs]) => ({ x, runs: rs }));
    const first = points[0]!.runs[0]!.workload;
    series.push({ label: describeOthers(first, factor), points });
  }
  return series;
}

function describeOthers(w: Workload, factor: Factor): string {
  const parts: string[] = [factor === 'read_pct' ? (w.pattern.startsWith('rand') ? 'random' : 'sequential') : w.pattern];
  if (factor !== 'read_pct' && (w.pattern === 'rw' || w.pattern === 'randrw')) parts.push(`${w.read_pct}%R`);
  if (factor !== 'block_size_bytes') parts.push(w.block_size_bytes >= 1024 ? `${w.block_size_bytes / 1024}KiB` : `${w.block_size_bytes}B`);
  if (factor !== 'queue_depth') parts.push(`QD${w.queue_depth}`);
  if (factor !== 'numjobs') parts.push(`T${w.numjobs}`);
  return parts.join(' ');
}

// Two-sided 95 % Student t critical values for 1..30 degrees of freedom.
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

export interface Spread {
  mean: number;
  /** Half-width of the 95 % confidence interval of the mean; 0 for a single value. */
  ci95: number;
  n: number;
}

export function meanCi95(values: number[]): Spread {
  const n = values.length;
  if (n === 0) return { mean: NaN, ci95: 0, n };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, ci95: 0, n };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const t = T95[n - 2] ?? 1.96;
  return { mean, ci95: (t * Math.sqrt(variance)) / Math.sqrt(n), n };
}

/** Repeats of the same point (same workload) together, in first-seen order. */
export function groupRepeats(runs: RunResult[]): { label: string; runs: RunResult[] }[] {
  const groups = new Map<string, RunResult[]>();
  for (const run of runs) {
    const key = JSON.stringify(run.workload);
    const group = groups.get(key);
    if (group) group.push(run);
    else groups.set(key, [run]);
  }
  return [...groups.values()].map((rs) => ({ label: rs[0]!.workload.label, runs: rs }));
}


/** (latency ns, percentile) steps of the cumulative distribution held in fio-layout bins. */
export function percentileCurve(bins: Record<string, number>): { latencyNs: number; percentile: number }[] {
  const entries = Object.entries(bins).map(([k, v]) => [Number(k), v] as const).filter(([, v]) => v > 0)
    .sort(([a], [b]) => a - b);
  const total = entries.reduce((a, [, v]) => a + v, 0);
  let seen = 0;
  return entries.map(([latencyNs, count]) => {
    seen += count;
    return { latencyNs, percentile: (100 * seen) / total };
  });
}
