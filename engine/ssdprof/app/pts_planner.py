"""One planner for PTS tests: a :class:`PtsRequest` — from ``ssdprof pts``, the RPC or the GUI's designer —
becomes a :class:`PtsSpec` by one set of rules, each bad value reported with its field and flag."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ssdprof.app.planner import EngineName, Loose, Tags
from ssdprof.model.problems import (
    Choice,
    FieldProblem,
    FieldRule,
    WorkloadError,
    from_validation,
    problem,
    register,
    shown,
)
from ssdprof.model.pts import PTS_DEFAULTS, PtsProfile, PtsSpec, PtsTest, SteadyStateRule
from ssdprof.model.quantities import parse_duration_s, parse_size_bytes
from ssdprof.model.workload import Workload, check_workload
from ssdprof.target.plan import plan_target, with_whole_device

__all__ = ["PTS_FLAGS", "PtsRequest", "plan_pts"]

PTS_FLAGS: dict[str, str] = {
    "test": "TEST", "target": "--target", "size_bytes": "--size", "offset_bytes": "--offset", "engine": "--engine",
    "profile": "--profile", "round_time_s": "--round-time", "window": "--window", "data_limit_pct": "--data-limit",
    "slope_limit_pct": "--slope-limit", "min_rounds": "--min-rounds", "max_rounds": "--max-rounds",
    "precondition": "--precondition", "precondition_passes": "--passes", "purge": "--purge",
    "allow_overwrite": "--allow-overwrite", "block_sizes": "--bs", "mixes": "--mixes", "queue_depth": "--qd",
    "numjobs": "--jobs", "saturation_multiple": "--multiple", "direct": "--buffered", "name": "--name", "tags": "--tag",
}
"""Request field -> the CLI flag that sets it, for messages."""

_ROUND_TIME = {PtsProfile.PTS: 60.0, PtsProfile.LAPTOP: 2.0}
MAX_ROUND_TIME_S = 3600.0
MAX_MULTIPLE = 100.0
MAX_PASSES = 10.0

register({
    "test": FieldRule("TEST", "iops, throughput, latency or write-saturation", "test", "iops", (
        Choice(value=PtsTest.IOPS.value, label="IOPS (access size × read/write mix)"),
        Choice(value=PtsTest.THROUGHPUT.value, label="Throughput (sequential 128 KiB and 1 MiB)"),
        Choice(value=PtsTest.LATENCY.value, label="Latency (QD1, 0.5/4/8 KiB)"),
        Choice(value=PtsTest.WRITE_SATURATION.value, label="Write saturation (4 KiB random writes)"))),
    "profile": FieldRule("--profile", "pts or laptop", "profile", "laptop", (
        Choice(value=PtsProfile.LAPTOP.value,
               label="laptop (short rounds, small region; not PTS-compliant)"),
        Choice(value=PtsProfile.PTS.value, label="PTS (60 s per point, up to 25 rounds: hours)"))),
    "round_time_s": FieldRule("--round-time", f"above 0 s and at most {MAX_ROUND_TIME_S:g} s", "time per point", "60s"),
    "window": FieldRule("--window", "2–100 rounds", "steady-state window", "5"),
    "data_limit_pct": FieldRule("--data-limit", "above 0 and at most 100 %", "data excursion limit", "20"),
    "slope_limit_pct": FieldRule("--slope-limit", "above 0 and at most 100 %", "slope excursion limit", "10"),
    "min_rounds": FieldRule("--min-rounds", "1–10000, at least the window", "fewest rounds", "5"),
    "max_rounds": FieldRule("--max-rounds", "1–10000, at least the fewest rounds", "most rounds", "25"),
    "precondition": FieldRule("--precondition", "auto or none", "preconditioning", "auto", (
        Choice(value="auto", label="sequential 128 KiB writes over 2× the region first"),
        Choice(value="none", label="none (measure as found)"))),
    "precondition_passes": FieldRule("--passes", f"above 0 and at most {MAX_PASSES:g}", "preconditioning passes", "2"),
    "purge": FieldRule("--purge", "true or false", "purge", "false"),
    "block_sizes": FieldRule("--bs", "access sizes from 512B to 64MiB in multiples of 512 bytes, with 4k",
                             "access sizes", "4k,128k"),
    "mixes": FieldRule("--mixes", "read percentages from 0 to 100, with 0", "read % of each mix", "100,65,0"),
    "saturation_multiple": FieldRule("--multiple", f"above 0 and at most {MAX_MULTIPLE:g}", "saturation multiple", "4"),
})


class PtsRequest(BaseModel):
    """A PTS test as typed in a form or on the command line; omitted fields take the profile's defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    test: PtsTest
    target: str | None = None
    size_bytes: Loose | None = Field(default=None, description="the test region (default: the whole device, or 256 MiB)")
    offset_bytes: Loose | None = None
    engine: EngineName | None = Field(default=None, description="auto, fio or portable")
    profile: PtsProfile = Field(default=PtsProfile.PTS, description="laptop: short rounds, fewer points; NOT PTS-compliant")
    round_time_s: Loose | None = Field(default=None, description="measured time of every point of a round (PTS 60 s, laptop 2 s)")
    window: int | None = Field(default=None, description="rounds judged for steady state (PTS 5)")
    data_limit_pct: float | None = Field(default=None, description="max - min allowed, % of the window's mean (PTS 20)")
    slope_limit_pct: float | None = Field(default=None, description="fitted line's change allowed, % of the mean (PTS 10)")
    min_rounds: int | None = None
    max_rounds: int | None = Field(default=None, description="PTS 25; write saturation: a cap beside the multiple")
    precondition: Literal["auto", "none"] = "auto"
    precondition_passes: float | None = Field(default=None, description="sequential 128 KiB passes over the region (PTS 2)")
    purge: bool = False
    allow_overwrite: bool = False
    block_sizes: list[Loose] | None = Field(default=None, description="access sizes instead of the profile's")
    mixes: list[int | str] | None = Field(default=None, description="read % of each mix instead of the profile's")
    queue_depth: Loose | None = Field(default=None, description="per job (default 32; latency: 1)")
    numjobs: Loose | None = Field(default=None, description="default 1; latency: 1")
    saturation_multiple: float | None = Field(default=None, description="write saturation: stop after this multiple of the region")
    direct: bool | None = None
    name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=dict)


