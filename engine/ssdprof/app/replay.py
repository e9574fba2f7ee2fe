"""Runs a trace replay on this machine or on SSH hosts (:mod:`ssdprof.app.replay_site`): the sweep of kind
``replay`` stored first, the target prepared as for any point (a folder's test file laid out, a device held; each
host's test file), the trace played by fio's ``read_iolog`` as one point
measured with what is read around every point (CPU, the device's queue, the drive's word, validity), the run
stored with its bins and per-second series, the test file removed. A replay that was cut short or failed runs
again from its start on resume, from the same trace (its SHA-256 checked) planned the same way."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ssdprof.analysis.replay import replay_label, replay_result
from ssdprof.app.outcome import TestOutcome
from ssdprof.app.point import Clock, Point, measure_point
from ssdprof.app.replay_planner import ReplayJob, host_plans, trace_sha256
from ssdprof.app.replay_site import ReplayPlace, replay_engine, replay_place
from ssdprof.app.sites import LocalSite
from ssdprof.model.direction import DirectionStats
from ssdprof.model.events import Count, PointProgress, RunEvent
from ssdprof.model.replay import ReplaySpec, ReplayTiming
from ssdprof.model.replay_events import ReplayEvent, ReplayFinished, ReplayProgress, ReplayStarted
from ssdprof.model.replay_results import ReplayInfo, ReplayResult
from ssdprof.model.results import RunResult
from ssdprof.model.status import SweepEnd
from ssdprof.model.sweep import SweepSpec
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import RunFilter, Store, StoredSweep
from ssdprof.trace.plan import ReplayPlan, plan_replay
from ssdprof.trace.reader import load_trace

__all__ = ["ReplayOutcome", "ReplayRunner"]

Emit = Callable[[ReplayEvent], None]


ReplayOutcome = TestOutcome[ReplayResult]


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
        stored, plan, host_plans = self._open(job, resume_id)
        status: SweepEnd = "failed"
        reason, run = "", None
        try:
            run = self._play(stored, plan, host_plans, emit=emit, cancel=cancel)
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

    def _open(self, job: ReplayJob | None, resume_id: int | None) -> tuple[StoredSweep, ReplayPlan, dict[str, ReplayPlan]]:
        if job is not None:
            if job.spec.remote is None:
                replay_engine(job.spec.points[0], job.plan, self.fio_executable)  # refused before anything is stored
            resume_id = self.store.create_sweep(job.spec, kind="replay")
        if resume_id is None:
            raise KeyError("no replay to resume: give its id")
        stored = self._stored(resume_id)
        if stored.status == "done":
            raise KeyError(f"replay {stored.id} is finished; start a new one")
        plan, host_plans = (job.plan, job.host_plans) if job is not None else _replanned(stored.spec)
        self.store.set_sweep_status(stored.id, "running")
        return stored, plan, host_plans

    def _stored(self, replay_id: int) -> StoredSweep:
        stored = self.store.sweep(replay_id)
        if stored is None or stored.kind != "replay" or stored.spec.replay is None:
            raise KeyError(f"replay {replay_id} does not exist")
        return stored

    def _play(self, stored: StoredSweep, plan: ReplayPlan, host_plans: dict[str, ReplayPlan], *, emit: Emit,
              cancel: threading.Event) -> RunResult | None:
        """Each repeat not yet done, one run each (a repeat cut short runs again); the last run, None when cancelled."""
        spec = stored.spec
        replay = spec.replay
        assert replay is not None
        workload = spec.points[0]
        place = replay_place(spec, plan, host_plans, store=self.store, default_dir=self.default_dir,
                             fio_executable=self.fio_executable, ssh=self.ssh)
        site, ledger = place.site, place.ledger
        todo = [r for r in range(spec.repeats) if (0, r) not in stored.done]
        result = None
        try:
            emit(ReplayStarted(replay_id=stored.id, name=stored.name, label=replay_label(replay, workload.target),
                               io_count=len(plan.records), expected_s=plan.expected_s, engine=place.engine_name,
                               engine_reason=site.engine.reason, notes=list(replay.notes)))
            if todo and site.set_up(lambda event: None) and ledger is not None and isinstance(site, LocalSite):
                ledger.wrote(site.layout_bytes)
            for repeat in todo:
                count = Count.of(spec.repeats - len(todo) + todo.index(repeat), spec.repeats, "exact", "point",
                                 "the trace's repeats")
                point = Point(workload, count.done + 1, count, stored.id, repeat,
                              {**spec.tags, "replay": replay.recorded.source}, ledger.state() if ledger else None)
                result = measure_point(site, point, emit=_progress_of(replay, emit), cancel=cancel,
                                       clock=Clock(plan.expected_s or 0.0), sys_root=self.sys_root)
                if result is None:
                    return None
                if ledger is not None:
                    ledger.wrote(result.write.io_bytes)
                self._keep_timing(stored, place)
                result = self.store.add_run(_honest(result, replay), point_index=0)
            return result
        finally:
            site.tear_down(keep=workload.keep_file)

    def _keep_timing(self, stored: StoredSweep, place: ReplayPlace) -> None:
        """How the last repeat issued its I/Os, kept with the replay."""
        current = self.store.sweep(stored.id)
        spec = current.spec if current is not None else stored.spec
        if spec.replay is not None:
            self.store.set_sweep_spec(stored.id, spec.model_copy(update={"replay": place.with_issued(spec.replay)}))


def _replanned(spec: SweepSpec) -> tuple[ReplayPlan, dict[str, ReplayPlan]]:
    """A stored replay's plan (and each host's) again, from its trace if unchanged."""
    replay = spec.replay
    assert replay is not None
    path = Path(replay.trace_path).expanduser()
    if not path.is_file():
        raise KeyError(f"the trace {replay.trace_path} is gone; the replay cannot run again")
    if trace_sha256(path) != replay.trace_sha256:
        raise KeyError(f"the trace {replay.trace_path} changed since the replay was planned; start a new replay")
    plan = plan_replay(load_trace(path, replay.recorded.format), selection=replay.selection, timing=replay.timing,
                       queue_depth=replay.lanes, target_bytes=replay.target_bytes, mapping=replay.mapping,
                       align_bytes=512 if spec.points[0].direct else None)
    return plan, host_plans(replay.hosts_mode, plan, [part.host for part in replay.parts]) if replay.parts else {}


def _honest(result: RunResult, replay: ReplaySpec) -> RunResult:
    """Warnings that judge a point by a queue kept full for a runtime, left out where a replay does neither: as
    recorded the queue is as deep as the trace makes it (up to the lanes), as fast as possible there is no runtime
    to fall short of (the replay's timing figure says how long it took). And its rates over its span (each host's
    over its own): fio sums each lane's own rate, which overstates the whole when lanes end apart (measured: 1,186
    IOPS for 3,000 I/Os in 3.83 s on a throttled disk, lanes ending from 0.85 s to 3.83 s)."""
    misjudged = "device_queue_shallow" if replay.timing is ReplayTiming.AS_RECORDED else "short_run"
    hosts = [host.model_copy(update=_over_span(host.read, host.write)) for host in result.hosts]
    return result.model_copy(update={"warnings": [w for w in result.warnings if w.code != misjudged], "hosts": hosts,
                                     **_over_span(result.read, result.write)})


def _over_span(read: DirectionStats, write: DirectionStats) -> dict[str, DirectionStats]:
    """Each direction's IOPS and bandwidth as its I/Os over the replay's span (the longer of the two runtimes)."""
    span_s = max(read.runtime_ms, write.runtime_ms) / 1000
    if span_s <= 0:
        return {"read": read, "write": write}
    return {name: stats.model_copy(update={"iops": stats.io_count / span_s, "bw_bytes_per_s": stats.io_bytes / span_s,
                                           "runtime_ms": span_s * 1000}) if stats.io_count else stats
            for name, stats in (("read", read), ("write", write))}


def _progress_of(replay: ReplaySpec, emit: Emit) -> Callable[[RunEvent], None]:
    """Each second of the point as a replay's progress, beside the recorded rate over that second of what played it:
    the trace's, or (a host's second) that host's part."""
    given = {part.host: (part.recorded or replay.recorded).series for part in replay.parts}
    step = replay.recorded.series[0].span_s if replay.recorded.series else 1.0

    def forward(event: Any) -> None:
        if not isinstance(event, PointProgress):
            return
        sample = event.sample
        series = given.get(sample.host, replay.recorded.series)
        middle = sample.elapsed_s - (sample.interval_s or 1.0) / 2
        recorded = series[int(middle // step)] if series and 0 <= middle < len(series) * step else None
        left = max(event.point_duration_s - event.point_elapsed_s, 0.0) if replay.timing is ReplayTiming.AS_RECORDED else None
        emit(ReplayProgress(sample=sample, recorded_read_iops=recorded.read_iops if recorded else None,
                            recorded_write_iops=recorded.write_iops if recorded else None,
                            elapsed_s=event.point_elapsed_s, eta_s=left))

    return forward
