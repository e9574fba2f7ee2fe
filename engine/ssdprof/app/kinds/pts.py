"""The SNIA PTS tests (IOPS, throughput, latency, write saturation): planned by ``plan_pts`` (the same
rules on every face), estimated (PTS defaults run for hours), run in rounds by the PTS runner with its
purge and preconditioning, resumed, listed, read back and reported; its events are ``pts.event``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ssdprof.app.contract.kind import JobStatus
from ssdprof.app.contract.pts import FACE, PtsEstimate, PtsListResult, PtsResumeParams
from ssdprof.app.contract.runs import PlannedPoint
from ssdprof.app.kinds import register
from ssdprof.app.kinds.kind import Context, RunnerKind, StoredPlan
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.app.pts_runner import PtsOutcome, PtsRunner, pts_parameters
from ssdprof.model.events import PointStarted, PtsFinished, PtsStarted
from ssdprof.model.pts import PtsProfile, PtsSpec, estimate_range_s, precondition_bytes
from ssdprof.model.pts_results import PtsInfo, PtsResult
from ssdprof.model.quantities import format_duration
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store
from ssdprof.target.plan import device_region, plan_target
from ssdprof.target.purge import FILE_LIMITATION, purge_refusal

__all__ = ["PTS", "PtsKind", "PtsPlan", "estimate_pts", "list_tests"]


PtsPlan = StoredPlan[PtsSpec]
"""A PTS test to run: a new one's spec, or the stored test it continues."""


class PtsKind(RunnerKind[PtsPlan, PtsOutcome, PtsResult]):
    noun = "PTS test"
    face = FACE

    def plan(self, request: PtsRequest, ctx: Context, *, to_run: bool) -> PtsPlan:
        spec = plan_pts(request, check_target=True, default_dir=ctx.default_dir)
        if to_run:
            if spec.purge and (refusal := estimate_pts(spec, ctx.default_dir).purge_refusal):
                raise WorkloadError.single("purge", "--purge", f"cannot purge: {refusal}")
            plan_target(spec.base, ctx.default_dir)  # fail fast, before a test is stored
        return PtsPlan(spec)

    def estimate(self, plan: PtsPlan, ctx: Context) -> PtsEstimate:
        assert plan.new is not None
        return estimate_pts(plan.new, ctx.default_dir)

    def resume(self, params: PtsResumeParams, ctx: Context) -> PtsPlan:
        store = ctx.store
        stored = store.pts(params.pts_id) if params.pts_id is not None else store.last_unfinished_pts()
        if stored is None:
            raise KeyError("no unfinished PTS test to resume" if params.pts_id is None
                           else f"PTS test {params.pts_id} does not exist")
        return PtsPlan(None, stored.id)

    def runner(self, ctx: Context) -> PtsRunner:
        return PtsRunner(ctx.store, default_dir=ctx.default_dir, fio_executable=ctx.fio_executable)

    def listed(self, ctx: Context, running_id: int | None) -> PtsListResult:
        return PtsListResult(tests=list_tests(ctx.store))

    def pdf(self, result: PtsResult, title: str | None) -> tuple[bytes, int]:
        from ssdprof.report.pts import build_pts_pdf  # matplotlib loads for a report only

        return build_pts_pdf(result, title=title), sum(len(r.runs) for r in result.rounds)

    # --------------------------------------------------------------------------- its job

    def began(self, event: Any, plan: PtsPlan) -> JobStatus | None:
        if not isinstance(event, PtsStarted):
            return None
        phase = "purge" if plan.new is not None and plan.new.purge else "precondition"
        return FACE.status(running=True, pts_id=event.pts_id, test=event.test, phase=phase, max_rounds=event.max_rounds)

    def progressed(self, status: JobStatus, event: Any) -> JobStatus:
        if isinstance(event, PointStarted):
            return status.model_copy(update={"phase": "rounds", "round": event.repeat + 1})
        return status

    def failed(self, job_id: int | None, reason: str) -> PtsFinished:
        return PtsFinished(pts_id=job_id, status="failed", attained=False, rounds=0, wall_s=0.0, reason=reason)


def estimate_pts(spec: PtsSpec, default_dir: Path | None = None) -> PtsEstimate:
    """What the test will do and how long it may take; checks the target's purge safety, runs nothing."""
    region = device_region([spec.base])
    layout = 0 if region else spec.base.size_bytes
    shortest, longest = estimate_range_s(spec, layout)
    points = spec.points()
    purge, refusal = "", ""
    if spec.purge:
        if region is not None:
            purge = f"blkdiscard of {spec.base.size_bytes} bytes from offset {spec.base.offset_bytes} of {region.device.path}"
        else:
            purge = f"the test file is replaced by a new one; {FILE_LIMITATION}"
        refusal = purge_refusal(spec.base, region.device if region else None,
                                is_file=bool(spec.base.target) and region is None)
    hours = "PTS defaults run for hours: " if spec.profile is PtsProfile.PTS and longest >= 3600 else ""
    note = (f"{hours}{format_duration(shortest)} to {format_duration(longest)} ({spec.rule.min_rounds}-{spec.rule.max_rounds} "
            f"rounds of {len(points)} point(s) x {spec.base.runtime_s:g} s)")
    tracking = spec.trackings()[0]
    return PtsEstimate(
        test=spec.test.value, name=spec.name, profile=spec.profile.value, pts_compliant=spec.pts_compliant,
        compliance_note=spec.compliance_note(), parameters=pts_parameters(spec, spec.base.engine.value),
        points=[PlannedPoint(label=p.label, workload=p) for p in points], points_per_round=len(points),
        round_s=spec.round_s(), min_rounds=spec.rule.min_rounds, max_rounds=spec.rule.max_rounds,
        tracking=tracking.label(spec.sequential), precondition_bytes=precondition_bytes(spec),
        precondition_s=estimate_range_s(spec.model_copy(update={"rule": spec.rule}), 0)[0] - spec.rule.min_rounds * spec.round_s()
        if spec.test.value != "write-saturation" else 0.0,
        estimated_min_s=shortest, estimated_s=longest, duration_note=note, purge=purge, purge_refusal=refusal,
        **PtsEstimate.of(region, writes=True),
        notes=[n for n in (spec.compliance_note() if not spec.pts_compliant else "", refusal) if n])


def list_tests(store: Store) -> list[PtsInfo]:
    """Stored PTS tests, newest first, with whether each reached steady state."""
    runner = PtsRunner(store)
    tests = []
    for row in store.list_pts():
        spec = row["spec"]
        try:
            result = runner.result(row["id"])
            attained, rounds = result.steady_state.attained, result.finished_rounds
        except KeyError:
            attained, rounds = False, 0
        tests.append(PtsInfo(id=row["id"], created_at=row["created_at"], name=row["name"], test=row["test"],
                             profile=row["profile"], pts_compliant=spec.pts_compliant, status=row["status"],
                             rounds=rounds, attained=attained, target=spec.base.target))
    return tests


PTS = register(PtsKind())