def plan_pts(request: PtsRequest, *, check_target: bool = False, default_dir: Path | None = None) -> PtsSpec:
    """The test's spec; raises WorkloadError naming every bad field. ``check_target``: also whether the
    target exists and has room (consent to overwrite it is the start's to ask)."""
    problems: list[FieldProblem] = []
    profile, test = request.profile, request.test
    round_time = _checked(problems, "round_time_s", request.round_time_s, default=_ROUND_TIME[profile],
                          convert=parse_duration_s, ok=lambda v: 0 < v <= MAX_ROUND_TIME_S)
    sizes, mixes = PTS_DEFAULTS[test][profile]
    sizes = _sizes(problems, request.block_sizes, sizes)
    mixes = _mixes(problems, request.mixes, mixes, test)
    if test is not PtsTest.THROUGHPUT and sizes and 4096 not in sizes:
        problems.append(_problem("block_sizes", "the tracking variable is measured at 4 KiB: keep 4k in the list"))
    rule = _rule(problems, request, test)
    passes = _checked(problems, "precondition_passes", request.precondition_passes, default=2.0, convert=float,
                      ok=lambda v: 0 < v <= MAX_PASSES)
    multiple = _checked(problems, "saturation_multiple", request.saturation_multiple,
                        default=4.0 if profile is PtsProfile.PTS else 2.0, convert=float, ok=lambda v: 0 < v <= MAX_MULTIPLE)
    if test is PtsTest.LATENCY and any(str(v) not in ("1", "None") for v in (request.queue_depth, request.numjobs)):
        problems.append(_problem("queue_depth", "the latency test runs at QD1 T1, as the PTS defines it: "
                                                "leave --qd and --jobs out"))
    base = _base(problems, request, test, round_time, check_target=check_target, default_dir=default_dir)
    if problems or base is None:
        raise WorkloadError(problems)
    return PtsSpec(name=request.name or f"pts {test.value}" + (" (laptop)" if profile is PtsProfile.LAPTOP else ""),
                   test=test, profile=profile, base=base, rule=rule, block_sizes_bytes=sizes, mixes_read_pct=mixes,
                   precondition=request.precondition, precondition_passes=passes, purge=request.purge,
                   saturation_multiple=multiple, tags=dict(request.tags))


