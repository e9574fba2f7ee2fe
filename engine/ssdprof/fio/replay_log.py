"""When fio issued each replayed I/O, from its per-I/O submission log (``write_lat_log`` with ``log_offset=1``:
``time ms, slat ns, direction, size, offset, priority`` per line, one file per job clone). The submission log, not
the latency log: fio 3.33 leaves out of its latency log the completions it reaps at a job's end, while it logs every
submission. A lane issues its I/Os in order, so its log's lines are its I/Os in order; which log is which lane is
told by the I/Os themselves, not by fio's numbering of the files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ssdprof.trace.plan import ReplayPlan

__all__ = ["LOG_NAME", "PER_IO_LOG_LIMIT", "issue_times_ns", "issue_times_of", "log_rows"]

LOG_NAME = "lane"
PER_IO_LOG_LIMIT = 2_000_000
"""Replays of more I/Os keep no per-I/O log (fio holds it in memory until the job ends: ~100 bytes an I/O)."""


def issue_times_ns(folder: Path, plan: ReplayPlan) -> npt.NDArray[np.int64]:
    """Each I/O's issue time (ns from its lane's start, ms resolution) in the plan's order; -1 where none was
    issued (a cancelled replay) or its lane's log was not found."""
    return issue_times_of(plan, (log_rows(log) for log in sorted(folder.glob(f"{LOG_NAME}_slat.*.log"))))


def log_rows(source: Path | Iterable[str]) -> npt.NDArray[np.int64]:
    """A submission log's (time ms, direction, size, offset) rows, from its file or its lines."""
    return np.loadtxt(source, delimiter=",", dtype=np.int64, usecols=(0, 2, 3, 4), ndmin=2)


def issue_times_of(plan: ReplayPlan, logs: Iterable[npt.NDArray[np.int64]]) -> npt.NDArray[np.int64]:
    """As :func:`issue_times_ns`, from each lane's log rows (in any order)."""
    issued = np.full(len(plan.records), -1, dtype=np.int64)
    lanes = {lane: plan.lane(lane) for lane in range(plan.lanes)}
    for rows in logs:
        if not rows.size:
            continue
        lane = _lane_of(rows, plan, lanes)
        if lane is None:
            continue
        positions = lanes.pop(lane)[: rows.shape[0]]
        issued[positions] = rows[: positions.size, 0] * 1_000_000
    return issued


def _lane_of(rows: npt.NDArray[np.int64], plan: ReplayPlan, lanes: dict[int, npt.NDArray[np.intp]]) -> int | None:
    """The lane whose first I/Os (direction, size, offset) are this log's first lines."""
    records = plan.records
    head = rows[: min(8, rows.shape[0])]
    for lane, positions in lanes.items():
        mine = positions[: head.shape[0]]
        if mine.size == head.shape[0] and bool(
                (records.is_write[mine] == (head[:, 1] == 1)).all() and (records.size_bytes[mine] == head[:, 2]).all()
                and (records.offset_bytes[mine] == head[:, 3]).all()):
            return lane
    return None
