"""Runs a trace replay on this machine: the sweep of kind ``replay`` stored first, the target prepared as for any
point (a folder's test file laid out, a device held), the trace played by fio's ``read_iolog`` as one point
measured with what is read around every point (CPU, the device's queue, the drive's word, validity), the run
stored with its bins and per-second series, the test file removed. A replay that was cut short or failed runs
again from its start on resume, from the same trace (its SHA-256 checked) planned the same way."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ssdprof.analysis.replay import replay_label, replay_result
from ssdprof.app.engines import LocalEngine, choose_engine
from ssdprof.app.ledger import TargetLedger
from ssdprof.app.point import Clock, Point, measure_point
from ssdprof.app.replay_planner import ReplayJob, trace_sha256
from ssdprof.app.sites import LocalSite
from ssdprof.fio.replay import FioReplay, fio_refusal
from ssdprof.fio.runner import FioEngine
from ssdprof.model.events import Count, PointProgress, RunEvent
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import ReplaySpec, ReplayTiming
from ssdprof.model.replay_events import ReplayEvent, ReplayFinished, ReplayProgress, ReplayStarted
from ssdprof.model.replay_results import ReplayInfo, ReplayResult
from ssdprof.model.results import Measurement, ProgressSample, RunResult
from ssdprof.model.status import SweepEnd
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import FIELD_RULES, Workload
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import RunFilter, Store, StoredSweep
from ssdprof.trace.describe import series_step_s
from ssdprof.trace.issued import issue_timing
from ssdprof.trace.plan import ReplayPlan, plan_replay
from ssdprof.trace.reader import load_trace

__all__ = ["PORTABLE_REFUSAL", "ReplayEngine", "ReplayOutcome", "ReplayRunner", "replay_engine"]

Emit = Callable[[ReplayEvent], None]
PORTABLE_REFUSAL = ("the portable engine replays no traces yet (it issues generated patterns only): install fio "
                    "3.31 or newer (apt install fio, brew install fio, winget install fio) to replay a trace")


@dataclass(frozen=True)
class ReplayOutcome:
    replay_id: int
    status: SweepEnd
    result: ReplayResult


class ReplayEngine:
    """fio playing one planned trace, behind the engine interface every point is measured through: the point's
    workload says where and how (direct or not); the trace says what."""

    name = "fio"

    def __init__(self, fio: FioEngine, plan: ReplayPlan):
        self.fio = fio
        self.replay = FioReplay(fio.install, plan)
        self.reason = f"{fio.reason}; {plan.lanes} lane(s) of fio read_iolog"
        self.issued_ns: npt.NDArray[np.int64] | None = None
        """When each I/O was issued, once measured (None: not logged)."""

    @property
    def tool_versions(self) -> dict[str, str]:
        return self.fio.tool_versions

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float:
        return self.fio.layout(path, size_bytes, direct=direct)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        played = self.replay.run(str(path), direct=workload.direct, is_device=is_device, on_progress=on_progress,
                                 cancel=cancel)
        self.issued_ns = played.issued_ns
        return played.measurement


def replay_engine(workload: Workload, plan: ReplayPlan, fio_executable: str = "fio") -> ReplayEngine:
    """fio that can replay the plan, or a WorkloadError saying why none can here (the portable engine cannot yet)."""
    engine: LocalEngine = choose_engine(workload.engine, fio_executable)
    refusal = fio_refusal(engine.install) if isinstance(engine, FioEngine) else PORTABLE_REFUSAL
    if refusal is not None or not isinstance(engine, FioEngine):
        raise WorkloadError.single("engine", FIELD_RULES["engine"][0], refusal or PORTABLE_REFUSAL)
    return ReplayEngine(engine, plan)


class ReplayRunner:
    def __init__(self, store: Store, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None, sys_root: Path = Path("/sys")):
        self.store = store
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh or SshSettings()
        self.sys_root = sys_root

    def run(self, job: ReplayJob | None = None, *, resume_id: int | None = None, on_event: Emit | None = None,
            cancel: threading.Event | None = None) -> ReplayOutcome:
        emit = on_event or (lambda event: None)
        cancel = cancel or threading.Event()
        started = time.monotonic()
        stored, plan = self._open(job, resume_id)
        status: SweepEnd = "failed"
        reason, run = "", None
        try:
            run = self._play(stored, plan, emit=emit, cancel=cancel)
            status = "cancelled" if run is None else "done"
        except Exception as exc:  # kept as the replay's reason, then raised to the caller
            reason = str(exc)
            raise
        finally:
            self.store.set_sweep_status(stored.id, status)
            emit(ReplayFinished(replay_id=stored.id, status=status, run_id=run.id if run else None,
                                wall_s=time.monotonic() - started, reason=reason))
        return ReplayOutcome(stored.id, status, self.result(stored.id))

    def result(self, replay_id: int) -> ReplayResult:
        stored = self._stored(replay_id)
        assert stored.spec.replay is not None
        runs = self.store.runs(RunFilter(sweep_id=replay_id, limit=None))
        last = max(runs, key=lambda r: r.id or 0) if runs else None
        result = replay_result(replay_id=stored.id, created_at=stored.created_at, name=stored.name, status=stored.status,
                               spec=stored.spec.replay, target=stored.spec.points[0].target, run=last)
        return result.model_copy(update={"run_ids": sorted(r.id for r in runs if r.id is not None),
                                         "repeats": stored.spec.repeats})

    def listed(self) -> list[ReplayInfo]:
        found = []
        for row in self.store.list_sweeps():
            stored = self.store.sweep(row.id)
            if stored is None or stored.kind != "replay" or stored.spec.replay is None:
                continue
            result = self.result(row.id)
            found.append(ReplayInfo(id=row.id, created_at=row.created_at, name=row.name, status=row.status,
                                    label=result.label, trace=stored.spec.replay.recorded.source,
                                    target=result.target, run_id=result.run_id,
                                    io_count=stored.spec.replay.recorded.io_count, span_change_pct=result.span_change_pct))
        return found

    # ------------------------------------------------------------------------------- steps

    def _open(self, job: ReplayJob | None, resume_id: int | None) -> tuple[StoredSweep, ReplayPlan]:
        if job is not None:
            replay_engine(job.spec.points[0], job.plan, self.fio_executable)  # refused before anything is stored
            resume_id = self.store.create_sweep(job.spec, kind="replay")
        if resume_id is None:
            raise KeyError("no replay to resume: give its id")
        stored = self._stored(resume_id)
        if stored.status == "done":
            raise KeyError(f"replay {stored.id} is finished; start a new one")
        plan = job.plan if job is not None else _replanned(stored.spec)
        self.store.set_sweep_status(stored.id, "running")
        return stored, plan

    def _stored(self, replay_id: int) -> StoredSweep:
        stored = self.store.sweep(replay_id)
        if stored is None or stored.kind != "replay" or stored.spec.replay is None:
            raise KeyError(f"replay {replay_id} does not exist")
        return stored

    def _play(self, stored: StoredSweep, plan: ReplayPlan, *, emit: Emit, cancel: threading.Event) -> RunResult | None:
        """Each repeat not yet done, one run each (a repeat cut short runs again); the last run, None when cancelled."""
        spec = stored.spec
        replay = spec.replay
        assert replay is not None
        workload = spec.points[0]
        engine = replay_engine(workload, plan, self.fio_executable)
        site = LocalSite(spec, engine, self.default_dir)
        ledger = TargetLedger.of(self.store, site.plan, site.size_bytes)
        todo = [r for r in range(spec.repeats) if (0, r) not in stored.done]
        result = None
        try:
            emit(ReplayStarted(replay_id=stored.id, name=stored.name, label=replay_label(replay, workload.target),
                               io_count=len(plan.records), expected_s=plan.expected_s, engine=engine.name,
                               engine_reason=engine.reason, notes=list(replay.notes)))
            if todo and site.set_up(lambda event: None):
                ledger.wrote(site.layout_bytes)
            for repeat in todo:
                count = Count.of(spec.repeats - len(todo) + todo.index(repeat), spec.repeats, "exact", "point",
                                 "the trace's repeats")
                point = Point(workload, count.done + 1, count, stored.id, repeat,
                              {**spec.tags, "replay": replay.recorded.source}, ledger.state())
                result = measure_point(site, point, emit=_progress_of(replay, emit), cancel=cancel,
                                       clock=Clock(plan.expected_s or 0.0), sys_root=self.sys_root)
                if result is None:
                    return None
                ledger.wrote(result.write.io_bytes)
                self._keep_timing(stored, plan, engine)
                result = self.store.add_run(_honest(result, replay), point_index=0)
            return result
        finally:
            site.tear_down(keep=workload.keep_file)

    def _keep_timing(self, stored: StoredSweep, plan: ReplayPlan, engine: ReplayEngine) -> None:
        """How the last repeat issued its I/Os, kept with the replay."""
        replay = stored.spec.replay
        if engine.issued_ns is None or replay is None:
            return
        timing = issue_timing(plan, engine.issued_ns, _step_s(replay))
        self.store.set_sweep_spec(stored.id, stored.spec.model_copy(update={
            "replay": replay.model_copy(update={"issued": timing})}))


def _step_s(replay: ReplaySpec) -> int:
    series = replay.recorded.series
    return int(series[0].span_s) if series else series_step_s(replay.recorded.duration_s)


def _replanned(spec: SweepSpec) -> ReplayPlan:
    """A stored replay's plan again, from its trace if unchanged."""
    replay = spec.replay
    assert replay is not None
    path = Path(replay.trace_path).expanduser()
    if not path.is_file():
        raise KeyError(f"the trace {replay.trace_path} is gone; the replay cannot run again")
    if trace_sha256(path) != replay.trace_sha256:
        raise KeyError(f"the trace {replay.trace_path} changed since the replay was planned; start a new replay")
    return plan_replay(load_trace(path, replay.recorded.format), selection=replay.selection, timing=replay.timing,
                       queue_depth=replay.lanes, target_bytes=replay.target_bytes, mapping=replay.mapping,
                       align_bytes=512 if spec.points[0].direct else None)


