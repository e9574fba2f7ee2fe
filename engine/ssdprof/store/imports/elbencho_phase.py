"""One elbencho phase (WRITE, READ, RWMIX<pct>) as a run, from either of its result files.

What its figures are, from its source (Statistics.cpp, LocalWorker.cpp): each phase gives rates at
'first done' (while every thread still ran: the stonewall) and 'last done' (all the phase's work over
the time until the last thread finished); ssdprof takes 'last done', the whole phase, and keeps the
stonewall figures in the notes. IOPS and MiB/s are whole numbers (elbencho rounds down). An I/O's
latency is timed from before its submission to its completion (total latency), in whole µs; in a
folder benchmark elbencho also times each file (open, every block, close): that per-file latency is
not an I/O's and never becomes the run's latency. Percentiles ('IO lat % us', text file only, with
--latpercent) are the upper bounds of elbencho's histogram buckets ('50%<=28').
"""

from __future__ import annotations

import contextlib
import re
import shlex
from dataclasses import dataclass, field

from ssdprof.model.direction import DirectionStats
from ssdprof.model.provenance import Provenance, SourceFigure
from ssdprof.model.quantities import parse_size_bytes
from ssdprof.model.results import EngineInfo, Environment, RunResult
from ssdprof.model.workload import Pattern, Workload
from ssdprof.store.imports.imported_run import Given, imported_run, side_stats
from ssdprof.store.imports.sources import ImportFailure, SourceFile

__all__ = ["TOOL", "Phase", "Side", "command_settings", "phase_run", "phases_runs"]

TOOL = "elbencho"
_IO_LATENCY = "total latency per I/O (elbencho: submission to completion, whole µs)"


@dataclass
class Side:
    """One direction of a phase: 'last done' figures, the stonewall's, and latency in µs as elbencho gave them."""

    iops: float | None = None
    mib_s: float | None = None
    first_iops: float | None = None
    first_mib_s: float | None = None
    io_lat_us: dict[str, float] = field(default_factory=dict)
    """min, avg, max and percentiles ('p50', 'p99', ...)."""
    file_lat_us: dict[str, float] = field(default_factory=dict)


@dataclass
class Phase:
    where: str
    """e.g. 'row 3' or 'line 14'."""
    operation: str
    elapsed_s: float
    settings: dict[str, str]
    """threads, hosts, block size, file size, direct IO, random, IO depth, path type, paths (elbencho's names)."""
    main: Side
    """The phase's own figures: its reads (READ) or writes (WRITE, and the writes of RWMIX)."""
    mix_read: Side
    """RWMIX's reads ('rwmix read' / 'IOPS read')."""
    version: str = ""
    started_at: str = ""
    command: str = ""


