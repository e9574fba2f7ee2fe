"""A DiskMark-style export's test lines as runs: each line one run, its figures read as the tool that
wrote it means them (``ToolWords``), the drive, OS and test size as the run's environment."""

from __future__ import annotations

from dataclasses import dataclass, field

from ssdprof.model.direction import DirectionStats
from ssdprof.model.provenance import Provenance
from ssdprof.model.results import EngineInfo, Environment, RunResult, ValidityWarning
from ssdprof.model.workload import Pattern, Workload
from ssdprof.store.imports.diskmark_lines import DiskmarkExport, TestLine
from ssdprof.store.imports.imported_run import Given, imported_run, side_stats
from ssdprof.store.imports.sources import SourceFile

__all__ = ["DEFAULT_MEASURE_S", "ToolWords", "diskmark_runs"]

DEFAULT_MEASURE_S = 5.0
"""Both tools measure each test for 5 s unless set otherwise; older exports do not say."""


@dataclass
class ToolWords:
    """What one tool's export means by its figures (``{runs}`` in a meaning: e.g. '5 runs')."""

    tool: str
    version: str
    bytes_per_mb: float
    rate_meaning: str
    iops_meaning: str
    latency_field: str
    """lat_ns (total) or clat_ns (completion), as the tool measured it."""
    latency_meaning: str
    latency_kind: str
    engine: EngineInfo
    environment: Environment
    target: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    line_warning: dict[int, ValidityWarning] = field(default_factory=dict)
    """A warning for the runs of some lines, by line number (e.g. KDiskMark's multi-thread undercount)."""


def diskmark_runs(source: SourceFile, export: DiskmarkExport, words: ToolWords) -> list[RunResult]:
    size_bytes, loops = export.test_size()
    measure_s = export.measure_s()
    notes = list(words.notes)
    if measure_s is None:
        measure_s = DEFAULT_MEASURE_S
        notes.append(f"the export does not say how long each test measured: {DEFAULT_MEASURE_S:g} s assumed "
                     "(the tool's default)")
    if export.mix_lines:
        notes.append(f"[Mix] {export.mix} lines {', '.join(map(str, export.mix_lines))} not imported: {words.tool} "
                     "gives one figure for reads and writes together, and ssdprof keeps the two directions apart")
    runs = []
    for line in export.tests:
        runs.append(_run(source, export, words, line, size_bytes=size_bytes or 1 << 30, loops=loops, measure_s=measure_s, notes=notes))
    return runs


def _run(source: SourceFile, export: DiskmarkExport, words: ToolWords, line: TestLine, *, size_bytes: int,
         loops: int | None, measure_s: float, notes: list[str]) -> RunResult:
    where = f"line {line.number}"
    given = Given()
    runs = f"{loops} runs" if loops else "the runs"
    given.put("bw_bytes_per_s", line.rate_mb_per_s * words.bytes_per_mb, f"{where}: 'MB/s' of {line.label}",
              words.rate_meaning.format(runs=runs))
    given.put("iops", line.iops, f"{where}: 'IOPS' of {line.label}", words.iops_meaning.format(runs=runs))
    given.put(f"{words.latency_field}.mean", None if line.latency_us is None else line.latency_us * 1000,
              f"{where}: '< us>' of {line.label}", words.latency_meaning.format(runs=runs))
    direction = "read" if line.section == "Read" else "write"
    stats, figures = side_stats(given, direction, runtime_s=measure_s, block_size_bytes=line.block_size_bytes,
                                measured=f"the {measure_s:g} s measured")
    line_notes = list(notes)
    if not line.size_given:
        line_notes.append(f"{line.label}: the line gives no access size; {words.tool} 5 and 6 measured "
                          "'Sequential' in 128 KiB blocks")
    pattern = {(True, "read"): Pattern.RANDREAD, (True, "write"): Pattern.RANDWRITE,
               (False, "read"): Pattern.READ, (False, "write"): Pattern.WRITE}[(line.random, direction)]
    workload = Workload(pattern=pattern, read_pct=100 if direction == "read" else 0, block_size_bytes=line.block_size_bytes,
                        queue_depth=line.queue_depth, numjobs=line.threads, runtime_s=measure_s, ramp_s=0,
                        size_bytes=max(size_bytes // 512 * 512, line.block_size_bytes * line.threads), target=words.target,
                        direct=words.engine.direct)
    provenance = Provenance(tool=words.tool, tool_version=words.version, file=source.path, part=f"{where} ({line.label})",
                            digest=source.digest, latency=words.latency_kind if line.latency_us is not None else
                            "none in the export", figures=figures, notes=line_notes)
    warning = words.line_warning.get(line.number)
    return imported_run(provenance=provenance, workload=workload,
                        engine=words.engine.model_copy(update={"effective_queue_depth": line.queue_depth}),
                        read=stats if direction == "read" else DirectionStats(),
                        write=stats if direction == "write" else DirectionStats(),
                        environment=words.environment, tags=words.tags, raw=source.text(),
                        started_at=export.started_at(), warnings=[warning] if warning else [])
