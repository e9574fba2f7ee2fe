"""Runs a PTS test: the target checked, purged when asked, preconditioned (workload-independent: sequential
128 KiB writes over passes x the region, with progress, not measured), then rounds of the test's points
until the steady-state rule holds (or write saturation has written its multiple of the region) or the
maximum rounds have run. Every point is committed as it finishes, so a cancelled or crashed test resumes
where it stopped; a test file in a folder is kept until the test is done, so its state carries over."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from ssdprof.analysis.pts import PtsRecord, pts_result
from ssdprof.app.engines import LocalEngine, choose_engine
from ssdprof.app.ledger import TargetLedger
from ssdprof.app.outcome import TestOutcome
from ssdprof.app.precondition import precondition
from ssdprof.app.runner import Clock, Point, Runner
from ssdprof.app.sites import LocalSite
from ssdprof.model.drive_state import DriveState, PreconditionRecord, PurgeRecord
from ssdprof.model.events import (
    Count,
    LayoutDone,
    PointFinished,
    PointStarted,
    PtsFinished,
    PtsStarted,
    PurgeDone,
    RoundFinished,
    RunEvent,
    SweepEnd,
)
from ssdprof.model.pts import PtsSpec, PtsTest, estimate_range_s
from ssdprof.model.pts_results import PtsParameters, PtsResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import RunFilter, Store, StoredPts
from ssdprof.store.errors import StoreUnavailable
from ssdprof.target.plan import TEST_FILE_PREFIX, TargetKind, plan_target
from ssdprof.target.purge import purge_device, purge_file

__all__ = ["PtsOutcome", "PtsRunner", "pts_parameters", "record_of"]

Emit = Callable[[RunEvent], None]


PtsOutcome = TestOutcome[PtsResult]


def pts_parameters(spec: PtsSpec, engine: str) -> PtsParameters:
    base, rule = spec.base, spec.rule
    return PtsParameters(target=base.target, region_bytes=base.size_bytes, offset_bytes=base.offset_bytes, engine=engine,
                         round_time_s=base.runtime_s, queue_depth=base.queue_depth, numjobs=base.numjobs,
                         block_sizes_bytes=spec.block_sizes_bytes, mixes_read_pct=spec.mixes_read_pct,
                         sequential=spec.sequential, window=rule.window, data_limit_pct=rule.data_limit_pct,
                         slope_limit_pct=rule.slope_limit_pct, min_rounds=rule.min_rounds, max_rounds=rule.max_rounds,
                         precondition=spec.precondition, precondition_passes=spec.precondition_passes, purge=spec.purge,
                         saturation_multiple=spec.saturation_multiple if spec.test is PtsTest.WRITE_SATURATION else None)


def record_of(stored: StoredPts, engine: str) -> PtsRecord:
    return PtsRecord(pts_id=stored.id, created_at=stored.created_at, spec=stored.spec, status=stored.status,
                     reason=stored.reason, drive_state=stored.drive_state, parameters=pts_parameters(stored.spec, engine),
                     estimated_s=estimate_range_s(stored.spec)[1])


class PtsRunner:
    def __init__(self, store: Store, *, default_dir: Path | None = None, fio_executable: str = "fio"):
        self.store = store
        self.default_dir = default_dir
        self.runner = Runner(store, default_dir=default_dir, fio_executable=fio_executable)
        self.fio_executable = fio_executable

    def run(self, spec: PtsSpec | None = None, *, resume_id: int | None = None, on_event: Emit | None = None,
            cancel: threading.Event | None = None) -> PtsOutcome:
        emit = on_event or (lambda event: None)
        cancel = cancel or threading.Event()
        started = time.monotonic()
        engine = choose_engine((spec or self._stored(resume_id).spec).base.engine, self.fio_executable)
        stored = self._open(spec, resume_id)
        spec = stored.spec
        done_rounds = self.result(stored.id, engine.name).finished_rounds
        emit(PtsStarted(pts_id=stored.id, test=spec.test.value, profile=spec.profile.value, pts_compliant=spec.pts_compliant,
                        compliance_note=spec.compliance_note(), points_per_round=len(spec.points()),
                        max_rounds=spec.rule.max_rounds, already_rounds=done_rounds,
                        estimated_s=spec.round_s() * (spec.rule.max_rounds - done_rounds),
                        engine=engine.name, engine_reason=engine.reason))
        status: SweepEnd = "failed"
        reason, path = "", None
        try:
            path, fresh_file = self._test_file(stored, engine, emit)
            points = [p.model_copy(update={"target": str(path)}) for p in spec.points()] if path else spec.points()
            state = stored.drive_state if not fresh_file else None
            purge = self._purge(spec, points[0], engine, emit) if state is None else None
            site = LocalSite(SweepSpec(name=spec.name, points=points), engine, self.default_dir)
            ledger = TargetLedger.of(self.store, site.plan, spec.region_bytes)
            try:
                if state is None:
                    state = self._prepare(stored, site, ledger, purge, emit=emit, cancel=cancel)
                status = "cancelled" if state is None else self._rounds(stored, points, state, site, ledger,
                                                                         emit=emit, cancel=cancel)
            finally:
                site.tear_down(keep=True)
        except StoreUnavailable as exc:  # its rounds are judged from the store: stopped, its points kept, resumable
            status, reason = "stopped", f"{exc}; its points are kept: resume with ssdprof pts resume {stored.id} when it answers"
            raise StoreUnavailable(reason) from exc
        except Exception as exc:  # stored as the test's reason, then raised to the caller
            reason = str(exc)
            raise
        finally:
            self._finish(stored, status, reason, path)
        outcome = self.result(stored.id, engine.name)
        emit(PtsFinished(pts_id=stored.id, status=status, attained=outcome.steady_state.attained,
                         rounds=outcome.finished_rounds, wall_s=time.monotonic() - started, reason=reason))
        return PtsOutcome(stored.id, status, outcome)

    def result(self, pts_id: int, engine: str = "") -> PtsResult:
        stored = self.store.pts(pts_id)
        if stored is None:
            raise KeyError(f"PTS test {pts_id} does not exist")
        runs = self.store.runs(RunFilter(sweep_id=pts_id, limit=None))
        engine = engine or next((r.engine.name for r in runs), stored.spec.base.engine.value)
        return pts_result(record_of(stored, engine), runs)

    # ------------------------------------------------------------------------------- phases

    def _stored(self, pts_id: int | None) -> StoredPts:
        stored = self.store.pts(pts_id) if pts_id is not None else self.store.last_unfinished_pts()
        if stored is None:
            raise KeyError("no unfinished PTS test to resume" if pts_id is None else f"PTS test {pts_id} does not exist")
        return stored

    def _open(self, spec: PtsSpec | None, resume_id: int | None) -> StoredPts:
        if spec is not None:
            plan_target(spec.base, self.default_dir)  # every check before anything is stored or written
            resume_id = self.store.create_pts(spec)
        stored = self._stored(resume_id)
        if stored.status == "done":
            raise KeyError(f"PTS test {resume_id} is finished; start a new one")
        self.store.set_sweep_status(stored.id, "running")
        return stored

    def _test_file(self, stored: StoredPts, engine: LocalEngine, emit: Emit) -> tuple[Path | None, bool]:
        """A folder's test file for the whole test, named by the test (kept across a resume); None for a file
        or device. True when it was laid out just now (a resumed test's state was lost with the old one)."""
        plan = plan_target(stored.spec.base, self.default_dir)
        if plan.kind is not TargetKind.DIRECTORY:
            return None, False
        path = plan.path.parent / f"{TEST_FILE_PREFIX}pts{stored.id}.dat"
        if path.exists() and path.stat().st_size >= stored.spec.region_bytes:
            return path, False
        seconds = engine.layout(path, stored.spec.region_bytes, direct=stored.spec.base.direct)
        TargetLedger(self.store, f"file:{path.resolve()}", str(path), stored.spec.region_bytes).wrote(stored.spec.region_bytes)
        emit(LayoutDone(path=str(path), size_bytes=stored.spec.region_bytes, seconds=seconds))
        return path, True

    def _purge(self, spec: PtsSpec, point: Workload, engine: LocalEngine, emit: Emit) -> PurgeRecord | None:
        if not spec.purge:
            return None
        plan = plan_target(point.model_copy(update={"pattern": "write", "read_pct": 0}), self.default_dir)
        started = time.monotonic()
        if plan.kind is TargetKind.BLOCK_DEVICE and plan.device is not None:
            record = purge_device(plan.device, point)
        else:
            record = purge_file(plan.path, plan.path.stat().st_size,
                                lambda path, size: engine.layout(path, size, direct=point.direct))
        ledger = TargetLedger.of(self.store, plan, spec.region_bytes)
        self.store.record_purge(ledger.identity, ledger.description, record)
        emit(PurgeDone(method=record.method, detail=record.detail, limitation=record.limitation,
                       seconds=time.monotonic() - started))
        return record

    def _prepare(self, stored: StoredPts, site: LocalSite, ledger: TargetLedger, purge: PurgeRecord | None, *,
                 emit: Emit, cancel: threading.Event) -> DriveState | None:
        """Preconditioning when asked; the drive state the rounds start from, stored with the test."""
        spec = stored.spec
        record: PreconditionRecord | None = None
        if spec.precondition == "auto":
            record = precondition(site, spec, emit=emit, cancel=cancel)
            if record is None:
                return None
            self.store.record_precondition(ledger.identity, ledger.description, record)
        preparation = ("purge+precondition" if record else "purge") if purge else ("precondition" if record else "none")
        state = ledger.state().model_copy(update={"preparation": preparation, "purge": purge, "preconditioning": record,
                                                  "pts_id": stored.id, "steady_state": "not-reached"})
        self.store.set_pts_drive_state(stored.id, state)
        return state

    def _rounds(self, stored: StoredPts, points: list[Workload], state: DriveState, site: LocalSite, ledger: TargetLedger,
                *, emit: Emit, cancel: threading.Event) -> SweepEnd:
        spec = stored.spec
        done = set(stored.done)
        clock = Clock(sum(p.duration_s() for p in points) * spec.rule.max_rounds)
        for index in range(spec.rule.max_rounds):
            measured = False
            for number, workload in enumerate(points):
                if (number, index) in done:
                    continue
                measured = True
                count = _points_count(len(done), len(points), spec.rule.max_rounds)
                emit(PointStarted(index=number, repeat=index, number=index * len(points) + number + 1,
                                  count=count, round=_rounds_count(index, spec.rule.max_rounds),
                                  workload=workload, eta_s=clock.remaining_s))
                point = Point(workload, index * len(points) + number + 1, count, stored.id, index,
                              self._tags(stored, index, workload), ledger.state().model_copy(update={
                                  "preparation": state.preparation, "purge": state.purge,
                                  "preconditioning": state.preconditioning, "pts_id": stored.id, "pts_round": index + 1,
                                  "steady_state": "not-reached"}))
                result = None if cancel.is_set() else self.runner.measure_point(site, point, emit=emit, cancel=cancel,
                                                                                  clock=clock)
                if result is None:
                    return "cancelled"
                ledger.wrote(result.write.io_bytes)
                result = self.store.add_run(result, point_index=number)
                clock.finish(workload)
                done.add((number, index))
                finished = _points_count(len(done), len(points), spec.rule.max_rounds)
                emit(PointFinished(number=point.number, count=finished, result=result))
            if self._round_ends_test(stored, index, site.engine.name, emit if measured else None):
                return "done"
        return "done"

    def _round_ends_test(self, stored: StoredPts, index: int, engine: str, emit: Emit | None) -> bool:
        """The rule applied after round ``index`` (0-based): steady state, or write saturation's multiple written."""
        spec = stored.spec
        outcome = self.result(stored.id, engine)
        judged = outcome.steady_state
        this_round = next((r for r in outcome.rounds if r.round == index + 1), None)
        written = this_round.bytes_written if this_round else 0
        if emit is not None and this_round is not None:
            self.store.set_run_steady_state(this_round.runs, "reached" if judged.attained else "not-reached")
            emit(RoundFinished(round=index + 1, max_rounds=spec.rule.max_rounds, tracking_value=this_round.tracking_value,
                               steady_state=judged, run_ids=this_round.runs, bytes_written=written))
        if spec.test is PtsTest.WRITE_SATURATION:
            return written >= spec.saturation_multiple * spec.region_bytes
        return judged.attained

    def _tags(self, stored: StoredPts, index: int, workload: Workload) -> dict[str, str]:
        spec = stored.spec
        return {**spec.tags, "pts": str(stored.id), "pts_test": spec.test.value, "pts_profile": spec.profile.value,
                "pts_round": str(index + 1), "pts_bs": str(workload.block_size_bytes),
                "pts_mix": f"{workload.read_pct}/{100 - workload.read_pct}"}

    def _finish(self, stored: StoredPts, status: SweepEnd, reason: str, path: Path | None) -> None:
        self.store.set_sweep_status(stored.id, status)
        self.store.set_pts_reason(stored.id, reason)
        if status == "done":
            result = self.result(stored.id)
            identity = result.drive_state.target_identity if result.drive_state else ""
            if identity:
                self.store.set_ledger_steady_state(identity, "reached" if result.steady_state.attained else "not-reached")
            if path is not None and not stored.spec.base.keep_file:
                path.unlink(missing_ok=True)


def _points_count(done: int, per_round: int, max_rounds: int) -> Count:
    """A test's points: every round's, at most; steady state may end it sooner."""
    return Count.of(done, per_round * max_rounds, "at_most", "point",
                    note=f"{per_round} a round, rounds until steady state, "
                    f"{max_rounds} at the most")


def _rounds_count(done: int, max_rounds: int) -> Count:
    return Count.of(done, max_rounds, "at_most", "round", note="until steady state")
