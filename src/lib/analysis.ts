// Which directions of a run a table shows, and the run's headline figures. What the charts plot
// (series, mean ± 95 % CI, percentile curves) comes from the engine: runs.charts, runs.bars, runs.percentiles.
import type { DirectionStats, RunResult } from '../api';

export type Direction = 'read' | 'write';

/** The direction a run is about: both when mixed, else the active one. */
export function activeDirections(run: RunResult): Direction[] {
  return (['read', 'write'] as const).filter((d) => run[d].io_count > 0);
}

/** IOPS and bandwidth over both directions; latency from the direction the engine headlines the run by. */
export function totals(run: RunResult): { iops: number; bwBytesPerS: number; main: DirectionStats } {
  return { iops: run.read.iops + run.write.iops, bwBytesPerS: run.read.bw_bytes_per_s + run.write.bw_bytes_per_s,
    main: run[run.main_direction] };
}
