"""A run's figures without its bulk: what analysis reads, loaded from the store's summary tables.

A stored run's document holds per-second progress, histogram bins and every host's statistics;
comparing, correlating, predicting and the Groups bars need none of that. :class:`RunSummary` has
the attributes of :class:`~ssdprof.model.results.RunResult` that analysis reads, under the same
names (``run.read.lat_ns.p99``, ``run.workload``, ``run.hosts``, ``run.tags``), so the one rule for
"the same setting" and for pooling (``analysis.metrics.setting_key``, ``analysis.repeats``) reads
either. Hosts keep who they were and their link limit (their figures stay in the store's per-host
table); the bins and the time series are read from the full document only when a chart or a merge
needs them (``Store.run``).

The small parts are named tuples: a study of 8,640 runs loads as ~150,000 of them in well under a
second, where models validated field by field would take several.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from typing_extensions import TypeVar

from ssdprof.model.latency_kind import latency_kind
from ssdprof.model.status import RunStatus

if TYPE_CHECKING:  # no pydantic model is built to import this module: the store opens without them
    from ssdprof.model.drive_state import DriveState
    from ssdprof.model.results import DirectionStats, EngineInfo, Environment, HostResult, LatencyStats, RunResult, SpanStats
    from ssdprof.model.workload import Workload

__all__ = ["EMPTY_DIRECTION", "AnyRun", "DirectionSummary", "HostSummary", "LatencySummary", "R", "RunSummary",
           "SpanSummary", "node_count", "summarise"]


class SpanSummary(NamedTuple):
    """A span's moments in ns (:class:`~ssdprof.model.results.SpanStats`)."""

    samples: int = 0
    mean: float | None = None
    stddev: float | None = None
    min: float | None = None
    max: float | None = None


class LatencySummary(NamedTuple):
    """A latency in ns with its percentiles (:class:`~ssdprof.model.results.LatencyStats`)."""

    samples: int = 0
    mean: float | None = None
    stddev: float | None = None
    min: float | None = None
    max: float | None = None
    p50: float | None = None
    p90: float | None = None
    p95: float | None = None
    p99: float | None = None
    p99_9: float | None = None
    p99_99: float | None = None
    from_bins: bool = False


class DirectionSummary(NamedTuple):
    """One direction of a run or host (:class:`~ssdprof.model.results.DirectionStats`) without its bins."""

    io_count: int = 0
    io_bytes: int = 0
    runtime_ms: float = 0.0
    iops: float = 0.0
    bw_bytes_per_s: float = 0.0
    lat_ns: LatencySummary = LatencySummary()
    clat_ns: LatencySummary = LatencySummary()
    slat_ns: SpanSummary = SpanSummary()

    @property
    def active(self) -> bool:
        return self.io_count > 0

    @property
    def latency_kind(self) -> str:
        return latency_kind(self.io_count, self.lat_ns.p50, self.lat_ns.mean, self.clat_ns.p50, self.clat_ns.mean)


EMPTY_DIRECTION = DirectionSummary()
"""A direction without I/O, shared by every run that did none."""


class HostSummary(NamedTuple):
    """A host of a run as analysis reads it: who, how many jobs, and its link limit."""

    host: str
    jobs: int = 1
    error: str | None = None
    target: str = ""
    link_limit_bytes_per_s: float | None = None
    link_limit_source: str = ""


@dataclass(frozen=True, slots=True)
class RunSummary:
    """A stored run's figures: RunResult's names for everything analysis reads, and no bulk."""

    id: int | None
    sweep_id: int | None
    repeat: int
    status: RunStatus
    started_at: str
    finished_at: str
    source: str
    engine: EngineInfo
    workload: Workload
    environment: Environment
    drive_state: DriveState | None
    hosts: tuple[HostSummary, ...]
    read: DirectionSummary
    write: DirectionSummary
    mixed: DirectionSummary = EMPTY_DIRECTION
    """All I/Os, reads and writes together (:attr:`RunResult.mixed`)."""
    tags: dict[str, str] = field(default_factory=dict)
    cpu_busy_pct: float | None = None
    start_skew_ms: float | None = None
    measured_by: str = ""
    """The user who stored the run (their login name), '' for runs stored before this was kept."""
    measured_on: str = ""
    """The machine that stored it (its host name)."""


AnyRun: TypeAlias = "RunResult | RunSummary"
"""A whole run or its summary: what the analysis of figures accepts."""

R = TypeVar("R", bound="AnyRun", default="RunResult")
"""A run type kept through a computation: pools of whole runs stay whole runs, of summaries summaries."""


def span(stats: SpanStats) -> SpanSummary:
    return SpanSummary(stats.samples, stats.mean, stats.stddev, stats.min, stats.max)


def latency(stats: LatencyStats) -> LatencySummary:
    return LatencySummary(stats.samples, stats.mean, stats.stddev, stats.min, stats.max, stats.p50, stats.p90,
                          stats.p95, stats.p99, stats.p99_9, stats.p99_99, stats.from_bins)


def direction(stats: DirectionStats) -> DirectionSummary:
    found = DirectionSummary(stats.io_count, stats.io_bytes, stats.runtime_ms, stats.iops, stats.bw_bytes_per_s,
                             latency(stats.lat_ns), latency(stats.clat_ns), span(stats.slat_ns))
    return EMPTY_DIRECTION if found == EMPTY_DIRECTION else found


def host(result: HostResult) -> HostSummary:
    return HostSummary(result.host, result.jobs, result.error, result.target, result.link_limit_bytes_per_s,
                       result.link_limit_source)


def node_count(run: AnyRun) -> int | None:
    """Storage nodes behind a run, from its ``nodes`` tag (``ssdprof runs tag 12 nodes=3``): a fact of
    the run the store indexes and analysis groups by."""
    for key in ("nodes", "node_count", "storage_nodes"):
        text = run.tags.get(key, "").strip()
        if text.isdigit():
            return int(text)
    return None


def summarise(run: RunResult, measured_by: str = "", measured_on: str = "") -> RunSummary:
    """The summary of a whole run: what the store writes when it saves one, and what it loads back."""
    return RunSummary(
        id=run.id, sweep_id=run.sweep_id, repeat=run.repeat, status=run.status, started_at=run.started_at,
        finished_at=run.finished_at, source=run.source, engine=run.engine, workload=run.workload,
        environment=run.environment, drive_state=run.drive_state, hosts=tuple(host(h) for h in run.hosts),
        read=direction(run.read), write=direction(run.write), mixed=direction(run.mixed), tags=dict(run.tags),
        cpu_busy_pct=run.cpu_busy_pct,
        start_skew_ms=run.start_skew_ms, measured_by=measured_by or run.measured_by,
        measured_on=measured_on or run.measured_on)
