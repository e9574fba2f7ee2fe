"""The figures of a pool of repeats as the summary reads them."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ssdprof.analysis.metrics import metric_value
from ssdprof.model.results import RunResult

__all__ = ["Direction", "Figures", "figures", "measured_runs", "other_tool", "run_ids"]

Direction = Literal["read", "write", "both"]


def measured_runs(runs: Sequence[RunResult]) -> list[RunResult]:
    """Runs that show what the drive can do: finished, at full speed (no offered rate), measured by
    fio or ssdprof (another tool's imported figures are its own kind of test: not the student's)."""
    return [r for r in runs if r.status in ("ok", "partial") and not r.workload.rate_iops and not other_tool(r)]


def other_tool(run: RunResult) -> str | None:
    """The tool that measured an imported run, where it is not fio (CrystalDiskMark, diskspd ...)."""
    return run.imported.tool if run.imported is not None and run.imported.tool != "fio" else None


@dataclass(frozen=True)
class Figures:
    iops: float
    bw_bytes_per_s: float
    lat_ns_mean: float | None


def _mean(values: Sequence[float | None]) -> float | None:
    found = [v for v in values if v is not None]
    return statistics.fmean(found) if found else None


def figures(group: Sequence[RunResult], direction: Direction = "both") -> Figures:
    """The mean over ``group``'s repeats of one direction's figures, or of both directions together
    (rates added, latency I/O-weighted, as ``metrics`` defines them)."""
    if direction == "both":
        def mean_of(metric: str) -> float | None:
            return _mean([metric_value(r, metric) for r in group])

        return Figures(iops=mean_of("iops") or 0.0, bw_bytes_per_s=mean_of("bw_bytes_per_s") or 0.0,
                       lat_ns_mean=mean_of("lat_ns_mean"))
    stats = [r.read if direction == "read" else r.write for r in group]
    return Figures(iops=statistics.fmean(s.iops for s in stats),
                   bw_bytes_per_s=statistics.fmean(s.bw_bytes_per_s for s in stats),
                   lat_ns_mean=_mean([s.lat_ns.mean for s in stats]))


def run_ids(group: Sequence[RunResult]) -> list[int]:
    return [r.id for r in group if r.id is not None]
