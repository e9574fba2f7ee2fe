"""Reading a results table's header and cells: which column is which (by common spellings), the unit a
header or a cell states, and numbers as people write them ("14,500", "85 µs", a decimal comma)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["BW_UNITS", "CHECK_UNITS", "LAT_UNITS", "ROLES", "SIZE_UNITS", "STATS", "Column", "TableImportError",
           "column_of", "header_unit", "normal_header", "number", "recognise"]

ROLES: list[tuple[str, re.Pattern[str]]] = [(role, re.compile(rx)) for role, rx in (
    ("run", r"^(run[ _]?id|run|id)$"),
    ("read_pct", r"read[ _]?(%|pct|percent|share)|rwmixread|^mix"),
    ("bs", r"\b(bs|block ?_?size|access ?size|io ?size|transfer ?size|chunk ?size|request ?size|record ?size)"),
    ("qd", r"queue ?_?depth|iodepth|io ?depth|\bqd\b"),
    ("jobs", r"numjobs|\bjobs\b|threads|\bt\b|processes|workers"),
    ("runtime", r"runtime|duration"),
    ("direct", r"^direct$"),
    ("pattern", r"^pattern$|^rw$|^workload$|access ?pattern|operation|^op$|^test$|^type$|^mode$"),
    ("direction", r"^dir(ection)?\b"),
    ("device", r"device|model|drive|^ssd$|^disk$"),
    ("iops", r"iops"),
    ("bw", r"[kmg]i?b/s|[kmg]i?bps|bandwidth|throughput|\bbw\b|bytes_per_s|per_s\b"),
    ("lat", r"lat|response ?time|clat"),
)]


CHECK_UNITS = {"bytes_per_s": "b/s", "kbps": "kb/s", "mbps": "mb/s", "gbps": "gb/s", "mb_per_s": "mb/s", "mib_per_s": "mib/s"}


BW_UNITS = {"b/s": 1.0, "bytes_per_s": 1.0, "kb/s": 1e3, "kib/s": 1024.0, "mb/s": 1e6, "mib/s": 1048576.0, "gb/s": 1e9,
             "gib/s": float(1 << 30), "kbps": 1e3, "mbps": 1e6, "gbps": 1e9, "mb_per_s": 1e6, "mib_per_s": 1048576.0}


LAT_UNITS = {"ns": 1.0, "us": 1e3, "usec": 1e3, "ms": 1e6, "msec": 1e6, "s": 1e9, "sec": 1e9}


SIZE_UNITS = {"b": 1, "byte": 1, "bytes": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20}


STATS = [("stddev", r"stddev|std ?dev"), ("p99_99", r"99\.99|p9999"), ("p99_9", r"99\.9|p999"), ("p99", r"p?99"),
          ("p95", r"p?95"), ("p90", r"p?90"), ("p50", r"p50|median|50"), ("max", r"\bmax"), ("min", r"\bmin"), ("mean", r"")]


NUMBER = re.compile(r"^([-+]?\d*\.?\d+(?:e[-+]?\d+)?)\s*([a-z/%_]*)$")


class TableImportError(ValueError):
    """The table is malformed; the message names the row and column."""


@dataclass(frozen=True)
class Column:
    index: int
    header: str
    role: str
    direction: str | None
    """read or write for a per-direction metric column, None for the row's own direction."""
    stat: str = ""
    unit: str = ""


def normal_header(header: str) -> str:
    return header.strip().lower().replace("µ", "u").replace("μ", "u")


def header_unit(text: str, role: str) -> str:
    """The unit a header states: in brackets ('latency (ms)'), or as a word ('lat_ns_p99', 'MB/s', 'block_size_bytes')."""
    bracket = re.search(r"[(\[]\s*([^)\]]+?)\s*[)\]]", text)
    if bracket:
        return str(bracket.group(1)).replace(" ", "")
    units: dict[str, float] = {"bw": BW_UNITS, "lat": LAT_UNITS, "runtime": LAT_UNITS}.get(role, {})
    if role == "bs":
        units = {k: float(v) for k, v in SIZE_UNITS.items()}
    for unit in sorted(units, key=len, reverse=True):
        if re.search(rf"(^|[ _]){re.escape(unit)}($|[ _])", text):
            return unit
    return ""


def column_of(index: int, header: str) -> Column | None:
    text = normal_header(header)
    if "slat" in text or "latency_kind" in text:
        return None  # submission latency is part of the total, not a figure of its own; the kind is ours
    direction = None
    prefixed = re.match(r"^(read|write|rd|wr)[ _:-]+(.*)$", text)
    if prefixed and not re.match(r"^read[ _]?(%|pct|percent|share)", text):
        direction, text = ("read" if prefixed.group(1) in ("read", "rd") else "write"), prefixed.group(2)
    for role, pattern in ROLES:
        if pattern.search(text):
            stat = next(name for name, rx in STATS if re.search(rx, text.replace("_", " ").replace("p99 9", "p99.9"))) \
                if role == "lat" else ""
            return Column(index, header.strip(), role, direction, stat, header_unit(text, role))
    return None


def recognise(header: list[str], name: str) -> list[Column]:
    columns = [c for i, h in enumerate(header) if (c := column_of(i, h)) is not None]
    roles = {c.role for c in columns}
    if not roles & {"iops", "bw", "lat"}:
        raise TableImportError(f"{name} row 1: no IOPS, bandwidth (MB/s, MiB/s) or latency column among {header}")
    for needed, spelled in (("bs", "block size / bs / access size"), ("pattern", "direction / pattern / rw")):
        if needed not in roles and not (needed == "pattern" and "direction" in roles):
            raise TableImportError(f"{name} row 1: no {needed} column; name one '{spelled}'")
    return columns


def number(cell: str) -> tuple[float, str] | None:
    text = cell.strip().lower().replace("µ", "u").replace("μ", "u").replace("\u202f", "").replace("\xa0", "").replace("_", "")
    if re.match(r"^[-+]?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    elif text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")  # a decimal comma
    match = NUMBER.match(text.replace(" ", ""))
    return (float(match.group(1)), match.group(2)) if match else None
