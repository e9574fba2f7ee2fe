"""A trace's I/Os as columns (numpy arrays), the one shape every reader produces and every step after reads:
a trace of millions of I/Os is tens of megabytes here, not millions of objects.

``time_ns`` counts from the trace's first I/O; ``latency_ns`` is -1 where the trace records none; ``stream``
indexes ``streams`` (host, disk); ``line`` is where each I/O was read (a line, or a record for a binary), so a
later refusal can name it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from ssdprof.model.trace import TraceFormat

__all__ = ["Builder", "Column", "Stream", "TraceRecords"]

Column = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Stream:
    host: str
    disk: str


@dataclass(frozen=True)
class TraceRecords:
    format: TraceFormat
    source: str
    time_ns: Column
    is_write: npt.NDArray[np.bool_]
    offset_bytes: Column
    size_bytes: Column
    latency_ns: Column
    stream: Column
    line: Column
    streams: tuple[Stream, ...]
    timed: bool
    skipped: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.time_ns.size)

    def take(self, keep: npt.NDArray[np.bool_] | npt.NDArray[np.intp], *, note: str = "") -> TraceRecords:
        """The I/Os selected by a mask or an index array, in that order."""
        return replace(self, time_ns=self.time_ns[keep], is_write=self.is_write[keep],
                       offset_bytes=self.offset_bytes[keep], size_bytes=self.size_bytes[keep],
                       latency_ns=self.latency_ns[keep], stream=self.stream[keep], line=self.line[keep],
                       notes=(*self.notes, note) if note else self.notes)

    def with_offsets(self, offset_bytes: Column, *, note: str) -> TraceRecords:
        return replace(self, offset_bytes=offset_bytes, notes=(*self.notes, note))

    def with_times(self, time_ns: Column, *, note: str = "") -> TraceRecords:
        return replace(self, time_ns=time_ns, notes=(*self.notes, note) if note else self.notes)

    @property
    def has_latency(self) -> bool:
        return bool(self.latency_ns.size) and bool((self.latency_ns >= 0).any())

    @property
    def span_ns(self) -> int:
        return int(self.time_ns.max() - self.time_ns.min()) if self.timed and len(self) else 0


class Builder:
    """Collects a reader's I/Os in compact columns (``array('q')``, 8 bytes a value) and names its streams."""

    def __init__(self, fmt: TraceFormat, source: str):
        self.format = fmt
        self.source = source
        self._columns = [array("q") for _ in range(7)]
        self._streams: dict[Stream, int] = {}
        self.skipped: dict[str, int] = {}

    def stream(self, host: str, disk: str) -> int:
        return self._streams.setdefault(Stream(host, disk), len(self._streams))

    def known_stream(self, host: str, disk: str) -> int | None:
        return self._streams.get(Stream(host, disk))

    def set_latency(self, index: int, latency_ns: int) -> None:
        self._columns[4][index] = latency_ns

    def add(self, time_ns: int, is_write: bool, offset_bytes: int, size_bytes: int, *, latency_ns: int = -1, stream: int,
            line: int) -> None:
        values = (time_ns, is_write, offset_bytes, size_bytes, latency_ns, stream, line)
        for column, value in zip(self._columns, values, strict=True):
            column.append(value)

    def skip(self, kind: str) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + 1

    def __len__(self) -> int:
        return len(self._columns[0])

    def build(self, *, timed: bool, notes: Sequence[str] = ()) -> TraceRecords:
        """The columns put in time order (stable: I/Os of one instant keep the order they were read in),
        counted from the first I/O."""
        time_ns, is_write, offset, size, latency, stream, line = (np.frombuffer(c, dtype=np.int64) if len(c) else
                                                                  np.zeros(0, dtype=np.int64) for c in self._columns)
        notes = list(notes)
        order = None
        if timed and time_ns.size and bool((np.diff(time_ns) < 0).any()):
            out_of_order = int((np.diff(time_ns) < 0).sum())
            order = np.argsort(time_ns, kind="stable")
            notes.append(f"{out_of_order} I/O{'s' if out_of_order != 1 else ''} recorded out of time order were put in order")
        columns = [c[order] if order is not None else c.copy() for c in (time_ns, offset, size, latency, stream, line)]
        writes = is_write[order] if order is not None else is_write
        if columns[0].size:
            columns[0] -= columns[0].min()
        return TraceRecords(
            format=self.format, source=self.source, time_ns=columns[0], is_write=writes.astype(bool),
            offset_bytes=columns[1], size_bytes=columns[2], latency_ns=columns[3], stream=columns[4], line=columns[5],
            streams=tuple(self._streams), timed=timed, skipped=dict(self.skipped), notes=tuple(notes))
