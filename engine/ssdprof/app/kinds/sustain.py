"""The sustained-write test: the fill far past the drive's cache, then idle time and recovery writes.
Planned by ``plan_sustain`` (the same rules on every face), estimated (bytes, time, wear against the
drive's rating, the device it overwrites), run by the sustained-write runner, resumed, listed, read
back and reported; its events are ``sustain.event``."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec
from ssdprof.analysis.sustain_result import label_of, parameters_of, planned_recovery_bytes, wear_of
from ssdprof.app.contract.kind import JobStatus
from ssdprof.app.contract.sustain import FACE, SustainEstimate, SustainListResult, SustainResumeParams
from ssdprof.app.kinds import register
from ssdprof.app.kinds.kind import Context, RunnerKind, StoredPlan
from ssdprof.app.sustain import NOT_RUN, SustainOutcome, SustainRunner
from ssdprof.app.sustain_planner import SustainRequest, plan_sustain
from ssdprof.app.sustain_site import local_engine
from ssdprof.model.quantities import format_bytes, format_duration
from ssdprof.model.sustain import ASSUMED_WRITE_BYTES_PER_S
from ssdprof.model.sustain_events import SustainFinished, SustainIdle, SustainStarted, SustainStepStarted
from ssdprof.model.sustain_results import SustainInfo, SustainResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store
from ssdprof.target.plan import default_target_dir, device_region

__all__ = ["SUSTAIN", "SustainKind", "SustainPlan", "estimate_sustain", "list_sustain"]


@dataclass(frozen=True)
class SustainPlan(StoredPlan[SweepSpec]):
    """A sustained-write test to run: a new one's spec, or the stored test it continues."""

    blank_fill: bool = False
    """The amount to write was left blank (the region, once)."""


class SustainKind(RunnerKind[SustainPlan, SustainOutcome, SustainResult]):
    noun = "sustained-write test"
    face = FACE

    def plan(self, request: SustainRequest, ctx: Context, *, to_run: bool) -> SustainPlan:
        spec = plan_sustain(request, check_target=True, default_dir=ctx.default_dir)
        if to_run and spec.remote is None:
            local_engine(spec, ctx.fio_executable)  # refused before the estimate and before anything is stored
        return SustainPlan(spec, blank_fill=request.write_bytes in (None, ""))

    def estimate(self, plan: SustainPlan, ctx: Context) -> SustainEstimate:
        assert plan.new is not None
        return estimate_sustain(plan.new, ctx.default_dir, blank_fill=plan.blank_fill)

    def resume(self, params: SustainResumeParams, ctx: Context) -> SustainPlan:
        return SustainPlan(None, params.sustain_id)  # the runner finds the last unfinished one without an id

    def runner(self, ctx: Context) -> SustainRunner:
        return SustainRunner(ctx.store, default_dir=ctx.default_dir, fio_executable=ctx.fio_executable, ssh=ctx.ssh)

    def listed(self, ctx: Context, running_id: int | None) -> SustainListResult:
        return SustainListResult(tests=list_sustain(ctx.store))

    def pdf(self, result: SustainResult, title: str | None) -> tuple[bytes, int]:
        from ssdprof.report.sustain import build_sustain_pdf  # matplotlib loads for a report only

        runs = (result.fill_run_id is not None) + sum(r.run_id is not None for r in result.recovery)
        return build_sustain_pdf(result, title=title), runs

    # --------------------------------------------------------------------------- its job

    def began(self, event: Any, plan: SustainPlan) -> JobStatus | None:
        return FACE.status(running=True, sustain_id=event.sustain_id) if isinstance(event, SustainStarted) else None

    def progressed(self, status: JobStatus, event: Any) -> JobStatus:
        if isinstance(event, SustainStepStarted):
            return status.model_copy(update={"step": event.step, "recovery_step": event.recovery_step})
        if isinstance(event, SustainIdle):
            return status.model_copy(update={"step": "idle", "recovery_step": event.recovery_step})
        return status

    def failed(self, job_id: int | None, reason: str) -> SustainFinished:
        return SustainFinished(sustain_id=job_id, status="failed", wall_s=0.0, reason=reason)


FAST_WRITE_BYTES_PER_S = 2e9
"""A fast drive's sequential writes (a PCIe 3/4 NVMe drive's cache): the speed a fill must last 10 s at."""


