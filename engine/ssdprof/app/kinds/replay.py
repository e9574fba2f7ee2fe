"""The trace replay: a recorded block trace played on a folder, file or device, as recorded or as fast as
possible. Planned by ``plan_replay_request`` (the same rules on every face), estimated (the trace and the part
replayed, the lanes, the target and what it overwrites, how long), run by the replay runner, resumed (the repeats
not yet done), listed, read back beside its trace and reported; its events are ``replay.event``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ssdprof.analysis.replay import replay_label
from ssdprof.app.contract.kind import JobStatus
from ssdprof.app.contract.replay import FACE, ReplayEstimate, ReplayListResult, ReplayResumeParams
from ssdprof.app.kinds import register
from ssdprof.app.kinds.kind import Context, RunnerKind, StoredPlan
from ssdprof.app.replay import ReplayOutcome, ReplayRunner
from ssdprof.app.replay_planner import ReplayJob, ReplayRequest, plan_replay_request
from ssdprof.app.replay_site import replay_engine
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import HostsMode
from ssdprof.model.replay_events import ReplayFinished, ReplayStarted
from ssdprof.model.replay_results import ReplayResult
from ssdprof.target.plan import device_region

__all__ = ["REPLAY", "ReplayKind", "ReplayPlan"]


ReplayPlan = StoredPlan[ReplayJob]
"""A replay to run: a new one's job, or the stored replay whose remaining repeats run."""


class ReplayKind(RunnerKind[ReplayPlan, ReplayOutcome, ReplayResult]):
    noun = "trace replay"
    face = FACE

    def plan(self, request: ReplayRequest, ctx: Context, *, to_run: bool) -> ReplayPlan:
        job = plan_replay_request(request, check_target=True, default_dir=ctx.default_dir)
        if to_run and job.spec.remote is None:  # hosts' fio is checked as they are probed
            replay_engine(job.spec.points[0], job.plan, ctx.fio_executable)  # refused before anything is stored
        return ReplayPlan(job)

    def estimate(self, plan: ReplayPlan, ctx: Context) -> ReplayEstimate:
        assert plan.new is not None
        return estimate_replay(plan.new, ctx)

    def resume(self, params: ReplayResumeParams, ctx: Context) -> ReplayPlan:
        return ReplayPlan(None, params.replay_id)

    def runner(self, ctx: Context) -> ReplayRunner:
        return ReplayRunner(ctx.store, default_dir=ctx.default_dir, fio_executable=ctx.fio_executable, ssh=ctx.ssh)

    def listed(self, ctx: Context, running_id: int | None) -> ReplayListResult:
        return ReplayListResult(replays=ReplayRunner(ctx.store).listed())

    def pdf(self, result: ReplayResult, title: str | None) -> tuple[bytes, int]:
        from ssdprof.report.replay import build_replay_pdf  # matplotlib loads for a report only

        return build_replay_pdf(result, title=title), len(result.run_ids)

    # --------------------------------------------------------------------------- its job

    def began(self, event: Any, plan: ReplayPlan) -> JobStatus | None:
        return FACE.status(running=True, replay_id=event.replay_id) if isinstance(event, ReplayStarted) else None

    def failed(self, job_id: int | None, reason: str) -> ReplayFinished:
        return ReplayFinished(replay_id=job_id, status="failed", wall_s=0.0, reason=reason)


def estimate_replay(job: ReplayJob, ctx: Context) -> ReplayEstimate:
    spec, replay, point = job.spec, job.spec.replay, job.spec.points[0]
    assert replay is not None
    region = device_region([point])
    folder = Path(point.target or str(ctx.default_dir or "")).expanduser()
    if spec.remote is not None:
        name, reason = "fio", (f"fio read_iolog on {len(spec.remote.hosts)} SSH host(s) from one common start: "
                               f"{replay.hosts_mode.label}")
    else:
        try:
            engine = replay_engine(point, job.plan, ctx.fio_executable)
            name, reason = engine.name, engine.reason
        except WorkloadError as exc:
            name, reason = "none", "; ".join(p.message for p in exc.problems)
    return ReplayEstimate(
        name=spec.name, label=replay_label(replay, point.target), trace=job.whole, replayed=replay.recorded,
        timing=replay.timing, lanes=replay.lanes, mapping=replay.mapping, target_bytes=replay.target_bytes,
        expected_s=job.plan.expected_s, repeats=spec.repeats,
        layout_bytes=point.size_bytes if region is None and (not point.target or folder.is_dir()) else 0,
        engine=name, engine_reason=reason, **ReplayEstimate.of(region), notes=list(replay.notes),
        hosts=[part.host for part in replay.parts], hosts_mode=replay.hosts_mode if replay.parts else None,
        hosts_sentence=hosts_sentence(job))


def hosts_sentence(job: ReplayJob) -> str:
    """What each SSH host plays, in the engine's words ('' on this machine)."""
    replay = job.spec.replay
    if replay is None or not replay.parts:
        return ""
    names = ", ".join(part.host for part in replay.parts)
    if len(replay.parts) == 1:
        return (f"The trace on {names}: {len(job.plan.records):,} I/Os, each at its recorded time from the host's "
                f"start, at most {replay.lanes} in flight.")
    if replay.hosts_mode is HostsMode.WHOLE:
        return (f"The whole trace on each of {names}: {len(replay.parts)} × {len(job.plan.records):,} I/Os, all hosts "
                f"started at once, each I/O at its recorded time from that start, at most {replay.lanes} in flight "
                "on each host.")
    shares = ", ".join(f"{name} {len(plan.records):,}" for name, plan in job.host_plans.items())
    return (f"Split across {names}: each of the {len(job.plan.records):,} I/Os on exactly one host, dealt in turn "
            f"({shares}), all hosts started at once, each I/O at its recorded time from that start, at most "
            f"{replay.lanes} in flight on each host.")


REPLAY = register(ReplayKind())