def _base(problems: list[FieldProblem], request: PtsRequest, test: PtsTest, round_time: float, *, check_target: bool,
          default_dir: Path | None) -> Workload | None:
    raw: dict[str, Any] = {"runtime_s": round_time, "ramp_s": 0, "pattern": "randwrite"}
    for field in ("target", "size_bytes", "offset_bytes", "engine", "direct"):
        value = getattr(request, field)
        if value is not None:
            raw[field] = value
    raw["queue_depth"] = 1 if test is PtsTest.LATENCY else request.queue_depth or 32
    raw["numjobs"] = 1 if test is PtsTest.LATENCY else request.numjobs or 1
    raw["allow_overwrite"] = request.allow_overwrite
    checked = check_workload(with_whole_device(raw))
    problems += [p for p in checked.problems if p not in problems]
    if check_target and not any(p.field == "target" for p in checked.problems):
        try:
            plan_target(checked.nearest.model_copy(update={"allow_overwrite": True}), default_dir)
        except WorkloadError as exc:
            problems += exc.problems
    return checked.workload


def _rule(problems: list[FieldProblem], request: PtsRequest, test: PtsTest) -> SteadyStateRule:
    values = {f: getattr(request, f) for f in ("window", "data_limit_pct", "slope_limit_pct", "min_rounds", "max_rounds")
              if getattr(request, f) is not None}
    if test is PtsTest.WRITE_SATURATION:
        values.setdefault("max_rounds", 1440)  # the PTS's 24 hours of one-minute rounds
    if "window" in values and "min_rounds" not in values and isinstance(values["window"], int):
        values["min_rounds"] = max(values["window"], 5)
    try:
        return SteadyStateRule.model_validate(values)
    except ValidationError as exc:
        problems += [p.model_copy(update={"flag": PTS_FLAGS.get(p.field, p.flag)}) for p in from_validation(exc)]
        return SteadyStateRule()


def _sizes(problems: list[FieldProblem], given: list[Loose] | None, default: list[int]) -> list[int]:
    if given is None:
        return default
    sizes: list[int] = []
    for value in given:
        try:
            size = parse_size_bytes(value if isinstance(value, (int, str)) else str(value))
        except ValueError as exc:
            problems.append(problem("block_sizes", str(exc)))
            continue
        if size < 512 or size % 512 or size > 64 << 20:
            problems.append(problem("block_sizes", f"{shown(value)} is not a multiple of 512 bytes up to 64MiB"))
        sizes.append(size)
    if not given:
        problems.append(problem("block_sizes", "no access size given"))
    return sorted(set(sizes), reverse=True)


def _mixes(problems: list[FieldProblem], given: list[int | str] | None, default: list[int], test: PtsTest) -> list[int]:
    mixes = default if given is None else list(dict.fromkeys(_whole(problems, "mixes", given)))
    if not mixes:
        problems.append(problem("mixes", "no mix given"))
    elif any(not 0 <= m <= 100 for m in mixes):
        problems.append(problem("mixes", f"{', '.join(shown(m) for m in mixes if not 0 <= m <= 100)} is out of range"))
    if test is not PtsTest.WRITE_SATURATION and 0 not in mixes:
        problems.append(_problem("mixes", "the tracking variable is measured at 0/100 (all writes): keep mix 0 in the list"))
    return mixes


def _whole(problems: list[FieldProblem], field: str, given: list[int | str]) -> list[int]:
    numbers = []
    for value in given:
        try:
            numbers.append(int(str(value).strip()))
        except ValueError:
            problems.append(problem(field, f"{shown(value)} is not a whole number"))
    return numbers


def _checked(problems: list[FieldProblem], field: str, value: Any, *, default: float, convert: Any, ok: Any) -> float:
    if value is None:
        return default
    try:
        number = float(convert(value))
    except (TypeError, ValueError) as exc:
        problems.append(problem(field, str(exc) if isinstance(value, str) else f"{shown(value)} is not a number"))
        return default
    if not ok(number):
        problems.append(problem(field, f"{shown(value)} is out of range"))
        return default  # the workload is checked with a good value: one problem, under this field's name
    return number


def _problem(field: str, message: str) -> FieldProblem:
    return FieldProblem(field=field, flag=PTS_FLAGS.get(field, "-"), message=message)
