"""How a replay issued its I/Os against the trace: how many it issued per step of the trace's own rate series
(by issue time, as the trace counts its I/Os), and, as recorded, how late each was against its recorded time."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ssdprof.model.replay import LATE_MS, SLIGHTLY_LATE_MS, IssueTiming, ReplayTiming
from ssdprof.trace.plan import ReplayPlan

__all__ = ["issue_timing", "issue_timing_of"]
_NS_PER_MS = 1_000_000


def issue_timing(plan: ReplayPlan, issued_ns: npt.NDArray[np.int64], step_s: int) -> IssueTiming:
    return issue_timing_of([(plan, issued_ns)], step_s)


def issue_timing_of(parts: Sequence[tuple[ReplayPlan, npt.NDArray[np.int64]]], step_s: int) -> IssueTiming:
    """As :func:`issue_timing`, over several plans played at once from one start (the hosts of a replay)."""
    time_ns = np.concatenate([plan.records.time_ns for plan, _ in parts])
    is_write = np.concatenate([plan.records.is_write for plan, _ in parts])
    issued_ns = np.concatenate([issued for _, issued in parts])
    done = issued_ns >= 0
    slot = issued_ns[done] // (step_s * 1_000_000_000)
    slots = int(slot.max()) + 1 if slot.size else 0
    writes = is_write[done]
    late = None
    if parts and parts[0][0].timing is ReplayTiming.AS_RECORDED and bool(done.any()):
        # both clocks start at the first I/O: the trace's at its first record, each lane's at its own start
        late = (issued_ns[done] - time_ns[done]) / _NS_PER_MS
    return IssueTiming(
        issued=int(done.sum()), step_s=step_s,
        reads_per_step=np.bincount(slot[~writes], minlength=slots).tolist(),
        writes_per_step=np.bincount(slot[writes], minlength=slots).tolist(),
        late_p50_ms=float(np.percentile(late, 50)) if late is not None else None,
        late_p99_ms=float(np.percentile(late, 99)) if late is not None else None,
        late_max_ms=float(late.max()) if late is not None else None,
        late_count=int((late > LATE_MS).sum()) if late is not None else 0,
        late_1ms_count=int((late > SLIGHTLY_LATE_MS).sum()) if late is not None else None)
