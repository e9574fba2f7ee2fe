"""One planner: a :class:`SweepRequest` — from the CLI's flags, the RPC, or the GUI's designer through
the RPC — becomes a :class:`SweepSpec` by one set of rules with one set of messages.

Every rule lives here: the default region on a block device, a preset or factors (not both), repeats,
tags, remote hosts named once each and checked, folders and devices given for hosts in the run, an RBD
image or remote options only with hosts, and a size wherever the region cannot be read from the device.
Every bad field of a request is reported at once, with the target's own check (:func:`check_base`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema

from ssdprof.app.cooldown import CoolDownRequest, plan_cool_down
from ssdprof.model.problems import FieldProblem, FieldRule, Problems, from_validation, problem, register, shown
from ssdprof.model.sweep import MAX_REPEATS, RemoteSpec, SweepMode, SweepSpec, build_sweep, preset
from ssdprof.model.workload import FIELD_RULES, Pattern, Workload, WorkloadError, check_workload
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.ceph import RbdTarget, parse_rbd
from ssdprof.target.plan import TargetPlan, plan_target, widest, with_whole_device

__all__ = ["EngineName", "Loose", "PatternName", "Preflight", "SweepRequest", "Tags", "WorkloadInput",
           "check_base", "parse_tags", "plan_sweep", "preflight", "rbd_target", "validated"]

Loose = int | float | str
"""What a person types: ``4096`` or ``"4k"``, ``10`` or ``"10s"``; the engine parses units."""

MAX_TAG_CHARS = 200
_TAG_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")

register({
    "preset": FieldRule("--preset", "a preset or factors to vary, not both", "preset", "student"),
    "repeats": FieldRule("--repeat", f"1–{MAX_REPEATS}", "repeats", "3"),
    "tags": FieldRule("--tag", f"key=value, the key of letters, digits, _ . : or -, at most {MAX_TAG_CHARS} "
                               "characters each", "tags", "interface=SATA"),
    "name": FieldRule("--name", "at most 200 characters", "name", "drive A, 4k reads"),
    "hosts": FieldRule("--host", "SSH aliases or user@host:port, each once", "hosts", "node1"),
})


def parse_tags(given: object) -> dict[str, str]:
    """Tags as a form types them (``"a=1, b=2"`` or ``"a=1 b=2"``), as the CLI gives them (one
    ``KEY=VALUE`` per ``--tag``, the value may hold spaces) or as a mapping: one rule for all. Any
    other type is refused with a ValueError (a field problem), never met as a TypeError later."""
    if isinstance(given, dict):
        items = [f"{key}={_tag_value(key, value)}" for key, value in given.items()]
    elif isinstance(given, str):
        items = [item for item in re.split(r"[,\s]+", given) if item]
    elif isinstance(given, list | tuple) and all(isinstance(item, str) for item in given):
        items = list(given)
    else:
        raise ValueError(f"expected key=value text, a list of key=value texts or a mapping of key to value; got "
                         f"{_type_name(given)}")
    tags: dict[str, str] = {}
    for item in items:
        key, sep, value = str(item).partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"{shown(item)} is not key=value")
        if not key:
            raise ValueError(f"{shown(item)} has no key")
        if not _TAG_KEY.fullmatch(key):
            raise ValueError(f"the key {shown(key)} holds other characters than letters, digits, _ . : -")
        if len(item) > MAX_TAG_CHARS or "\n" in value:
            raise ValueError(f"{shown(item)} is over {MAX_TAG_CHARS} characters or holds a line break")
        tags[key] = value
    return tags


def _tag_value(key: object, value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"the value of {shown(str(key))} is {_type_name(value)}, not text")
    return str(value)


def _type_name(value: object) -> str:
    """A JSON value's type as a person reads it."""
    names = {type(None): "null", bool: "true/false", int: "a number", float: "a number", str: "text",
             list: "a list", tuple: "a list", dict: "a mapping"}
    return names.get(type(value), type(value).__name__)


Tags = Annotated[dict[str, str], BeforeValidator(parse_tags),
                 WithJsonSchema({"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}},
                                           {"type": "array", "items": {"type": "string"}}, {"type": "string"}]},
                                mode="validation")]
"""Tags as typed: ``"a=1 b=2"``, ``["a=1", "b=2"]`` or ``{"a": "1"}``; read by :func:`parse_tags` only."""

EngineName = Annotated[str, WithJsonSchema({"type": "string", "enum": [c.value for c in FIELD_RULES["engine"].choices]},
                                        mode="validation")]