def command_settings(command: str) -> dict[str, str]:
    """The settings a results CSV has as columns, read from elbencho's command line (as its text file quotes it)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = [word.strip('"') for word in command.split()]
    found: dict[str, str] = {"threads": "1", "block size": "1048576", "IO depth": "1", "direct IO": "0", "random": "0",
                             "hosts": "1", "paths": "0"}
    flags = {"-t": "threads", "--threads": "threads", "-b": "block size", "--block": "block size", "--iodepth": "IO depth",
             "-s": "file size", "--size": "file size", "--rwmixpct": "rwmixpct", "--hosts": "hosts"}
    paths = []
    index = 1
    while index < len(words):
        word, value = words[index], words[index + 1] if index + 1 < len(words) else ""
        name, _, inline = word.partition("=")
        if name in flags:
            given = inline or value
            index += 1 if inline else 2
            found[flags[name]] = str(len([h for h in given.split(",") if h])) if flags[name] == "hosts" else given
            continue
        if word in ("--direct",):
            found["direct IO"] = "1"
        elif word in ("--rand",):
            found["random"] = "1"
        elif not word.startswith("-"):
            paths.append(word)
        index += 1
    for key in ("block size", "file size"):
        if key in found and not found[key].isdigit():
            with contextlib.suppress(ValueError):
                found[key] = str(parse_size_bytes(found[key]))
    found["paths"] = str(len(paths))
    found["path list"] = ",".join(paths)
    return found


def _int(phase: Phase, source: SourceFile, key: str, default: int) -> int:
    text = phase.settings.get(key, "").strip()
    if not text:
        return default
    try:
        return int(float(text))
    except ValueError:
        raise ImportFailure(f"{source.path} {phase.where}: '{key}' is {text!r}, not a number") from None


def phases_runs(source: SourceFile, phases: list[Phase], tags: dict[str, str]) -> tuple[list[RunResult], list[str]]:
    """The runs of the phases that read or write data, and why each other phase is none; refuses a file with none."""
    runs, notes = [], []
    for phase in phases:
        run, why = phase_run(source, phase, tags)
        if run is None:
            notes.append(why)
        else:
            runs.append(run)
    if not runs:
        raise ImportFailure(f"{source.path}: no phase that reads or writes data" + (f" ({notes[0]})" if notes else ""))
    return runs, notes


def phase_run(source: SourceFile, phase: Phase, tags: dict[str, str]) -> tuple[RunResult | None, str]:
    """The phase's run, or None and why it is not one (a phase that neither reads nor writes data)."""
    mix = re.fullmatch(r"RWMIX(\d+)", phase.operation)
    if phase.operation not in ("WRITE", "READ") and not mix:
        return None, f"{phase.where}: phase {phase.operation} reads or writes no data (or mixes with separate reader " \
                     "threads): not a run"
    block = _int(phase, source, "block size", 1 << 20)
    if block < 512 or block % 512:
        return None, f"{phase.where}: phase {phase.operation} used {block} B blocks; ssdprof's runs are whole 512 B sectors"
    reads = phase.operation == "READ" or bool(mix)
    writes = phase.operation == "WRITE" or bool(mix)
    sides: dict[str, DirectionStats] = {}
    figures: list[SourceFigure] = []
    notes: list[str] = []
    for name, side, present in (("read", phase.mix_read if mix else phase.main, reads), ("write", phase.main, writes)):
        given = _given(side, phase, name, notes) if present else Given()
        stats, found = side_stats(given, name, runtime_s=phase.elapsed_s, block_size_bytes=block,
                                  measured=f"the phase's {phase.elapsed_s:g} s (last done)")
        sides[name] = stats
        figures += found
    random = phase.settings.get("random", "0").strip() == "1"
    read_pct = int(mix.group(1)) if mix else 100 if reads else 0
    pattern = (Pattern.RANDRW if random else Pattern.RW) if mix else \
        (Pattern.RANDREAD if random else Pattern.READ) if reads else (Pattern.RANDWRITE if random else Pattern.WRITE)
    threads, hosts = _int(phase, source, "threads", 1), _int(phase, source, "hosts", 1)
    if hosts > 1:
        notes.append(f"elbencho ran on {hosts} hosts: its figures are all of them together, with no split by host")
    depth = min(max(_int(phase, source, "IO depth", 1), 1), 4096)
    workload = Workload(pattern=pattern, read_pct=read_pct, block_size_bytes=block, queue_depth=depth,
                        numjobs=min(max(threads, 1), 256), runtime_s=max(phase.elapsed_s, 0.001), ramp_s=0,
                        size_bytes=max(_int(phase, source, "file size", 0) // 512 * 512, block * threads),
                        target=phase.settings.get("path list", "")[:4096], direct=phase.settings.get("direct IO", "0") == "1")
    provenance = Provenance(tool=TOOL, tool_version=phase.version, file=source.path, part=f"{phase.where} ({phase.operation})",
                            digest=source.digest, figures=figures, notes=notes, latency=_latency_words(phase))
    engine = EngineInfo(name="elbencho", version=phase.version, ioengine="libaio" if workload.queue_depth > 1 else "sync",
                        reason=f"imported from {TOOL} {phase.version}".strip(), effective_queue_depth=workload.queue_depth,
                        direct=workload.direct)
    run_tags = {**({"hosts": str(hosts)} if hosts > 1 else {}), **tags}
    return imported_run(provenance=provenance, workload=workload, engine=engine, read=sides["read"], write=sides["write"],
                        environment=Environment(tool_versions={TOOL: phase.version} if phase.version else {}), tags=run_tags,
                        raw=source.text(), started_at=phase.started_at), ""


def _latency_words(phase: Phase) -> str:
    sides = (phase.main, phase.mix_read)
    if any(s.io_lat_us for s in sides):
        return _IO_LATENCY + (", with percentiles" if any("p50" in s.io_lat_us for s in sides) else ", mean only")
    return "none per I/O" + (" (per file only: in the notes)" if any(s.file_lat_us for s in sides) else "")


def _given(side: Side, phase: Phase, name: str, notes: list[str]) -> Given:
    where = f"{phase.where} ({phase.operation}, {'rwmix read' if name == 'read' and phase.operation.startswith('RWMIX') else name})"
    given = Given()
    given.put("iops", side.iops, f"{where}: IOPS, last done", "all threads' I/Os ÷ the time until the last thread "
              "finished, rounded down by elbencho")
    given.put("bw_bytes_per_s", None if side.mib_s is None else side.mib_s * 1048576, f"{where}: MiB/s, last done",
              "whole MiB/s (2^20 bytes/s), rounded down by elbencho")
    for key, field_name in (("avg", "mean"), ("min", "min"), ("max", "max"), ("p50", "p50"), ("p90", "p90"),
                            ("p95", "p95"), ("p99", "p99"), ("p99_9", "p99_9"), ("p99_99", "p99_99")):
        value = side.io_lat_us.get(key)
        meaning = _IO_LATENCY + ("; a histogram bucket's upper bound ('<=')" if key.startswith("p") else "")
        given.put(f"lat_ns.{field_name}", None if value is None else value * 1000, f"{where}: IO latency {key}", meaning)
    if side.first_iops is not None or side.first_mib_s is not None:
        notes.append(f"{name}, first done (stonewall, while every thread still ran): "
                     + ", ".join(t for t in (f"{side.first_iops:g} IOPS" if side.first_iops is not None else "",
                                             f"{side.first_mib_s:g} MiB/s" if side.first_mib_s is not None else "") if t))
    if side.file_lat_us:
        notes.append(f"{name}: per-file latency (a whole file: open, every block, close), not an I/O's: "
                     + ", ".join(f"{k} {v:g} µs" for k, v in side.file_lat_us.items()))
    return given
