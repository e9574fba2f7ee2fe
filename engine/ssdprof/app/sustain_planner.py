"""One planner for sustained-write tests: a :class:`SustainRequest` (``ssdprof sustain``, the RPC, the
designer) becomes a sweep of kind ``sustain`` by the sweep planner's own rules (target, whole-device
region, consent to overwrite, hosts) plus the test's: the amount to write, the idle intervals and the
recovery amount, every bad value named at once."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.app.planner import EngineName, Loose, SweepRequest, Tags, WorkloadInput, plan_sweep
from ssdprof.model.problems import FieldRule, Problems, problem, register, shown
from ssdprof.model.quantities import format_size, parse_duration_s, parse_size_bytes
from ssdprof.model.sustain import (
    DEFAULT_BLOCK_SIZE_BYTES,
    DEFAULT_IDLE_S,
    DEFAULT_QUEUE_DEPTH,
    FREE_SPACE_MARGIN_BYTES,
    FREE_SPACE_MARGIN_FRACTION,
    SustainPattern,
    SustainPlan,
    bound_runtime_s,
)
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import MAX_RUNTIME_S
from ssdprof.target.plan import FREE_SPACE_MARGIN_BYTES as PLAN_MARGIN_BYTES
from ssdprof.target.plan import default_target_dir

__all__ = ["MAX_IDLE_S", "MAX_INTERVALS", "SustainRequest", "default_region_bytes", "plan_sustain"]

MAX_IDLE_S = 24 * 3600.0
MAX_INTERVALS = 20

register({
    "write_bytes": FieldRule("--write", "a size of at least 1MiB (default: the region once)", "amount to write", "64GiB"),
    "idle_s": FieldRule("--idle", f"up to {MAX_INTERVALS} durations from 0 s to 24 h, comma-separated",
                        "idle intervals", "10s,30s,60s,5m"),
    "recovery_bytes": FieldRule("--recovery", "a size of at least 1MiB (default: 1.5x the cache found)",
                                "recovery write", "8GiB"),
})


class SustainRequest(BaseModel):
    """A sustained-write test as typed in a form or on the command line; omitted fields take defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    target: str | None = Field(default=None, description="a folder (a test file bounded by its free space), a file "
                                                         "or a whole block device (confirmed with allow_overwrite)")
    pattern: SustainPattern = "write"
    block_size_bytes: Loose | None = Field(default=None, description="default 1MiB")
    queue_depth: Loose | None = Field(default=None, description=f"default {DEFAULT_QUEUE_DEPTH}")
    size_bytes: Loose | None = Field(default=None, description="the region: default the device from the offset, or "
                                                               "a test file as large as the free space allows")
    offset_bytes: Loose | None = None
    write_bytes: Loose | None = Field(default=None, description="the fill (default: the region once)")
    idle_s: list[Loose] | None = Field(default=None, description="idle before each recovery write "
                                                                 "(default 10 s, 30 s, 60 s, 5 min)")
    recovery_bytes: Loose | None = Field(default=None, description="each recovery write (default: 1.5x the cache)")
    engine: EngineName | None = None
    direct: bool | None = None
    allow_overwrite: bool = False
    keep_file: bool | None = None
    name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=dict)
    hosts: list[str] = Field(default_factory=list, max_length=16, description="run on these SSH hosts instead")
    remote_dir: str = ""
    remote_devices: dict[str, str] = Field(default_factory=dict)


