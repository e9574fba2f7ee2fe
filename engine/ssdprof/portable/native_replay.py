"""A planned trace replay played by the portable engine's compiled loop (``ssdprof-io --trace``, engine/native/trace.c)
where fio is missing: the plan's I/Os as one fio iolog version 3, its lanes as ``--iodepth`` (lane k issues the k-th,
(k+N)-th, ... I/O one at a time, as fio's replay does), each a synchronous call timed from submission to return; the
program's result read as any point's, and when each I/O was issued read back from its issue log."""

from __future__ import annotations

import dataclasses
import os
import secrets
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ssdprof import __version__
from ssdprof.fio.replay import iolog_text, replay_limit_s, replay_options
from ssdprof.model.replay import ReplayTiming
from ssdprof.model.results import EngineInfo, HostResult, Measurement, ProgressSample
from ssdprof.model.workload import Workload
from ssdprof.portable.directio import io_method
from ssdprof.portable.native import LOOP_NATIVE, NativeBinary
from ssdprof.portable.native_run import direction_stats, refusal_error, run_native
from ssdprof.trace.plan import ReplayPlan

__all__ = ["NativeReplay", "native_replay_argv"]

_SECTOR = 512


def native_replay_argv(binary: Path, plan: ReplayPlan, target: Path, *, region_bytes: int, direct: bool,
                       trace: Path, issue_log: Path) -> list[str]:
    largest = int(plan.records.size_bytes.max()) if len(plan.records) else _SECTOR
    argv = [str(binary), "--target", str(target), "--size", str(region_bytes),
            "--bs", str(-(-largest // _SECTOR) * _SECTOR), "--iodepth", str(plan.lanes), "--jobs", "1",
            "--runtime", repr(float(replay_limit_s(plan))), "--ramp", "0", "--seed", str(secrets.randbits(63)),
            "--trace", str(trace), "--trace-timing", "recorded" if plan.timing is ReplayTiming.AS_RECORDED else "fastest",
            "--issue-log", str(issue_log), "--watch-stdin"]
    return argv if direct else [*argv, "--buffered"]


class NativeReplay:
    """The compiled loop replaying one plan on this machine."""

    def __init__(self, binary: NativeBinary, plan: ReplayPlan, *, system: str, reason: str):
        self.binary = binary
        self.plan = plan
        self.system = system
        self.reason = reason

    def run(self, target: str, *, direct: bool, is_device: bool, region_bytes: int,
            on_progress: Callable[[ProgressSample], None] | None,
            cancel: threading.Event) -> tuple[Measurement, npt.NDArray[np.int64] | None]:
        """The program's measurement (a refused trace or target raises WorkloadError) and when each I/O went."""
        path = Path(target)
        with tempfile.TemporaryDirectory(prefix=f"ssdprof-replay-{os.getpid()}-") as scratch:
            trace, log = Path(scratch) / "trace.iolog", Path(scratch) / "issued.txt"
            trace.write_text(iolog_text(dataclasses.replace(self.plan, lanes=1), 0))
            argv = native_replay_argv(self.binary.path, self.plan, path, region_bytes=region_bytes, direct=direct,
                                      trace=trace, issue_log=log)
            outcome = run_native(argv, Workload(runtime_s=replay_limit_s(self.plan), ramp_s=0), on_progress=on_progress,
                                 cancel=cancel)
            issued = _issued(log, len(self.plan.records))
        if outcome.refused is not None:
            raise refusal_error(outcome.refused, path)
        job = replay_options(self.plan, target, ioengine="psync", direct=direct, is_device=is_device).as_job_file()
        info = EngineInfo(name="portable", version=__version__, loop=LOOP_NATIVE, direct=direct,
                          ioengine=io_method(self.system, direct=direct), effective_queue_depth=1,
                          reason=f"{self.reason}; {self.plan.lanes} lane(s) of one synchronous I/O each "
                                 f"({self.binary.path.name} --trace)")
        raw = "\n".join(outcome.lines)
        result = outcome.result
        if outcome.cancelled or result is None:
            errors = [] if outcome.cancelled else [f"the compiled I/O loop ({self.binary.path}) ended without its "
                                                   f"result: {outcome.ended_how}"]
            measured = Measurement(engine=info, hosts=[], cancelled=outcome.cancelled, errors=errors, raw_output=raw,
                                   progress=outcome.samples, job_text=job)
            return measured, issued
        errors = [str(e) for e in result["errors"]]
        host = HostResult(host="local", read=direction_stats(result["read"], result["runtime_ns"]),
                          write=direction_stats(result["write"], result["runtime_ns"]), jobs=self.plan.lanes,
                          error="; ".join(errors) or None, target=target)
        measured = Measurement(engine=info, hosts=[host], raw_output=raw, errors=errors, progress=outcome.samples,
                               job_text=job)
        return measured, issued


def _issued(log: Path, count: int) -> npt.NDArray[np.int64] | None:
    """Each I/O's submission time (ns from the start; -1 not issued) in the plan's order; None where the program
    wrote no log (it ended before its lanes did)."""
    if not log.is_file():
        return None
    issued = np.loadtxt(log, dtype=np.int64, ndmin=1)
    return issued if issued.size == count else None
