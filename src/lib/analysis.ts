// Which directions of a run a table shows. A run's figures of all its I/Os (reads and writes
// together) come from the engine (RunResult.mixed), as does everything the charts plot (series,
// mean ± 95 % CI, percentile curves): runs.charts, runs.bars, runs.percentiles.
import type { RunResult } from '../api';

export type Direction = 'read' | 'write';

/** The direction a run is about: both when mixed, else the active one. */
export function activeDirections(run: RunResult): Direction[] {
  return (['read', 'write'] as const).filter((d) => run[d].io_count > 0);
}