def default_region_bytes(request: SustainRequest, default_dir: Path | None = None) -> int | None:
    """A folder's test file: the free space less a margin; a device: from the offset to its end; None
    where the region must be given (a file takes its own size check; hosts are asked for a size)."""
    if request.size_bytes is not None or request.hosts:
        return None
    target = request.target or str(default_dir or default_target_dir())
    path = Path(target).expanduser()
    if not path.is_dir():
        return None  # a device's region comes from the sweep planner's whole-device rule
    free = shutil.disk_usage(path).free
    spare = max(int(free * FREE_SPACE_MARGIN_FRACTION), FREE_SPACE_MARGIN_BYTES) + PLAN_MARGIN_BYTES
    return max((free - spare) // (1 << 20) * (1 << 20), 0)


def plan_sustain(request: SustainRequest, *, check_target: bool = False,
                 default_dir: Path | None = None) -> SweepSpec:
    """The test as a sweep: the fill, then one recovery point per idle interval; raises WorkloadError
    naming every bad field."""
    problems = Problems()
    region = default_region_bytes(request, default_dir)
    if region is not None and region < 1 << 20:
        problems.add(problem("size_bytes", f"the folder has no room for a test file: {format_size(region)} would be "
                                           "left after keeping 10 % of its free space spare", with_rule=False))
    write_bytes = _size(problems, "write_bytes", request.write_bytes)
    recovery = _size(problems, "recovery_bytes", request.recovery_bytes)
    idle = _idle(problems, request.idle_s)
    spec = None
    with problems.collect():
        spec = plan_sweep(_sweep_request(request, region), check_target=check_target, default_dir=default_dir)
    problems.raise_any()
    assert spec is not None
    fill = spec.points[0]
    amount = write_bytes or fill.size_bytes
    # A recovery write wraps around the region as the fill does: a small region must not cap how
    # much of the cache it can find again.
    plan = SustainPlan(write_bytes=amount, region_bytes=fill.size_bytes, idle_s=idle,
                       recovery_bytes=recovery)
    fill = fill.model_copy(update={"runtime_s": bound_runtime_s(amount, MAX_RUNTIME_S)})
    again_s = bound_runtime_s(recovery or amount, MAX_RUNTIME_S)
    again = fill.model_copy(update={"runtime_s": again_s})
    name = request.name or f"sustain {fill.pattern.value} {format_size(amount)}"
    return spec.model_copy(update={"name": name, "points": [fill] + [again] * len(idle), "sustain": plan,
                                   "tags": {**spec.tags, "sustain": "1"}})


def _sweep_request(request: SustainRequest, region: int | None) -> SweepRequest:
    raw: dict[str, Any] = {"pattern": request.pattern, "ramp_s": 0, "runtime_s": 60, "numjobs": 1,
                           "block_size_bytes": DEFAULT_BLOCK_SIZE_BYTES, "queue_depth": DEFAULT_QUEUE_DEPTH,
                           "allow_overwrite": request.allow_overwrite}
    for field in ("target", "size_bytes", "offset_bytes", "engine", "direct", "keep_file", "block_size_bytes",
                  "queue_depth"):
        if getattr(request, field) is not None:
            raw[field] = getattr(request, field)
    if region is not None:
        raw["size_bytes"] = region
    return SweepRequest(base=WorkloadInput(**raw), name=request.name, tags=request.tags, hosts=request.hosts,
                        remote_dir=request.remote_dir, remote_devices=request.remote_devices)


def _size(problems: Problems, field: str, value: Loose | None) -> int | None:
    if value is None:
        return None
    try:
        size = parse_size_bytes(value if isinstance(value, (int, str)) else str(value))
    except ValueError as exc:
        problems.add(problem(field, str(exc)))
        return None
    if size < 1 << 20 or size % 512:
        problems.add(problem(field, f"{shown(value)} is under 1MiB or not a multiple of 512 bytes"))
        return None
    return size


def _idle(problems: Problems, given: list[Loose] | None) -> list[float]:
    if given is None:
        return list(DEFAULT_IDLE_S)
    if len(given) > MAX_INTERVALS:
        problems.add(problem("idle_s", f"{len(given)} intervals given"))
        return []
    found = []
    for value in given:
        try:
            seconds = parse_duration_s(value if isinstance(value, (int, float, str)) else str(value))
        except ValueError as exc:
            problems.add(problem("idle_s", str(exc)))
            continue
        if not 0 <= seconds <= MAX_IDLE_S:
            problems.add(problem("idle_s", f"{shown(value)} is out of range"))
            continue
        found.append(seconds)
    return found

