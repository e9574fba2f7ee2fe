"""elbencho's human-readable results file (``--resfile``): each elbencho run appends an 'ISO DATE:'
line, an optional 'LABEL:', the 'COMMAND LINE:' (every argument in double quotes), the table header,
then its phases, each closed by '---'::

    WRITE       Elapsed time     :      5.002s      5.004s
                IOPS             :      123456      123400
                Throughput MiB/s :         482         482
                IO latency       : [ min=12us avg=31us max=1.21ms ]
                IO lat % us      : [ 1%<=16 50%<=28 75%<=33 99%<=89 99.9%<=303 ]
    ---

(operation in 11 columns, result type in 17, then first done and last done). It names no elbencho
version and no settings but the command line, which is read for them."""

from __future__ import annotations

import re
from datetime import datetime

from ssdprof.model.results import RunResult
from ssdprof.store.imports.elbencho_phase import Phase, Side, command_settings, phases_runs
from ssdprof.store.imports.sources import ImportFailure, SourceFile

__all__ = ["import_elbencho_text", "is_elbencho_text"]

_LATENCY_UNITS = {"us": 1.0, "ms": 1e3, "s": 1e6}
_PERCENTILES = {"50": "p50", "90": "p90", "95": "p95", "99": "p99", "99.9": "p99_9", "99.99": "p99_99"}


def is_elbencho_text(source: SourceFile) -> bool:
    head = source.data[:2000]
    return b"COMMAND LINE:" in head and b"RESULT TYPE" in head and b"OPERATION" in head


def import_elbencho_text(source: SourceFile, tags: dict[str, str]) -> tuple[list[RunResult], list[str]]:
    runs, notes = phases_runs(source, _phases(source), tags)
    notes.append("elbencho's text results name no elbencho version; its settings are read from the command line")
    return runs, notes


def _phases(source: SourceFile) -> list[Phase]:
    lines = source.lines()
    phases: list[Phase] = []
    started, command, current = "", "", None
    for number, line in enumerate(lines, start=1):
        if line.startswith("ISO DATE:"):
            started = _iso(line.removeprefix("ISO DATE:").strip())
        elif line.startswith("COMMAND LINE:"):
            command = line.removeprefix("COMMAND LINE:").strip()
        elif line.startswith("---"):
            if current is not None:
                phases.append(current)
            current = None
        elif ":" in line and not line.startswith(("LABEL:", "OPERATION", "=", "WARNING", "Skipping")):
            operation, kind, values = line[:11].strip(), line[12:].partition(":")[0].strip(), line[12:].partition(":")[2]
            if operation:
                if current is not None:
                    raise ImportFailure(f"{source.path} line {number}: phase {operation} starts before phase "
                                        f"{current.operation} ended with '---'")
                current = Phase(where=f"line {number}", operation=operation, elapsed_s=0.0,
                                settings=command_settings(command), main=Side(), mix_read=Side(), started_at=started,
                                command=command)
            elif current is None:
                raise ImportFailure(f"{source.path} line {number}: {line.strip()!r} outside a phase")
            _read_line(source, number, current, kind, values.strip())
    if current is not None:
        raise ImportFailure(f"{source.path} line {len(lines)}: phase {current.operation} ({current.where}) is not closed "
                            "by '---': the file is cut short")
    if not phases:
        raise ImportFailure(f"{source.path}: no elbencho phase (such as 'WRITE  Elapsed time : ...') found")
    return phases


def _iso(text: str) -> str:
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").isoformat()
    except ValueError:
        return ""


def _read_line(source: SourceFile, number: int, phase: Phase, kind: str, values: str) -> None:
    """One result line into the phase; a line of a known kind that does not read is refused, naming it."""
    side = phase.mix_read if re.search(r"\b(read|rd)\b", kind) else phase.main
    base = re.sub(r" (read|write|wr|rd|total)$", "", kind).replace(" rd ", " ").replace(" wr ", " ")
    try:
        if kind == "Elapsed time":
            phase.elapsed_s = _elapsed(values.split()[1])
        elif base in ("IOPS",) and not kind.endswith("total"):
            side.first_iops, side.iops = (float(v) for v in values.split())
        elif re.fullmatch(r"(Throughput )?MiB/s", base) and not kind.endswith("total"):
            side.first_mib_s, side.mib_s = (float(v) for v in values.split())
        elif re.fullmatch(r"(Throughput )?MB/s", base) and not kind.endswith("total"):
            side.first_mib_s, side.mib_s = (float(v) * 1e6 / 1048576 for v in values.split())
        elif re.fullmatch(r"IO( wr| rd)? latency", kind):
            side.io_lat_us.update(_latency(values))
        elif re.fullmatch(r"IO( wr| rd)? lat % us", kind):
            side.io_lat_us.update(_percentiles(values))
        elif kind.endswith(" latency"):
            side.file_lat_us.update(_latency(values))
    except (ValueError, KeyError):
        raise ImportFailure(f"{source.path} line {number}: {kind!r} reads {values!r}; expected elbencho's "
                            "'first done' and 'last done' figures: the file is cut short or changed") from None


def _elapsed(text: str) -> float:
    """elbencho's elapsed time: '950ms', '5.002s', '1m3.004s' or '2h0m3s'."""
    found = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?", text)
    if not found or not any(found.groups()):
        raise ValueError(text)
    hours, minutes, seconds, millis = found.groups()
    return int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds or 0) + int(millis or 0) / 1000


def _latency(values: str) -> dict[str, float]:
    """'[ min=12us avg=31us max=1.21ms ]' in µs."""
    found = dict(re.findall(r"(min|avg|max)=(\d+(?:\.\d+)?(?:us|ms|s))", values))
    if not found:
        raise ValueError(values)
    return {key: float(re.sub(r"[a-z]+$", "", value)) * _LATENCY_UNITS[re.sub(r"^[\d.]+", "", value)]
            for key, value in found.items()}


def _percentiles(values: str) -> dict[str, float]:
    """'[ 1%<=16 50%<=28 99%<=89 99.9%<=303 ]' in µs; nothing when the histogram was exceeded."""
    if "exceeded" in values:
        return {}
    pairs = re.findall(r"([\d.]+)%<=([\d.]+)", values)
    if not pairs:
        raise ValueError(values)
    return {_PERCENTILES[p]: float(v) for p, v in pairs if p in _PERCENTILES}
