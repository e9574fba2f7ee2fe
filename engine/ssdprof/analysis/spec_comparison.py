"""How far a run got against a vendor spec sheet — "% of spec" — and only where that is fair.

A figure is compared with a run only when the run was measured the way the figure was rated:
same access pattern and direction, same access size, and the same outstanding I/Os (QD x jobs) —
or, for deep queues (16 and more), within a factor of two: a saturated drive delivers about the
same at QD16 as at QD32, while at shallow depths IOPS still grow almost in proportion to depth. When the datasheet
leaves a condition unstated the percentage is still given but marked indicative; when the
conditions differ no percentage is given, only a note saying why. Rated and measured values
are both in canonical units (bytes/s, IOPS, ns), so MB vs MiB cannot be confused.
"""

from __future__ import annotations

import enum
import statistics
from collections.abc import Sequence

from pydantic import Field

from ssdprof.analysis.specs import Access, Figure, Spec
from ssdprof.model.results import DirectionStats
from ssdprof.model.run_summary import AnyRun, DirectionSummary
from ssdprof.model.value import Value

__all__ = ["SpecComparison", "Status", "best_comparisons", "comparable_outstanding", "compare_repeats", "compare_run",
           "condition_notes", "run_access"]

_OUTSTANDING_FACTOR = 2.0
_DEEP_QUEUE = 16
_MIN_SEQ_BLOCK_BYTES = 128 << 10


class Status(str, enum.Enum):
    MATCHED = "matched"
    """Conditions match: the percentage is meaningful."""
    UNSTATED = "unstated"
    """The source does not state some condition: the percentage is indicative only."""
    MISMATCH = "mismatch"
    """Conditions differ: no percentage, only the note saying why."""


class SpecComparison(Value):
    spec_id: str
    figure: Figure
    status: Status
    measured: float | None = Field(description="same unit as rated_canonical: bytes/s, IOPS or ns")
    rated_canonical: float
    pct_of_spec: float | None
    notes: list[str] = Field(default_factory=list)

    def sentence(self) -> str:
        what = {"bandwidth": "bandwidth", "iops": "IOPS", "latency": f"{self.figure.statistic} latency"}[self.figure.quantity]
        rated = f"{self.figure.value:g} {self.figure.unit}"
        if self.pct_of_spec is None:
            return f"rated {self.figure.metric.value} {what} {rated} ({self.figure.conditions()}): not compared — {'; '.join(self.notes)}"
        hedge = " (indicative: " + "; ".join(self.notes) + ")" if self.status is Status.UNSTATED else ""
        return f"reached {self.pct_of_spec:.0f} % of the rated {self.figure.metric.value} {what} ({rated}){hedge}"


def run_access(run: AnyRun) -> tuple[Access, DirectionStats | DirectionSummary] | None:
    pattern = run.workload.pattern
    if pattern.fixed_read_pct is None:
        return (Access.RAND_MIXED, run.read) if pattern.is_random else None
    reading = pattern.fixed_read_pct == 100
    if pattern.is_random:
        return (Access.RAND_READ, run.read) if reading else (Access.RAND_WRITE, run.write)
    return (Access.SEQ_READ, run.read) if reading else (Access.SEQ_WRITE, run.write)


def _measured(figure: Figure, run: AnyRun, stats: DirectionStats | DirectionSummary) -> float | None:
    if figure.quantity == "bandwidth":
        return stats.bw_bytes_per_s or None
    if figure.quantity == "iops":
        return (run.read.iops + run.write.iops) if figure.metric is Access.RAND_MIXED else stats.iops or None
    lat = stats.lat_ns  # a spec sheet's latency is what the host waits: total latency
    percentiles = {"p50": lat.p50, "p90": lat.p90, "p95": lat.p95, "p99": lat.p99, "p99.9": lat.p99_9, "p99.99": lat.p99_99}
    return percentiles.get(figure.statistic, lat.mean)


def comparable_outstanding(rated: int, outstanding: int) -> bool:
    """Whether a figure rated at ``rated`` outstanding I/Os (QD x threads) is fair against a run with
    ``outstanding``: the same, or both deep (16+) and within a factor of two."""
    deep = min(rated, outstanding) >= _DEEP_QUEUE and 1 / _OUTSTANDING_FACTOR <= outstanding / rated <= _OUTSTANDING_FACTOR
    return outstanding == rated or deep


def _size_notes(figure: Figure, run: AnyRun, differ: list[str], unstated: list[str]) -> None:
    bs = run.workload.block_size_bytes
    if figure.block_size_bytes is not None:
        if figure.block_size_bytes != bs:
            differ.append(f"rated at {figure.block_size_bytes // 1024} KiB accesses, this run used {bs // 1024} KiB")
    elif figure.metric in (Access.SEQ_READ, Access.SEQ_WRITE) and bs < _MIN_SEQ_BLOCK_BYTES:
        differ.append(f"sequential ratings are for large accesses (≥128 KiB); this run used {bs // 1024} KiB")
    else:
        unstated.append("access size not stated by the source")