def _honest(result: RunResult, replay: ReplaySpec) -> RunResult:
    """Warnings that judge a point by a queue kept full for a runtime, left out where a replay does neither: as
    recorded the queue is as deep as the trace makes it (up to the lanes), as fast as possible there is no runtime
    to fall short of (the replay's timing figure says how long it took)."""
    misjudged = "device_queue_shallow" if replay.timing is ReplayTiming.AS_RECORDED else "short_run"
    return result.model_copy(update={"warnings": [w for w in result.warnings if w.code != misjudged]})


def _progress_of(replay: ReplaySpec, emit: Emit) -> Callable[[RunEvent], None]:
    """Each second of the point as a replay's progress, beside the trace's recorded rate over that second."""
    series = replay.recorded.series
    step = series[0].span_s if series else 1.0

    def forward(event: Any) -> None:
        if not isinstance(event, PointProgress):
            return
        sample = event.sample
        middle = sample.elapsed_s - (sample.interval_s or 1.0) / 2
        recorded = series[int(middle // step)] if series and 0 <= middle < len(series) * step else None
        left = max(event.point_duration_s - event.point_elapsed_s, 0.0) if replay.timing is ReplayTiming.AS_RECORDED else None
        emit(ReplayProgress(sample=sample, recorded_read_iops=recorded.read_iops if recorded else None,
                            recorded_write_iops=recorded.write_iops if recorded else None,
                            elapsed_s=event.point_elapsed_s, eta_s=left))

    return forward
