"""The part of a trace a replay plays: its chosen disks and hosts, within a window of its time, counted again
from the window's first I/O."""

from __future__ import annotations

import numpy as np

from ssdprof.model.replay import TraceSelection
from ssdprof.model.trace import TraceError
from ssdprof.trace.records import TraceRecords

__all__ = ["select"]

_NS = 1_000_000_000


def select(records: TraceRecords, selection: TraceSelection) -> TraceRecords:
    """The I/Os selected, or a :class:`TraceError` naming a host or disk the trace lacks, or an empty window."""
    if selection.whole:
        return records
    keep = np.ones(len(records), dtype=bool)
    notes = []
    streams = _streams(records, selection)
    if streams is not None:
        keep &= np.isin(records.stream, streams)
        chosen = [records.streams[i] for i in streams]
        notes.append("only " + ", ".join(_named(s.host, s.disk) for s in chosen))
    if selection.start_s or selection.end_s is not None:
        if not records.timed:
            raise TraceError("a time window needs a timed trace; this one records no time")
        start_ns = round(selection.start_s * _NS)
        keep &= records.time_ns >= start_ns
        if selection.end_s is not None:
            keep &= records.time_ns < round(selection.end_s * _NS)
        end = f"{selection.end_s:g} s" if selection.end_s is not None else "the end"
        notes.append(f"the window from {selection.start_s:g} s to {end}")
    if not bool(keep.any()):
        raise TraceError(f"nothing is left of the trace's {len(records)} I/Os in {' and '.join(notes)}")
    chosen_records = records.take(keep, note=f"replayed: {' within '.join(notes)} ({int(keep.sum())} of "
                                             f"{len(records)} I/Os)")
    first = int(chosen_records.time_ns.min())
    return chosen_records.with_times(chosen_records.time_ns - first) if first else chosen_records


def _streams(records: TraceRecords, selection: TraceSelection) -> list[int] | None:
    if not selection.hosts and not selection.disks:
        return None
    hosts = sorted({s.host for s in records.streams})
    disks = sorted({s.disk for s in records.streams})
    for asked, known, what in ((selection.hosts, hosts, "host"), (selection.disks, disks, "disk")):
        missing = [name for name in asked if name not in known]
        if missing:
            listed = ", ".join(repr(k) for k in known if k) or "none (the format records no " + what + ")"
            raise TraceError(f"the trace has no {what} {', '.join(map(repr, missing))}; its {what}s: {listed}")
    return [i for i, s in enumerate(records.streams)
            if (not selection.hosts or s.host in selection.hosts) and (not selection.disks or s.disk in selection.disks)]


def _named(host: str, disk: str) -> str:
    return f"host {host} disk {disk}" if host else f"disk {disk}"