PatternName = Annotated[str, WithJsonSchema({"type": "string",
                                          "enum": [c.value for c in FIELD_RULES["pattern"].choices]},
                                         mode="validation")]
"""Clients send one of the listed choices; any text is accepted here so that the workload's own check
names a bad one beside every other bad field (see check_workload)."""


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WorkloadInput(_Request):
    """Workload fields as typed in a form or on the command line; omitted fields take the engine's defaults."""

    pattern: PatternName | None = None
    read_pct: Loose | None = None
    block_size_bytes: Loose | None = None
    queue_depth: Loose | None = None
    numjobs: Loose | None = None
    runtime_s: Loose | None = None
    ramp_s: Loose | None = None
    size_bytes: Loose | None = None
    offset_bytes: Loose | None = None
    target: str | None = None
    direct: bool | None = None
    engine: EngineName | None = None
    allow_overwrite: bool | None = None
    keep_file: bool | None = None
    rate_iops: Loose | None = None

    def raw(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class SweepRequest(_Request):
    """A sweep: a preset, factors varied one at a time or as a grid, or the base workload alone."""

    base: WorkloadInput = WorkloadInput()
    preset: str | None = None
    factors: dict[str, list[Loose]] | None = Field(default=None, description="workload field -> values to try")
    mode: SweepMode = SweepMode.ONE_AT_A_TIME
    repeats: int = Field(default=1, ge=1, le=MAX_REPEATS)
    name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=dict)
    hosts: list[str] = Field(default_factory=list, max_length=256,
                             description="run on these SSH hosts (aliases or user@host:port) instead of locally")
    remote_dir: str = Field(default="", description="the folder on every host (default: the engine's remote scratch folder)")
    remote_dirs: dict[str, str] = Field(default_factory=dict, description="host -> its own folder, overriding remote_dir")
    remote_devices: dict[str, str] = Field(default_factory=dict,
                                           description="host -> a block device there, measured in place of a test file")
    rbd: str = Field(default="", description="POOL/IMAGE for fio's rbd engine on the hosts; {host} gives one image per host")
    ceph_conf: str = ""
    ceph_user: str = "admin"
    cool_down: CoolDownRequest | None = Field(
        default=None,
        description="before each point after the first, wait for the drive to cool or idle")


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], **values: Any) -> M:
    """A request built from a face's input (the CLI's flags), refused in the same words as the RPC's."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise WorkloadError(from_validation(exc, model)) from None


def check_base(raw: dict[str, Any], *, check_target: bool, default_dir: Path | None = None
               ) -> tuple[Workload | None, list[FieldProblem]]:
    """A workload's every problem at once: its fields, and (``check_target``) whether its target can be
    used, checked with the good fields even when others are bad."""
    checked = check_workload(with_whole_device(raw))
    problems = Problems()
    problems.add(*checked.problems)
    if check_target and not any(p.field == "target" for p in checked.problems):
        with problems.collect():
            plan_target(checked.nearest, default_dir)
    return checked.workload, problems.found


@dataclass(frozen=True)
class Preflight:
    """A sweep as planned and checked: its spec, the local target as resolved by the check (None for
    hosts, or when the target was not checked) and the RBD image the hosts measure, as the planner
    read it (None: no image); the runner's site uses them as they are."""

    spec: SweepSpec
    target: TargetPlan | None = None
    rbd: RbdTarget | None = None


def plan_sweep(request: SweepRequest, *, check_target: bool = False, default_dir: Path | None = None) -> SweepSpec:
    """The points, repeats and remote options of ``request``; raises WorkloadError naming every bad
    field. ``check_target``: also check the local target (with the widest point), as a start does."""
    return _plan(request, check_target=check_target, default_dir=default_dir).spec


def preflight(request: SweepRequest, *, default_dir: Path | None = None) -> Preflight:
    """:func:`plan_sweep` as a start does it: every field and the target checked at once, the
    target kept for the run."""
    return _plan(request, check_target=True, default_dir=default_dir)


