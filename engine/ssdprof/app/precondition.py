"""Workload-independent preconditioning (PTS): sequential 128 KiB writes over ``passes`` x the test region,
with progress and ETA as events, not measured and not stored as a result.

The engines measure for a time, not a byte count, so the writes run time-based (a sequential job wraps at
the end of the region) and are stopped once the per-second progress shows the bytes written: a little
more than asked, never less. What was written is recorded as the engine counted it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone

from ssdprof.app.sites import LocalSite
from ssdprof.fio.output import combine
from ssdprof.model.drive_state import PreconditionRecord
from ssdprof.model.events import PreconditionProgress, RunEvent
from ssdprof.model.pts import PtsSpec
from ssdprof.model.results import ProgressSample
from ssdprof.model.workload import MAX_RUNTIME_S, FieldProblem, WorkloadError, parse_workload

__all__ = ["PRECONDITION_BLOCK_BYTES", "PRECONDITION_QUEUE_DEPTH", "precondition"]

PRECONDITION_BLOCK_BYTES = 128 << 10
PRECONDITION_QUEUE_DEPTH = 32


def precondition(site: LocalSite, spec: PtsSpec, *, emit: Callable[[RunEvent], None],
                 cancel: threading.Event) -> PreconditionRecord | None:
    """Write passes x region sequentially; None when cancelled. Raises WorkloadError when the engine
    stopped before the bytes were written."""
    total = int(spec.precondition_passes * spec.region_bytes)
    workload = parse_workload({"pattern": "write", "block_size_bytes": PRECONDITION_BLOCK_BYTES,
                               "queue_depth": PRECONDITION_QUEUE_DEPTH, "numjobs": 1, "runtime_s": MAX_RUNTIME_S,
                               "ramp_s": 0, "target": str(site.path)}, base=spec.base)
    enough = threading.Event()
    written = 0.0
    last = 0.0
    started = time.monotonic()

    def progress(sample: ProgressSample) -> None:
        nonlocal written, last
        written += sample.write_bw_bytes_per_s * max(sample.elapsed_s - last, 0.0)
        last = sample.elapsed_s
        elapsed = time.monotonic() - started
        rate = written / elapsed if elapsed > 0 else 0.0
        eta = (total - written) / rate if rate > 0 and written < total else 0.0
        emit(PreconditionProgress(bytes_done=min(int(written), total), bytes_total=total, elapsed_s=elapsed, eta_s=eta))
        if written >= total or cancel.is_set():
            enough.set()

    finished = threading.Event()

    def watch() -> None:  # a cancel reaches the engine even between progress samples
        while not finished.wait(0.2):
            if cancel.is_set():
                enough.set()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        measurement = site.engine.measure(workload, site.path, is_device=site.is_device, on_progress=progress, cancel=enough)
    finally:
        finished.set()
        watcher.join(timeout=1)
    if cancel.is_set():
        return None
    counted = combine(h.write for h in measurement.hosts).io_bytes
    done = max(counted, int(written))
    if done < total:
        why = "; ".join(measurement.errors) or "the engine stopped early"
        raise WorkloadError([FieldProblem(field="precondition", flag="--precondition", message=(
            f"preconditioning wrote {done} of {total} bytes: {why}"))])
    seconds = time.monotonic() - started
    emit(PreconditionProgress(bytes_done=total, bytes_total=total, elapsed_s=seconds, eta_s=0.0, done=True))
    return PreconditionRecord(block_size_bytes=PRECONDITION_BLOCK_BYTES, region_bytes=spec.region_bytes,
                              passes=spec.precondition_passes, bytes_written=done, seconds=seconds,
                              at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
