"""Runs a sustained-write test: the fill as one long write stopped after its bytes, then for each idle
interval the idle time and a recovery write. Each write is a stored run (tagged with its step) with its
per-second series, committed as it finishes; a resumed test goes on with the recovery writes not yet
done, and a fill that was cut short is re-run (with every recovery write after it)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ssdprof.analysis.sustain import detect
from ssdprof.analysis.sustain_result import FILL_TAG, STEP_TAG, label_of, planned_recovery_bytes, recovery_tag, sustain_result
from ssdprof.analysis.sustain_series import recovery_row, samples_of
from ssdprof.app.ledger import TargetLedger
from ssdprof.app.outcome import TestOutcome
from ssdprof.app.runner import Clock, Point, Runner
from ssdprof.app.sites import LocalSite, Site
from ssdprof.app.sustain_site import local_engine, site_point, sustain_file
from ssdprof.fio.runner import FioEngine
from ssdprof.model.events import Count, PointProgress, RunEvent
from ssdprof.model.results import RunResult
from ssdprof.model.status import SweepEnd
from ssdprof.model.sustain import ASSUMED_WRITE_BYTES_PER_S
from ssdprof.model.sustain_events import (
    SustainEvent,
    SustainFinished,
    SustainIdle,
    SustainSampled,
    SustainStarted,
    SustainStep,
    SustainStepDone,
    SustainStepStarted,
)
from ssdprof.model.sustain_results import SustainResult, SustainSample, SustainVerdict
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import RunFilter, Store, StoredSweep
from ssdprof.target.plan import TargetKind, default_target_dir, plan_target

__all__ = ["FILL_CUT_SHORT", "NOT_RUN", "SustainOutcome", "SustainRunner"]

Emit = Callable[[SustainEvent], None]
FILL_CUT_SHORT = 0.98
"""A stored fill that wrote less than this share of its bytes was cut short: a resume re-runs it."""
IDLE_EVENT_S = 5.0
NOT_RUN = SustainVerdict(kind="not_run", sentence="")
"""The fill's verdict before it is known: each recovery write's size then follows the fill's."""


SustainOutcome = TestOutcome[SustainResult]


