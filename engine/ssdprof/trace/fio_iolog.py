"""fio's own trace files (fio's HOWTO, "Trace file format"): version 2, whose time is only its ``wait`` lines,
and version 3 (fio 3.31+), whose every line starts with its time in microseconds from the run's start.

A version 2 ``wait`` is the number of microseconds since the previous wait (the HOWTO's wording), so the I/Os
between two waits share one instant; a version 2 log without waits records no time at all. File actions
(``add``, ``open``, ``close``) are checked as fio checks them: an I/O names a file added before.
"""

from __future__ import annotations

from collections.abc import Iterable

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.records import Builder, TraceRecords

__all__ = ["HEADERS", "read_iolog"]

HEADERS = {"fio version 2 iolog": TraceFormat.FIO_IOLOG_V2, "fio version 3 iolog": TraceFormat.FIO_IOLOG_V3}
_FILE_ACTIONS = ("add", "open", "close")
_IO_ACTIONS = {"read": False, "write": True}
_SKIPPED_ACTIONS = ("sync", "datasync", "trim")


def read_iolog(lines: Iterable[str], source: str) -> TraceRecords:
    """Every line read, or a :class:`TraceError` naming the first bad one (nothing is kept of a bad file)."""
    numbered = enumerate(lines, start=1)
    header = next((text.strip() for _, text in numbered), "")
    fmt = HEADERS.get(header)
    if fmt is None:
        raise TraceError(f"{header[:60]!r} is not an iolog header: the first line must be 'fio version 2 iolog' or "
                         "'fio version 3 iolog' (version 1 logs are not read by fio since 1.20)", line=1)
    reader = _Reader(fmt, source)
    for number, text in numbered:
        fields = text.split()
        if fields:
            reader.line(number, fields)
    if not len(reader.builder):
        raise TraceError("the log holds no read or write", path=source)
    timed = fmt is TraceFormat.FIO_IOLOG_V3 or reader.waits > 0
    notes = [] if timed else ["a version 2 log without 'wait' lines records no time: it can only be replayed as fast "
                              "as possible"]
    return reader.builder.build(timed=timed, notes=notes)


class _Reader:
    def __init__(self, fmt: TraceFormat, source: str):
        self.v3 = fmt is TraceFormat.FIO_IOLOG_V3
        self.builder = Builder(fmt, source)
        self.files: dict[str, int] = {}
        self.clock_us = 0
        self.waits = 0

    def line(self, number: int, fields: list[str]) -> None:
        if self.v3:
            if len(fields) not in (3, 5):
                raise TraceError(f"{len(fields)} fields; a version 3 line is 'TIME FILE ACTION' or "
                                 "'TIME FILE ACTION OFFSET LENGTH'", line=number)
            self.clock_us = _whole(fields[0], "time (µs)", number)
            fields = fields[1:]
        elif len(fields) not in (2, 4):
            raise TraceError(f"{len(fields)} fields; a version 2 line is 'FILE ACTION' or 'FILE ACTION OFFSET LENGTH'",
                             line=number)
        if len(fields) == 2:
            self._file_action(number, *fields)
        else:
            self._io(number, *fields)

    def _file_action(self, number: int, name: str, action: str) -> None:
        if action not in _FILE_ACTIONS:
            raise TraceError(f"unknown file action {action!r}; one of {', '.join(_FILE_ACTIONS)}", line=number)
        if action == "add":
            self.files.setdefault(name, self.builder.stream("", name))
        elif name not in self.files:
            raise TraceError(f"{action} of {name}, which no 'add' line added before", line=number)

    def _io(self, number: int, name: str, action: str, offset_text: str, length_text: str) -> None:
        offset = _whole(offset_text, "offset", number)
        if action == "wait":
            if self.v3:
                raise TraceError("'wait' is not allowed in a version 3 log (its times say when)", line=number)
            self.clock_us += offset
            self.waits += 1
            return
        length = _whole(length_text, "length", number)
        if action in _SKIPPED_ACTIONS:
            self.builder.skip("sync" if action == "datasync" else action)
            return
        if action not in _IO_ACTIONS:
            raise TraceError(f"unknown action {action!r}; one of read, write, {', '.join(_SKIPPED_ACTIONS)}, wait",
                             line=number)
        if name not in self.files:
            raise TraceError(f"{action} on {name}, which no 'add' line added before", line=number)
        if length == 0:
            raise TraceError(f"a {action} of 0 bytes", line=number)
        self.builder.add(self.clock_us * 1000, _IO_ACTIONS[action], offset, length, stream=self.files[name], line=number)


def _whole(text: str, what: str, line: int) -> int:
    if not (text.isascii() and text.isdigit()):
        raise TraceError(f"{what} {text[:40]!r} is not a whole number", line=line)
    return int(text)
