"""Runs sweeps (a single run is a sweep of one point): picks the engine, prepares the target
once, measures each point, checks validity, commits each finished point, cleans up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ssdprof.app.adaptive import adapt, is_adaptive, point_tags, progress_count
from ssdprof.app.cooldown import gate_before, with_wait
from ssdprof.app.engines import EngineUnavailable, PointEngine, choose_engine
from ssdprof.app.ledger import TargetLedger
from ssdprof.app.point import Clock, Point, measure_point
from ssdprof.app.sites import LocalSite, RemoteSite, Site
from ssdprof.model.events import (
    Count,
    PointFinished,
    PointStarted,
    RunEvent,
    SweepEnd,
    SweepFinished,
    SweepStarted,
)
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import POINT_OVERHEAD_S, SweepSpec, cool_down_s
from ssdprof.remote.ceph import RbdTarget
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.target.plan import TargetPlan

__all__ = ["Clock", "EngineUnavailable", "Point", "PointEngine", "Runner", "SweepOutcome", "choose_engine"]


@dataclass(frozen=True)
class SweepOutcome:
    sweep_id: int | None
    status: SweepEnd
    results: list[RunResult]
    wall_s: float
    layout_s: float
    reason: str = ""
    """Why a sweep stopped before its end ("stopped": a host was lost; resume when it is back)."""
    spec: SweepSpec | None = None
    """The sweep as it ended: a curve or a search has the points it grew."""
    measured: dict[int, RunResult] = field(default_factory=dict)
    """A curve's or a search's finished points by index, resumed ones included."""


class Runner:
    def __init__(self, store: Store | None, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None, sys_root: Path = Path("/sys")):
        """``sys_root``: where this machine's drive sensors are read (hwmon; a test's own tree)."""
        self.store = store
        self.sys_root = sys_root
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh or SshSettings()

    def run_sweep(self, spec: SweepSpec, *, resume_id: int | None = None, tags: dict[str, str] | None = None,
                  on_event: Callable[[RunEvent], None] | None = None, cancel: threading.Event | None = None,
                  target: TargetPlan | None = None, rbd: RbdTarget | None = None) -> SweepOutcome:
        emit = on_event or (lambda event: None)
        cancel = cancel or threading.Event()
        started = time.monotonic()
        site = self._site(spec, target, rbd)
        sweep_id, done = self._open_sweep(spec, resume_id)
        measured = self._measured(sweep_id) if resume_id is not None and is_adaptive(spec) else {}
        spec = self._adapted(spec, sweep_id, measured)
        todo = _todo(spec, done)
        number = len(done)  # finished before this start; then the number of the point in hand
        clock = Clock(_remaining_s(spec, todo, progress_count(spec, number)))
        emit(SweepStarted(sweep_id=sweep_id, name=spec.name, count=progress_count(spec, number),
                          estimated_s=clock.remaining_s, engine=site.engine.name,
                          engine_reason=site.engine.reason))
        results: list[RunResult] = []
        layout_s = 0.0
        status: SweepEnd = "failed"  # until the loop below ends: an error on the way fails it
        reason = ""
        ledger = self._ledger(site)
        try:
            layout_s = self._set_up(site, ledger, emit) if todo else 0.0
            while todo:
                index, repeat = todo.pop(0)
                number += 1
                workload = spec.points[index]
                count = progress_count(spec, number - 1)
                emit(PointStarted(index=index, repeat=repeat, number=number, count=count,
                                  workload=workload, eta_s=clock.remaining_s))
                point = Point(workload, number, count, sweep_id, repeat,
                              {**spec.tags, **(tags or {}), **point_tags(spec, index)}, ledger.state() if ledger is not None else None)
                result = self._gated_point(spec, site, point, emit=emit, cancel=cancel, clock=clock,
                                           first=not results)
                if result is None:
                    status = "cancelled"
                    break
                result = self._keep(result, index, ledger)
                results.append(result)
                clock.finish(workload)
                if is_adaptive(spec) and result.status in ("ok", "partial"):
                    done.add((index, repeat))
                    measured[index] = result
                    spec, todo = self._grown(spec, sweep_id, measured=measured, done=done,
                                             todo=todo, clock=clock, finished=number)
                count = progress_count(spec, number)
                emit(PointFinished(number=number, count=count, result=result))
                if todo and (stop := self._stop_reason(site, result, sweep_id)) is not None:
                    status, reason = "stopped", f"stopped after {count.text}: {stop}"
                    break
            else:
                status = "done"
        finally:
            self._end(site, spec, sweep_id, status)
        wall_s = time.monotonic() - started
        emit(SweepFinished(sweep_id=sweep_id, status=status, run_ids=[r.id for r in results if r.id is not None],
                           wall_s=wall_s, layout_s=layout_s, reason=reason))
        return SweepOutcome(sweep_id, status, results, wall_s, layout_s, reason, spec=spec,
                            measured={**measured} if is_adaptive(spec) else {})

    def _end(self, site: Site, spec: SweepSpec, sweep_id: int | None, status: SweepEnd) -> None:
        """Tear down, and record how the sweep ended even when tearing down failed (the store keeps
        the end on this machine while its server is away, so this never raises over the error that
        ended the sweep)."""
        try:
            site.tear_down(keep=spec.points[0].keep_file)
        finally:
            if self.store is not None and sweep_id is not None:
                self.store.set_sweep_status(sweep_id, status)

    @staticmethod
    def _set_up(site: Site, ledger: TargetLedger | None, emit: Callable[[RunEvent], None]) -> float:
        """Lays out the test files; what that wrote to this machine's target goes into its ledger."""
        layout_s = site.set_up(emit)
        if ledger is not None and layout_s and isinstance(site, LocalSite):
            ledger.wrote(site.layout_bytes)
        return layout_s

    def _gated_point(self, spec: SweepSpec, site: Site, point: Point, *,
                     emit: Callable[[RunEvent], None], cancel: threading.Event, clock: Clock,
                     first: bool) -> RunResult | None:
        """A point measured after the sweep's cool-down gate (none before the first point of a
        start), the wait kept with its run; None when cancelled."""
        gate = spec.cool_down if not first else None
        wait = None
        if gate is not None:
            device = site.environment.device if isinstance(site, LocalSite) else ""
            wait = gate_before(gate, device=device, on_hosts=not isinstance(site, LocalSite),
                               number=point.number, emit=emit, cancel=cancel,
                               sys_root=self.sys_root)
            clock.remaining_s = max(clock.remaining_s - gate.counted_s, 0.0)
        if cancel.is_set():
            return None
        result = self.measure_point(site, point, emit=emit, cancel=cancel, clock=clock)
        return with_wait(result, wait, gate) if result and wait and gate else result

    def _keep(self, result: RunResult, index: int, ledger: TargetLedger | None) -> RunResult:
        """A finished point: its writes counted in the target's ledger, the run stored (with its id)."""
        if ledger is not None:
            ledger.wrote(result.write.io_bytes)
        return self.store.add_run(result, point_index=index) if self.store is not None else result

    def _stop_reason(self, site: Site, result: RunResult, sweep_id: int | None) -> str | None:
        """Why the sweep stops before its next point: a host was lost, or another process resumed it
        after its lease lapsed (this one was cut off from the store); None: it carries on."""
        if (lost := site.lost(result)) is not None:
            return f"{lost}. Its data and the other hosts' are kept; resume when the host is back"
        taken = self.store.lease_lost(sweep_id) if self.store is not None and sweep_id is not None else None
        return f"{taken}; its points so far are kept" if taken else None

    def _ledger(self, site: Site) -> TargetLedger | None:
        """This machine's target in the ledger; hosts' targets are not tracked (their runs record no drive state)."""
        if self.store is None or not isinstance(site, LocalSite):
            return None
        return TargetLedger.of(self.store, site.plan, site.size_bytes)

    def _measured(self, sweep_id: int | None) -> dict[int, RunResult]:
        """A resumed curve's or search's finished points, by index: what its next points depend on."""
        return self.store.sweep_results(sweep_id) if self.store is not None and sweep_id is not None else {}

    def _grown(self, spec: SweepSpec, sweep_id: int | None, *, measured: dict[int, RunResult],
               done: set[tuple[int, int]], todo: list[PointKey], clock: Clock,
               finished: int) -> tuple[SweepSpec, list[PointKey]]:
        """A curve's or a search's points after one more was measured, what is left of them, and
        the ETA."""
        grown = self._adapted(spec, sweep_id, measured)
        if grown is not spec:
            spec, todo = grown, _todo(grown, done)
        clock.remaining_s = _remaining_s(spec, todo, progress_count(spec, finished))
        return spec, todo

    def _adapted(self, spec: SweepSpec, sweep_id: int | None, measured: dict[int, RunResult]) -> SweepSpec:
        grown = adapt(spec, measured)
        if grown is not spec and self.store is not None and sweep_id is not None:
            self.store.set_sweep_spec(sweep_id, grown)
        return grown

    def _site(self, spec: SweepSpec, target: TargetPlan | None, rbd: RbdTarget | None = None) -> Site:
        """Check everything that can be checked before anything is written anywhere; ``target``
        and ``rbd``: the local target and the RBD image the planner's preflight resolved
        (:class:`~ssdprof.app.planner.Preflight`), else (a resumed sweep) resolved here."""
        if spec.remote is not None:
            store = self.store
            return RemoteSite(spec, self.ssh, links_gbps=store.host_links() if store is not None else {},
                              watch=store.monitor_hosts() if store is not None else [], rbd=rbd)
        engine = choose_engine(spec.points[0].engine, self.fio_executable)
        return LocalSite(spec, engine, self.default_dir, plan=target)

    def _open_sweep(self, spec: SweepSpec, resume_id: int | None) -> tuple[int | None, set[tuple[int, int]]]:
        if self.store is None:
            return None, set()
        if resume_id is None:
            return self.store.create_sweep(spec), set()
        stored = self.store.sweep(resume_id)
        if stored is None:
            raise KeyError(f"sweep {resume_id} does not exist")
        if stored.kind == "pts":
            raise KeyError(f"sweep {resume_id} is a PTS test: continue it with ssdprof pts resume {resume_id}")
        if stored.kind == "sustain":
            raise KeyError(f"sweep {resume_id} is a sustained-write test: continue it with ssdprof sustain --resume {resume_id}")
        if stored.kind == "replay":
            raise KeyError(f"sweep {resume_id} is a trace replay: run it again with ssdprof replay --resume {resume_id}")
        self.store.set_sweep_status(resume_id, "running")
        return resume_id, stored.done

    def measure_point(self, site: Site, point: Point, *, emit: Callable[[RunEvent], None], cancel: threading.Event,
                      clock: Clock) -> RunResult | None:
        return measure_point(site, point, emit=emit, cancel=cancel, clock=clock, sys_root=self.sys_root)


class PointKey(NamedTuple):
    """A point of a sweep as the store keeps it: (index, repeat), like ``StoredSweep.done``."""

    point_index: int
    repeat: int


def _todo(spec: SweepSpec, done: set[tuple[int, int]]) -> list[PointKey]:
    """The points still to run, every point of a repeat before the next repeat."""
    keys = (PointKey(i, r) for r in range(spec.repeats) for i in range(len(spec.points)))
    return [key for key in keys if key not in done]


def _remaining_s(spec: SweepSpec, todo: list[PointKey], count: Count) -> float:
    """The points still to run, and those a curve has planned but not yet added (its rates, once
    the probe has run), each as long as the first; a search's further depths are not known, so not
    counted."""
    listed = sum(spec.points[key.point_index].duration_s() + POINT_OVERHEAD_S for key in todo)
    planned = (count.total or 0) - count.done - len(todo)
    cooling = cool_down_s(spec) / max(spec.total_points() - 1, 1) * max(len(todo) - 1, 0)
    return listed + max(planned, 0) * (spec.points[0].duration_s() + POINT_OVERHEAD_S) + cooling