class SustainRunner:
    def __init__(self, store: Store, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None):
        self.store = store
        self.default_dir = default_dir
        self.runner = Runner(store, default_dir=default_dir, fio_executable=fio_executable, ssh=ssh)

    def run(self, spec: SweepSpec | None = None, *, resume_id: int | None = None, on_event: Emit | None = None,
            cancel: threading.Event | None = None) -> SustainOutcome:
        emit = on_event or (lambda event: None)
        cancel = cancel or threading.Event()
        started = time.monotonic()
        stored = self._open(spec, resume_id)
        spec = stored.spec
        fill, done, notes = self._progress(stored)
        status: SweepEnd = "failed"
        reason = ""
        try:
            site = self._site(stored)
            try:
                emit(self._started(stored, site, fill, done, notes))
                status = self._steps(stored, site, fill, done, emit=emit, cancel=cancel)
            finally:
                site.tear_down(keep=True)
        except Exception as exc:  # kept as the test's reason, then raised to the caller
            reason = str(exc)
            raise
        finally:
            self.store.set_sweep_status(stored.id, status)
            if status == "done":
                self._remove_file(stored)
            emit(SustainFinished(sustain_id=stored.id, status=status, wall_s=time.monotonic() - started,
                                 reason=reason))
        return SustainOutcome(stored.id, status, self.result(stored.id))

    def result(self, sustain_id: int) -> SustainResult:
        stored = self.store.sweep(sustain_id)
        if stored is None or stored.kind != "sustain" or stored.spec.sustain is None:
            raise KeyError(f"sustained-write test {sustain_id} does not exist")
        runs = self.store.runs(RunFilter(sweep_id=sustain_id, limit=None))
        result = sustain_result(sweep_id=stored.id, created_at=stored.created_at, name=stored.name, status=stored.status,
                                spec=stored.spec, runs=runs)
        kept = self._kept_file(stored)
        return result.model_copy(update={"test_file": str(kept), "test_file_bytes": kept.stat().st_size}) if kept else result

    # ------------------------------------------------------------------------------- steps

    def _open(self, spec: SweepSpec | None, resume_id: int | None) -> StoredSweep:
        if spec is not None:
            if spec.remote is None:  # every check before anything is stored
                plan_target(spec.points[0], self.default_dir)
                local_engine(spec, self.runner.fio_executable)
            resume_id = self.store.create_sweep(spec, kind="sustain")
        stored = self.store.sweep(resume_id) if resume_id is not None else self._last_unfinished()
        if stored is None or stored.kind != "sustain":
            raise KeyError("no unfinished sustained-write test to resume" if resume_id is None
                           else f"sustained-write test {resume_id} does not exist")
        if stored.status == "done":
            raise KeyError(f"sustained-write test {stored.id} is finished; start a new one")
        self.store.set_sweep_status(stored.id, "running")
        return stored

    def _last_unfinished(self) -> StoredSweep | None:
        """The caller's own newest sustained-write test that did not end done (KeyError saying why none)."""
        return self.store.resumable("sustain", ended=("stopped", "cancelled", "failed"))

    def _progress(self, stored: StoredSweep) -> tuple[RunResult | None, set[int], list[str]]:
        """The fill kept (None: to run), the recovery steps done after it, and what a resume says."""
        plan = stored.spec.sustain
        assert plan is not None
        runs = self.store.runs(RunFilter(sweep_id=stored.id, limit=None))
        fills = [r for r in runs if r.tags.get(STEP_TAG) == FILL_TAG]
        fill = fills[-1] if fills else None
        notes: list[str] = []
        if fill is not None and (fill.status not in ("ok", "partial") or fill.write.io_bytes < FILL_CUT_SHORT * plan.write_bytes):
            notes.append(f"the fill was cut short ({fill.write.io_bytes} of {plan.write_bytes} bytes): it is re-run, "
                         "and every recovery write after it")
            fill = None
        if fill is None:
            return None, set(), notes
        done = {step for step in range(1, len(plan.idle_s) + 1)
                if any(r.tags.get(STEP_TAG) == recovery_tag(step) and r.id is not None and fill.id is not None
                       and r.id > fill.id and r.status in ("ok", "partial") for r in runs)}
        return fill, done, notes

    def _site(self, stored: StoredSweep) -> Site:
        spec = stored.spec
        if spec.remote is not None:
            site = self.runner._site(spec, None)
            site.set_up(lambda event: None)
            return site
        engine = local_engine(spec, self.runner.fio_executable)
        points = self._local_points(stored, engine)
        return LocalSite(spec.model_copy(update={"points": points}), engine, self.default_dir)

    def _local_points(self, stored: StoredSweep, engine: FioEngine) -> list[Workload]:
        """A folder's test file for the whole test, named by the test, allocated but not written (laying
        it out by writing would fill the cache before the fill)."""
        spec = stored.spec
        plan = plan_target(spec.points[0], self.default_dir)
        if plan.kind is not TargetKind.DIRECTORY:
            return spec.points
        path = sustain_file(plan.path.parent, stored.id)
        size = spec.points[0].size_bytes
        if not path.exists() or path.stat().st_size < size:
            with path.open("ab") as handle:
                os.posix_fallocate(handle.fileno(), 0, size)
        return [p.model_copy(update={"target": str(path)}) for p in spec.points]

    def _started(self, stored: StoredSweep, site: Site, fill: RunResult | None, done: set[int],
                 notes: list[str]) -> SustainStarted:
        plan = stored.spec.sustain
        assert plan is not None
        each = planned_recovery_bytes(plan, NOT_RUN, plan.write_bytes)
        left_bytes = (0 if fill else plan.write_bytes) + each * (len(plan.idle_s) - len(done))
        idle = sum(s for i, s in enumerate(plan.idle_s) if i + 1 not in done)
        return SustainStarted(sustain_id=stored.id, name=stored.name, label=label_of(stored.spec),
                              write_bytes=plan.write_bytes, idle_s=plan.idle_s, fill_done=fill is not None,
                              recovery_done=len(done), estimated_s=left_bytes / ASSUMED_WRITE_BYTES_PER_S + idle,
                              engine=site.engine.name, engine_reason=site.engine.reason, notes=notes)

    def _steps(self, stored: StoredSweep, site: Site, fill: RunResult | None, done: set[int], *, emit: Emit,
               cancel: threading.Event) -> SweepEnd:
        plan = stored.spec.sustain
        assert plan is not None
        ledger = TargetLedger.of(self.store, site.plan, plan.region_bytes) if isinstance(site, LocalSite) else None
        if fill is None:
            fill = self._write(stored, site, "fill", 0, plan.write_bytes, emit=emit, cancel=cancel)
            if fill is None:
                return "cancelled"
            if ledger is not None:
                ledger.wrote(fill.write.io_bytes)
        verdict = detect(samples_of(fill)).verdict
        if not done:
            emit(SustainStepDone(step="fill", run_id=fill.id, bytes_written=fill.write.io_bytes,
                                 seconds=fill.write.runtime_ms / 1000, cache_bytes=verdict.cache_bytes))
        amount = planned_recovery_bytes(plan, verdict, fill.write.io_bytes)
        for index, idle_s in enumerate(plan.idle_s):
            step = index + 1
            if step in done:
                continue
            if not _idle(step, idle_s, emit, cancel):
                return "cancelled"
            run = self._write(stored, site, "recovery", step, amount, emit=emit, cancel=cancel)
            if run is None:
                return "cancelled"
            if ledger is not None:
                ledger.wrote(run.write.io_bytes)
            row = recovery_row(step, idle_s, run, verdict)
            emit(SustainStepDone(step="recovery", recovery_step=step, run_id=run.id, bytes_written=run.write.io_bytes,
                                 seconds=row.seconds, recovery=row))
        return "done"

    def _write(self, stored: StoredSweep, site: Site, step: SustainStep, number: int, limit_bytes: int, *, emit: Emit,
               cancel: threading.Event) -> RunResult | None:
        """One byte-bounded write, measured and stored as a run of the test, its seconds sent live."""
        emit(SustainStepStarted(step=step, recovery_step=number, bytes_total=limit_bytes))
        # fio ends the write after its bytes (io_size): exact, where stopping it from its progress
        # overshot by a second's worth, on a fast drive many times a small recovery write
        workload = site_point(site, stored.spec, number).model_copy(update={"io_bytes_limit": limit_bytes})
        written = {"bytes": 0.0}
        last_s: dict[str, float] = {}  # each host's last second: its samples arrive apart
        started = time.monotonic()

        def on_event(event: RunEvent) -> None:
            if not isinstance(event, PointProgress):
                return
            sample = event.sample
            bw = sample.write_bw_bytes_per_s
            # over the time its rate covers (fio's first interval is short of its second), never past the
            # write's own bytes: fio ends it there (the live line read "683.24 MiB of 614.40 MiB")
            covered = max(sample.elapsed_s - last_s.get(sample.host, 0.0), 0.0)
            if sample.interval_s is not None:
                covered = min(covered, sample.interval_s)
            last_s[sample.host] = sample.elapsed_s
            written["bytes"] = min(written["bytes"] + bw * covered, float(limit_bytes))
            rate = written["bytes"] / max(time.monotonic() - started, 1e-9)
            emit(SustainSampled(step=step, recovery_step=number, bytes_total=limit_bytes,
                                eta_s=max(limit_bytes - written["bytes"], 0.0) / rate if rate > 0 else 0.0,
                                sample=SustainSample(elapsed_s=sample.elapsed_s, bytes_written=int(written["bytes"]),
                                                     bw_bytes_per_s=bw, lat_ns_mean=sample.write_lat_ns_mean,
                                                     lat_ns_p99=sample.write_lat_ns_p99, interval_s=sample.interval_s)))

        count = Count.of(number, len(stored.spec.points), "exact", "point", note="the fill, then one write per idle interval")
        tags = {**stored.spec.tags, "sustain": str(stored.id), STEP_TAG: FILL_TAG if step == "fill" else recovery_tag(number)}
        point = Point(workload, number + 1, count, stored.id, 0, tags,
                      TargetLedger.of(self.store, site.plan, workload.size_bytes).state() if isinstance(site, LocalSite) else None)
        result = self.runner.measure_point(site, point, emit=on_event, cancel=cancel, clock=Clock(0.0))
        if result is None:
            return None
        return self.store.add_run(_bounded(result, limit_bytes), point_index=number)

    def _remove_file(self, stored: StoredSweep) -> None:
        kept = self._kept_file(stored)
        if kept is not None and not stored.spec.points[0].keep_file:
            kept.unlink(missing_ok=True)

    def _kept_file(self, stored: StoredSweep) -> Path | None:
        """A folder target's test file as it is on this machine now; None for a file, a device or a remote test."""
        if stored.spec.remote is not None:
            return None
        given = stored.spec.points[0].target
        target = Path(given).expanduser() if given else (self.default_dir or default_target_dir())
        path = sustain_file(target, stored.id)
        return path if target.is_dir() and path.is_file() else None


def _bounded(result: RunResult, limit_bytes: int) -> RunResult:
    """A write that stopped after its bytes ran shorter than its time bound on purpose: that is no
    short run (a write cut short keeps the warning)."""
    if result.write.io_bytes < FILL_CUT_SHORT * limit_bytes:
        return result
    kept = [w for w in result.warnings if w.code != "short_run"]
    return result.model_copy(update={"warnings": kept})


def _idle(step: int, idle_s: float, emit: Emit, cancel: threading.Event) -> bool:
    """Idle for ``idle_s`` seconds, saying so every few seconds; False when cancelled."""
    end = time.monotonic() + idle_s
    while (left := end - time.monotonic()) > 0:
        emit(SustainIdle(recovery_step=step, idle_s=idle_s, remaining_s=left))
        if cancel.wait(min(IDLE_EVENT_S, left)):
            return False
    return not cancel.is_set()
