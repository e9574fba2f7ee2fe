"""A trace file read whole, its format told by its content (or named): fio iolog v2/v3, blktrace binary, or
MSR-Cambridge CSV, plain or gzip-compressed (the published MSR files are ``.csv.gz``).

All or nothing: the first bad line stops the import with a :class:`TraceError` that names it."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO, BinaryIO, cast

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.blktrace import is_blktrace, read_blktrace
from ssdprof.trace.fio_iolog import HEADERS, read_iolog
from ssdprof.trace.msr import COLUMNS, looks_like_msr, read_msr
from ssdprof.trace.records import TraceRecords

__all__ = ["detect_format", "load_trace"]

_GZIP_MAGIC = b"\x1f\x8b"


def load_trace(path: Path, fmt: TraceFormat | None = None) -> TraceRecords:
    """The trace at ``path`` (of ``fmt``, or the format its content shows)."""
    if not path.is_file():
        raise TraceError(f"{path} is not a file")
    found = detect_format(path)
    if fmt is not None and fmt is not found and not {fmt, found} <= set(HEADERS.values()):  # an iolog's header tells its version
        raise TraceError(f"{path.name} reads as {found.label}, not {fmt.label}")
    source = path.name
    if found is TraceFormat.BLKTRACE:
        return read_blktrace(path, source)
    with _open(path) as handle:
        lines = _text_lines(handle, source)
        try:
            return read_msr(lines, source) if found is TraceFormat.MSR_CSV else read_iolog(lines, source)
        except TraceError as exc:
            raise TraceError(exc.detail, line=exc.line, path=source) from None


def detect_format(path: Path) -> TraceFormat:
    with path.open("rb") as raw:
        head = raw.read(4)
    if is_blktrace(head):
        return TraceFormat.BLKTRACE
    with _open(path) as handle:
        try:
            first = handle.readline(4096).decode("utf-8").strip()
        except (UnicodeDecodeError, OSError, EOFError):
            first = ""
    if first in HEADERS:
        return HEADERS[first]
    if looks_like_msr(first):
        return TraceFormat.MSR_CSV
    raise TraceError(f"{path.name} is not a trace ssdprof reads: its first line {first[:60]!r} is neither an iolog header "
                     f"('fio version 2 iolog', 'fio version 3 iolog') nor an MSR-Cambridge line ({','.join(COLUMNS)}), "
                     "and it is no blktrace binary")


def _open(path: Path) -> BinaryIO:
    with path.open("rb") as raw:
        compressed = raw.read(2) == _GZIP_MAGIC
    if compressed:
        return cast(BinaryIO, gzip.GzipFile(path, "rb"))
    return path.open("rb")


def _text_lines(handle: IO[bytes], source: str) -> Iterator[str]:
    """Lines as text; a byte that is no UTF-8, or a damaged gzip stream, named by its line."""
    number = 0
    try:
        for number, raw in enumerate(handle, start=1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise TraceError(f"byte {exc.start + 1} is not text (UTF-8)", line=number, path=source) from None
    except (OSError, EOFError) as exc:
        raise TraceError(f"the compressed file is damaged after line {number}: {exc}", path=source) from None