def _fill_words(write_bytes: int, total_bytes: int, *, blank: bool) -> str:
    """What the amount to write means, said beside Start (one unit in the sentence: binary)."""
    written = f"{format_bytes(total_bytes)} written in all with the recovery writes"
    if blank:
        return f"A blank amount to write fills the region once: {format_bytes(write_bytes)} here, {written}."
    return f"The fill writes {format_bytes(write_bytes)}, {written}."


def _too_short(write_bytes: int) -> str:
    """Said when a fast drive would finish the fill in under the 10 s its cliff is judged from."""
    from ssdprof.analysis.sustain import MIN_SAMPLES  # numpy: loaded when a test is estimated, not with the app

    seconds = write_bytes / FAST_WRITE_BYTES_PER_S
    if seconds >= MIN_SAMPLES:
        return ""
    need = int(MIN_SAMPLES * FAST_WRITE_BYTES_PER_S * 1.5) // (1 << 30) * (1 << 30)
    return (f"The fill may be too short to judge: a cliff is found from at least {MIN_SAMPLES} s of writes, and a fast "
            f"drive ({FAST_WRITE_BYTES_PER_S / 1e6:,.0f} MB/s) writes {format_bytes(write_bytes)} in {seconds:.1g} s. "
            f"Write {format_bytes(need)} or more to judge one.")


def estimate_sustain(spec: SweepSpec, default_dir: Path | None = None, *, blank_fill: bool = False) -> SustainEstimate:
    plan = spec.sustain
    assert plan is not None
    fill = spec.points[0]
    region = device_region([fill]) if spec.remote is None else None
    auto = plan.recovery_bytes is None
    each = planned_recovery_bytes(plan, NOT_RUN, plan.write_bytes)
    total = plan.write_bytes + each * len(plan.idle_s)
    idle = sum(plan.idle_s)
    seconds = total / ASSUMED_WRITE_BYTES_PER_S + idle
    free = None
    if spec.remote is None and region is None:
        folder = Path(fill.target).expanduser() if fill.target else (default_dir or default_target_dir())
        free = shutil.disk_usage(folder if folder.is_dir() else folder.parent).free
    notes = [f"about {format_duration(seconds)} at {ASSUMED_WRITE_BYTES_PER_S / 1e6:.0f} MB/s (a slow drive after its "
             f"cache) plus {format_duration(idle)} idle; a fast drive takes less, and the time left is shown live"]
    if auto:
        notes.append("each recovery write is 1.5x the cache the fill finds (10 % of the fill without one): "
                     f"{format_bytes(each)} is assumed here")
    if plan.write_bytes > plan.region_bytes:
        notes.append(f"the fill writes {plan.write_bytes / plan.region_bytes:.1f}x the region, wrapping around it")
    return SustainEstimate(
        name=spec.name, label=label_of(spec), parameters=parameters_of(spec, fill.engine.value),
        write_bytes=plan.write_bytes, recovery_bytes_each=each, recovery_bytes_auto=auto, total_bytes=total,
        idle_total_s=idle, estimated_s=seconds, assumed_bw_bytes_per_s=ASSUMED_WRITE_BYTES_PER_S, free_bytes=free,
        wear=wear_of(total, _spec_sheet(region.device.model if region else "")),
        **SustainEstimate.of(region, writes=True), notes=notes,
        fill_words=_fill_words(plan.write_bytes, total, blank=blank_fill), too_short=_too_short(plan.write_bytes))


def _spec_sheet(model: str) -> Spec | None:
    if not model:
        return None
    return SpecLibrary.load((bundled_spec_dir(), default_user_spec_dir())).match(model)


def list_sustain(store: Store) -> list[SustainInfo]:
    """Stored sustained-write tests, newest first, with their verdicts."""
    runner = SustainRunner(store)
    found = []
    for row in store.list_sweeps():
        stored = store.sweep(row.id)
        if stored is None or stored.kind != "sustain" or stored.spec.sustain is None:
            continue
        result = runner.result(row.id)
        found.append(SustainInfo(id=row.id, created_at=row.created_at, name=row.name, status=row.status,
                                 target=result.parameters.target, write_bytes=result.parameters.write_bytes,
                                 verdict=result.verdict.kind, cache_bytes=result.verdict.cache_bytes,
                                 recovery_done=sum(1 for r in result.recovery if r.status == "done"),
                                 recovery_total=len(result.recovery)))
    return found


SUSTAIN = register(SustainKind())
