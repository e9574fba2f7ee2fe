"""Profiling points for the scale-up model (:mod:`scale_up`) from measured runs.

A profiling run loads every array of the chassis (and of the enclosures chained to it) at once, and
carries tags saying what it measured: ``arrays=N`` (required), ``enclosures=K`` (enclosures chained
after the chassis; 0 when absent) and ``controller=NAME`` (the SAS controller, if named: a profile
comes from one). Its CPU is what ssdprof records of every run: the machine's busy % over the run
times its CPU count. ``ssdprof runs tag 12 arrays=6 enclosures=0 controller=9300-8e``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ssdprof.analysis.metrics import metric_name, metric_value
from ssdprof.analysis.scale_up_inputs import MAX_UNITS, ScaleUpDesign, ScaleUpInputs, ScaleUpPoint
from ssdprof.analysis.scale_up_space import ScaleUpResult, design_space
from ssdprof.model.problems import WorkloadError, problem
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult

__all__ = ["SCALE_UP_METRICS", "RunsProfile", "profile_points", "size_array"]

SCALE_UP_METRICS = ("iops", "read_iops", "write_iops")
_MOST = {"arrays": 1000, "enclosures": MAX_UNITS - 1}


@dataclass(frozen=True)
class RunsProfile:
    points: list[ScaleUpPoint]
    label: str
    """'write IOPS of random write 4KiB'"""
    skipped: list[int]
    """Runs left out: no arrays= tag, or not finished."""


def _count(run: RunResult, key: str, default: int | None) -> int | None:
    text = run.tags.get(key, "").strip()
    if not text:
        return default
    low = 1 if key == "arrays" else 0
    if not text.isdigit() or not low <= int(text) <= _MOST[key]:
        raise ValueError(
            f"run {run.id}'s tag {key}={text!r} is not a count from {low} to {_MOST[key]}; "
            f"e.g. ssdprof runs tag {run.id} {key}=6"
        )
    return int(text)


def _cpu_cores(run: RunResult) -> float | None:
    if run.cpu_busy_pct is None or run.environment.cpu_count <= 0:
        return None
    return run.cpu_busy_pct / 100 * run.environment.cpu_count


def _workload(run: RunResult) -> str:
    w = run.workload
    mix = "" if w.pattern.fixed_read_pct is not None else f" {w.read_pct}%R"
    return f"{w.pattern.label}{mix} {format_size(w.block_size_bytes)}"


def profile_points(runs: Sequence[RunResult], metric: str = "iops") -> RunsProfile:
    """One point per tagged, finished run; raises ValueError naming what to fix."""
    if metric not in SCALE_UP_METRICS:
        raise ValueError(
            f"the scale-up model predicts IOPS: {', '.join(SCALE_UP_METRICS)}, not {metric}"
        )
    tagged = [r for r in runs if r.status in ("ok", "partial") and "arrays" in r.tags]
    used = {id(r) for r in tagged}
    skipped = sorted(r.id for r in runs if id(r) not in used and r.id is not None)
    if not tagged:
        raise ValueError(
            "no finished run carries an arrays= tag: tag each profiling run with the arrays it "
            "loaded "
            "and the enclosures chained to the chassis, e.g. ssdprof runs tag 12 arrays=6 "
            "enclosures=0"
        )
    controllers = sorted({r.tags["controller"] for r in tagged if r.tags.get("controller")})
    if len(controllers) > 1:
        raise ValueError(
            f"the runs were measured on {len(controllers)} controllers ({', '.join(controllers)}): "
            f"a profile comes from one; select with --tag controller={controllers[0]}"
        )
    workloads = sorted({_workload(r) for r in tagged})
    if len(workloads) > 1:
        raise ValueError(
            f"the runs measure {len(workloads)} workloads ({'; '.join(workloads)}): a profile is "
            "of one; "
            "select its runs (e.g. --tag or --sweep)"
        )
    points = []
    for run in tagged:
        value = metric_value(run, metric)
        if value is None or value <= 0:
            raise ValueError(
                f"run {run.id} has no {metric_name(metric).label}; choose the metric its workload "
                "measured"
            )
        points.append(
            ScaleUpPoint(
                arrays=_count(run, "arrays", None) or 1,
                enclosures=_count(run, "enclosures", 0) or 0,
                iops=value,
                cpu_cores=_cpu_cores(run),
                run_ids=[run.id] if run.id is not None else [],
            )
        )
    where = f" on controller {controllers[0]}" if controllers else ""
    return RunsProfile(points, f"{metric_name(metric).label} of {workloads[0]}{where}", skipped)


def size_array(
    design: ScaleUpDesign,
    runs: Sequence[RunResult],
    typed: Sequence[ScaleUpPoint] = (),
    metric: str = "iops",
) -> ScaleUpResult:
    """The design space from the runs' profiling points and any typed in: what every face calls.

    Raises WorkloadError naming the field: ``run_ids`` for runs that make no profile, ``points``
    when
    there is nothing to profile from, and each field :func:`check_inputs` refuses.
    """
    points, label = list(typed), f"{metric_name(metric).label}, typed in"
    if runs:
        try:
            found = profile_points(runs, metric)
        except ValueError as exc:
            raise WorkloadError.single("run_ids", "RUN_ID", str(exc)) from None
        points, label = [*found.points, *typed], found.label + (" and typed in" if typed else "")
    if not points:
        raise WorkloadError(
            [
                problem(
                    "points",
                    "no profiling points: pick runs tagged arrays=N (and enclosures=K), "
                    "or type the points in",
                )
            ]
        )
    inputs = ScaleUpInputs(
        **design.model_dump(include=set(ScaleUpDesign.model_fields)), points=points, label=label
    )
    return design_space(inputs)