def _depth_notes(figure: Figure, run: AnyRun, differ: list[str], unstated: list[str]) -> None:
    outstanding = run.engine.effective_queue_depth * run.workload.numjobs
    if figure.queue_depth is None and figure.quantity == "latency" and outstanding > 1:
        differ.append(f"latency ratings are for an unloaded drive (QD1); this run had {outstanding} outstanding I/Os")
    elif figure.queue_depth is None:
        unstated.append(f"queue depth not stated by the source (this run: {outstanding} outstanding I/Os)")
    else:
        rated = figure.queue_depth * (figure.threads or 1)
        if not comparable_outstanding(rated, outstanding):
            differ.append(f"rated at QD{figure.queue_depth}x{figure.threads or 1} = {rated} outstanding I/Os, this run had "
                          f"{outstanding} (QD{run.engine.effective_queue_depth}x{run.workload.numjobs} jobs)")
        elif figure.threads is None and figure.quantity != "bandwidth":
            unstated.append("thread count not stated by the source (assumed 1)")


def _context_notes(figure: Figure, run: AnyRun, differ: list[str]) -> None:
    if figure.read_pct is not None and figure.read_pct != run.workload.read_pct:
        differ.append(f"rated at {figure.read_pct} % reads, this run had {run.workload.read_pct} %")
    if not run.workload.direct:
        differ.append("buffered run: it measures the page cache, not the drive")
    if len(run.hosts) > 1:
        differ.append(f"aggregate of {len(run.hosts)} hosts, not one drive")
    if run.status not in ("ok", "partial"):
        differ.append(f"run status is {run.status}")


def condition_notes(figure: Figure, run: AnyRun, *, depth: bool = True) -> tuple[list[str], list[str]]:
    """(reasons the conditions differ, conditions the source leaves unstated); ``depth=False`` leaves the
    queue depth out, for a rated latency set beside a curve whose light points are the unloaded drive."""
    differ: list[str] = []
    unstated: list[str] = []
    _size_notes(figure, run, differ, unstated)
    if depth:
        _depth_notes(figure, run, differ, unstated)
    _context_notes(figure, run, differ)
    return differ, unstated


def compare_run(spec: Spec, run: AnyRun) -> list[SpecComparison]:
    """Every figure of the spec that rates the run's access pattern, with % of spec where fair."""
    access = run_access(run)
    if access is None:
        return []
    kind, stats = access
    comparisons: list[SpecComparison] = []
    for figure in (f for f in spec.figures if f.metric is kind):
        differ, unstated = condition_notes(figure, run)
        if not spec.figure_sourced(figure):
            unstated.append("unsourced: the sheet names no public source for this figure, so it cannot be checked")
        measured = _measured(figure, run, stats)
        if measured is None:
            differ.append("this run has no measurement of that quantity")
        pct = None if differ or measured is None else 100.0 * measured / figure.canonical_value
        status = Status.MISMATCH if differ else Status.UNSTATED if unstated else Status.MATCHED
        notes = differ or unstated
        if figure.quantity == "latency" and pct is not None:
            notes = [*notes, "for latency, below 100 % is better than rated"]
        comparisons.append(SpecComparison(spec_id=spec.id, figure=figure, status=status, measured=measured,
                                          rated_canonical=figure.canonical_value, pct_of_spec=pct, notes=notes))
    return comparisons


def compare_repeats(spec: Spec, runs: Sequence[AnyRun]) -> list[SpecComparison]:
    """Like :func:`compare_run` for repeats of one setting, on the mean of their measurements."""
    if not runs:
        return []
    per_run = [compare_run(spec, run) for run in runs]
    merged = []
    for index, first in enumerate(per_run[0]):
        measured = [m for c in per_run if (m := c[index].measured) is not None]
        mean = statistics.fmean(measured) if measured else None
        pct = None if first.pct_of_spec is None or mean is None else 100.0 * mean / first.rated_canonical
        notes = first.notes if len(runs) == 1 else [*first.notes, f"mean of {len(measured)} repeats"]
        merged.append(first.model_copy(update={"measured": mean, "pct_of_spec": pct, "notes": notes}))
    return merged


def best_comparisons(comparisons: Sequence[SpecComparison]) -> list[SpecComparison]:
    """Matched first, then indicative, then mismatches: the order a person wants to read them in."""
    order = {Status.MATCHED: 0, Status.UNSTATED: 1, Status.MISMATCH: 2}
    return sorted(comparisons, key=lambda c: (order[c.status], c.figure.quantity))