def _plan(request: SweepRequest, *, check_target: bool, default_dir: Path | None) -> Preflight:
    problems = Problems()
    raw = _read_share_base(request)
    checked = check_workload(raw if request.hosts else with_whole_device(raw))
    problems.add(*checked.problems)
    if request.preset and request.factors:
        problems.add(problem("preset", "give either a preset or factors to vary, not both", with_rule=False))
    remote, rbd = None, None
    with problems.collect():
        remote = _remote(request)
        rbd = rbd_target(remote) if remote is not None else None
    cool_down = None
    with problems.collect():
        cool_down = plan_cool_down(request.cool_down, on_hosts=bool(request.hosts))
    spec = None
    if checked.workload is not None:
        with problems.collect():
            spec = _points(request, checked.workload)
    target = None
    if check_target and not request.hosts and not any(p.field == "target" for p in problems.found):
        with problems.collect():
            target = plan_target(widest(spec.points) if spec else checked.nearest, default_dir)
    problems.raise_any()
    assert spec is not None
    return Preflight(spec.model_copy(update={"name": request.name or spec.name,
                                             "tags": {**spec.tags, **request.tags},
                                             "remote": remote, "cool_down": cool_down}),
                     target, rbd)


def _read_share_base(request: SweepRequest) -> dict[str, Any]:
    """The base as typed; where every point takes its pattern from the factors (a grid, or the pattern
    alone varied) and a read share is given, the base is read with the first mixed pattern varied, so
    the share is the mixed points' (a pure pattern fixes its own): ``--vary rw=randread,randrw
    --read-pct 70`` is randread and randrw at 70 %, not a refusal of the default pattern's share."""
    raw = request.base.raw()
    varied = [str(v) for v in (request.factors or {}).get("pattern", [])]
    every_point = request.mode is SweepMode.GRID or set(request.factors or {}) == {"pattern"}
    if not varied or not every_point or "read_pct" not in raw:
        return raw
    mixed = [v for v in varied if v in {p.value for p in Pattern} and Pattern(v).fixed_read_pct is None]
    return {**raw, "pattern": mixed[0]} if mixed else raw


def _points(request: SweepRequest, base: Workload) -> SweepSpec:
    if request.preset:
        return preset(request.preset, base, repeats=request.repeats)
    if request.factors:
        # build_sweep parses each value as typed ("4k", "10s"); numbers pass through unchanged
        factors = cast(dict[str, list[str]], {k: list(v) for k, v in request.factors.items()})
        return build_sweep(base, factors, request.mode, request.repeats)
    return SweepSpec(name="run", points=[base], repeats=request.repeats)


def _remote(request: SweepRequest) -> RemoteSpec | None:
    """Remote options, each host name checked (no option or shell syntax reaches ssh)."""
    if not request.hosts:
        if request.rbd:
            raise WorkloadError.single("hosts", "--host", "an RBD image is reached from hosts: add --host for each Ceph client")
        if request.remote_devices:
            raise WorkloadError.single("remote_devices", "--remote-device",
                                       "a device on hosts needs --host; a local device is --target /dev/…")
        if request.remote_dirs or request.remote_dir:
            raise WorkloadError.single("hosts", "--host", "remote options need at least one host")
        return None
    names = [parse_host(h).name for h in request.hosts]
    if len(set(names)) != len(names):
        raise WorkloadError.single("hosts", "--host", "each host may be named only once")
    for field, flag, given in (("remote_dirs", "--remote-dir", request.remote_dirs),
                               ("remote_devices", "--remote-device", request.remote_devices)):
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise WorkloadError.single(field, flag, f"given for hosts not in the run: {', '.join(unknown)}")
        for host, path in given.items():
            _absolute(field, flag, f"{host}={path}", path)
    if request.remote_dir:
        _absolute("remote_dir", "--remote-dir", request.remote_dir, request.remote_dir)
    if request.remote_devices and request.base.size_bytes is None:
        raise WorkloadError.single("size_bytes", "--size", "give --size with --remote-device: the region is not guessed "
                                                           "from devices on other machines")
    return RemoteSpec(hosts=names, target_dir=request.remote_dir, target_dirs=dict(request.remote_dirs),
                      devices=dict(request.remote_devices), rbd=request.rbd, ceph_conf=request.ceph_conf,
                      ceph_user=request.ceph_user)


def rbd_target(remote: RemoteSpec) -> RbdTarget | None:
    """The Ceph RBD image a remote sweep measures, read from its spec by one rule, once per run: by
    the planner (handed on in :class:`Preflight`), or by the site of a sweep resumed from the store
    or grown as it runs (a curve, a search), whose spec is all there is."""
    return parse_rbd(remote.rbd, remote.ceph_user, remote.ceph_conf) if remote.rbd else None


def _absolute(field: str, flag: str, given: str, path: str) -> None:
    if not path.startswith("/") or "\n" in path:
        raise WorkloadError.single(field, flag, f"{given!r}: give an absolute path, or HOST=PATH for one of the --host hosts")
