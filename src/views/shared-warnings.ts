// A warning every run of a table carries (a virtual disk with no SMART, say) is said once above the
// table, not repeated on every row, where it buried the warnings that tell runs apart.
import type { RunResult, ValidityWarning } from '../api';

const keyOf = (w: ValidityWarning): string => `${w.code}\u0000${w.message}`;

/** The warnings every one of `runs` carries (none for a single run: its row says them). */
export function sharedWarnings(runs: readonly RunResult[]): ValidityWarning[] {
  if (runs.length < 2) return [];
  const [first, ...rest] = runs;
  return first!.warnings.filter((w) => rest.every((r) => r.warnings.some((o) => keyOf(o) === keyOf(w))));
}

/** A run's own warnings: those not said once for the whole table. */
export function ownWarnings(run: RunResult, shared: readonly ValidityWarning[]): ValidityWarning[] {
  const common = new Set(shared.map(keyOf));
  return run.warnings.filter((w) => !common.has(keyOf(w)));
}
