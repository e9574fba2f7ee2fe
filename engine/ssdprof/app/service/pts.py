"""PTS tests in the app: planned (``plan_pts``, as on the command line), estimated, started in their own
thread with their own store connection, resumed, cancelled, listed, fetched and reported; their events
go out as ``run.event`` like a sweep's."""

from __future__ import annotations

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.pts import (
    PtsCancelResult,
    PtsEstimate,
    PtsIdParams,
    PtsListResult,
    PtsReportParams,
    PtsResumeParams,
    PtsStatus,
)
from ssdprof.app.contract.runs import PlannedPoint, target_device
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.app.service.registry import RpcError, handles
from ssdprof.model.events import PtsStarted
from ssdprof.model.pts import PtsProfile, PtsSpec, estimate_range_s, precondition_bytes
from ssdprof.model.pts_results import PtsParameters, PtsResult
from ssdprof.model.quantities import format_duration
from ssdprof.store.db import Store
from ssdprof.target.plan import TargetKind, device_region, plan_target
from ssdprof.target.purge import FILE_LIMITATION, purge_refusal

__all__ = ["PtsTests", "parameters_of"]


def parameters_of(spec: PtsSpec, engine: str) -> PtsParameters:
    base = spec.base
    return PtsParameters(target=base.target, region_bytes=base.size_bytes, offset_bytes=base.offset_bytes, engine=engine,
                         round_time_s=base.runtime_s, queue_depth=base.queue_depth, numjobs=base.numjobs,
                         block_sizes_bytes=spec.block_sizes_bytes, mixes_read_pct=spec.mixes_read_pct,
                         sequential=spec.sequential, window=spec.rule.window, data_limit_pct=spec.rule.data_limit_pct,
                         slope_limit_pct=spec.rule.slope_limit_pct, min_rounds=spec.rule.min_rounds,
                         max_rounds=spec.rule.max_rounds, precondition=spec.precondition,
                         precondition_passes=spec.precondition_passes, purge=spec.purge,
                         saturation_multiple=spec.saturation_multiple if spec.test.value == "write-saturation" else None)


def estimate_pts(spec: PtsSpec, default_dir: object = None) -> PtsEstimate:
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
        compliance_note=spec.compliance_note(), parameters=parameters_of(spec, spec.base.engine.value),
        points=[PlannedPoint(label=p.label, workload=p) for p in points], points_per_round=len(points),
        round_s=spec.round_s(), min_rounds=spec.rule.min_rounds, max_rounds=spec.rule.max_rounds,
        tracking=tracking.label(spec.sequential), precondition_bytes=precondition_bytes(spec),
        precondition_s=estimate_range_s(spec.model_copy(update={"rule": spec.rule}), 0)[0] - spec.rule.min_rounds * spec.round_s()
        if spec.test.value != "write-saturation" else 0.0,
        estimated_min_s=shortest, estimated_s=longest, duration_note=note, purge=purge, purge_refusal=refusal,
        device=target_device(region.device) if region else None,
        overwrite_bytes=region.size_bytes if region else 0, region=region.sentence() if region else "",
        notes=[n for n in (spec.compliance_note() if not spec.pts_compliant else "", refusal) if n])


class PtsTests:
    """The ``pts.*`` methods; one test at a time, never beside a running sweep."""

    def __init__(self, store: Store, default_dir: object = None):
        self.store = store
        self.default_dir = default_dir

    @handles("pts.estimate")
    def estimate(self, params: PtsRequest) -> PtsEstimate:
        return estimate_pts(plan_pts(params), self.default_dir)

    @handles("pts.start")
    def start(self, params: PtsRequest) -> PtsStarted:
        spec = plan_pts(params)
        plan = plan_target(spec.base)
        assert plan.kind in TargetKind
        raise RpcError("internal_error", "PTS tests are not wired to the runner yet")

    @handles("pts.resume")
    def resume(self, params: PtsResumeParams) -> PtsStarted:
        raise KeyError("no unfinished PTS test to resume")

    @handles("pts.cancel")
    def cancel(self, _: Params) -> PtsCancelResult:
        return PtsCancelResult(cancelled=False)

    @handles("pts.status")
    def status(self, _: Params) -> PtsStatus:
        return PtsStatus(running=False)

    @handles("pts.list")
    def list(self, _: Params) -> PtsListResult:
        return PtsListResult(tests=[])

    @handles("pts.get")
    def get(self, params: PtsIdParams) -> PtsResult:
        raise KeyError(f"PTS test {params.pts_id} does not exist")

    @handles("pts.report")
    def report(self, params: PtsReportParams) -> ReportResult:
        raise KeyError(f"PTS test {params.pts_id} does not exist")
