"""The SNIA IOTTA MSR-Cambridge block traces: CSV lines of
``Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime``, times in Windows filetime ticks (100 ns),
Type ``Read`` or ``Write``, offset and size in bytes. The published files have no header line; one with
these names is accepted."""

from __future__ import annotations

from collections.abc import Iterable

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.records import Builder, TraceRecords

__all__ = ["COLUMNS", "looks_like_msr", "read_msr"]

COLUMNS = ("Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size", "ResponseTime")
_TICK_NS = 100
_TYPES = {"read": False, "write": True}


def looks_like_msr(first_line: str) -> bool:
    fields = [f.strip() for f in first_line.split(",")]
    if len(fields) != len(COLUMNS):
        return False
    return [f.lower() for f in fields] == [c.lower() for c in COLUMNS] or (fields[0].isascii() and fields[0].isdigit()
                                                                          and fields[3].lower() in _TYPES)


def read_msr(lines: Iterable[str], source: str) -> TraceRecords:
    """Every line read, or a :class:`TraceError` naming the first bad one (nothing is kept of a bad file)."""
    builder = Builder(TraceFormat.MSR_CSV, source)
    origin: int | None = None  # the first timestamp: filetime ticks since 1601 in nanoseconds overflow 64 bits
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        fields = [f.strip() for f in text.split(",")]
        if number == 1 and [f.lower() for f in fields] == [c.lower() for c in COLUMNS]:
            continue
        origin = _row(builder, number, fields, origin)
    if not len(builder):
        raise TraceError("the file holds no I/O line", path=source)
    return builder.build(timed=True)


def _row(builder: Builder, number: int, fields: list[str], origin: int | None) -> int:
    if len(fields) != len(COLUMNS):
        raise TraceError(f"{len(fields)} fields; an MSR-Cambridge line has {len(COLUMNS)}: {','.join(COLUMNS)}", line=number)
    timestamp, host, disk, kind, offset, size, response = fields
    is_write = _TYPES.get(kind.lower())
    if is_write is None:
        raise TraceError(f"Type {kind[:40]!r} is neither Read nor Write", line=number)
    size_bytes = _whole(size, "Size", number)
    if size_bytes == 0:
        raise TraceError("Size 0: an I/O of no bytes", line=number)
    ticks = _whole(timestamp, "Timestamp", number)
    origin = ticks if origin is None else origin
    builder.add((ticks - origin) * _TICK_NS, is_write, _whole(offset, "Offset", number), size_bytes,
                latency_ns=_whole(response, "ResponseTime", number) * _TICK_NS, stream=builder.stream(host, disk), line=number)
    return origin


def _whole(text: str, column: str, line: int) -> int:
    if not (text.isascii() and text.isdigit()):
        raise TraceError(f"{column} {text[:40]!r} is not a whole number", line=line)
    return int(text)
