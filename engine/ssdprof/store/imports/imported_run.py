"""An imported run put together from the figures its source gave, each one listed with where it
stood and what the tool means by it. Only the figures given are filled; where the run model needs
a count the source did not make (an I/O count to weigh means by), it is set from the source's own
rate and time and listed as derived."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ssdprof.model.direction import DirectionStats, LatencyStats
from ssdprof.model.hosts import HostResult
from ssdprof.model.provenance import Provenance, SourceFigure
from ssdprof.model.results import EngineInfo, Environment, RunResult, Severity, ValidityWarning
from ssdprof.model.status import RunStatus
from ssdprof.model.workload import Workload

__all__ = ["Given", "imported_run", "side_stats"]

_LATENCY_FIELDS = ("mean", "stddev", "min", "max", "p50", "p90", "p95", "p99", "p99_9", "p99_99")


@dataclass
class Given:
    """One direction's figures as the source gave them: field -> (value, where, what it means)."""

    figures: dict[str, tuple[float, str, str]] = field(default_factory=dict)

    def put(self, name: str, value: float | None, where: str, meaning: str = "") -> None:
        if value is not None:
            self.figures[name] = (float(value), where, meaning)

    def value(self, name: str) -> float | None:
        found = self.figures.get(name)
        return found[0] if found else None

    def __bool__(self) -> bool:
        return bool(self.figures)


def side_stats(given: Given, direction: str, *, runtime_s: float, block_size_bytes: int,
               measured: str) -> tuple[DirectionStats, list[SourceFigure]]:
    """``measured`` says over what time the source's rates are (for the derived counts' wording)."""
    if not given:
        return DirectionStats(), []
    figures = [SourceFigure(field=f"{direction}.{name}", source=where, meaning=meaning)
               for name, (_, where, meaning) in given.figures.items()]

    def derive(name: str, value: float, how: str) -> float:
        figures.append(SourceFigure(field=f"{direction}.{name}", source="not in the source", meaning=how, derived=True))
        return value

    iops, bw = given.value("iops"), given.value("bw_bytes_per_s")
    count, size = given.value("io_count"), given.value("io_bytes")
    if iops is None:
        iops = derive("iops", count / runtime_s if count is not None else (bw or 0.0) / block_size_bytes,
                      f"I/Os ÷ {measured}" if count is not None else "bandwidth ÷ access size")
    if bw is None:
        bw = derive("bw_bytes_per_s", size / runtime_s if size is not None else iops * block_size_bytes,
                    f"bytes ÷ {measured}" if size is not None else "IOPS × access size")
    if count is None:
        count = derive("io_count", max(1.0, round(iops * runtime_s)),
                       f"IOPS × {measured}: for weighing means only, the tool did not count I/Os")
    if size is None:
        size = derive("io_bytes", round(bw * runtime_s), f"bandwidth × {measured}: the tool did not count bytes")
    stats = DirectionStats(io_count=int(count), io_bytes=int(size), runtime_ms=runtime_s * 1000, iops=iops,
                           bw_bytes_per_s=bw, lat_ns=_latency(given, "lat_ns", int(count)),
                           clat_ns=_latency(given, "clat_ns", int(count)))
    return stats, figures


def _latency(given: Given, prefix: str, samples: int) -> LatencyStats:
    values = {name: v for name in _LATENCY_FIELDS if (v := given.value(f"{prefix}.{name}")) is not None}
    return LatencyStats.model_validate({"samples": samples, **values}) if values else LatencyStats()


def imported_run(*, provenance: Provenance, workload: Workload, engine: EngineInfo, read: DirectionStats,
                 write: DirectionStats, environment: Environment | None = None, tags: dict[str, str] | None = None,
                 raw: str = "", started_at: str = "", hosts: Sequence[HostResult] = (), status: RunStatus = "ok",
                 warnings: Sequence[ValidityWarning] = ()) -> RunResult:
    version = f" {provenance.tool_version}" if provenance.tool_version else ""
    note = ValidityWarning(code="imported", severity=Severity.INFO, concerns=["read.lat_ns", "write.lat_ns"],
                           message=f"imported from {provenance.tool}{version} ({provenance.file}, {provenance.part}); "
                                   f"latency: {provenance.latency}")
    return RunResult(started_at=started_at, finished_at=started_at, status=status, engine=engine, workload=workload,
                     environment=environment or Environment(), hosts=list(hosts), read=read, write=write,
                     tags=dict(tags or {}), source=f"imported:{provenance.file.rsplit('/', 1)[-1]}", imported=provenance,
                     raw_output=raw, warnings=[note, *warnings])
