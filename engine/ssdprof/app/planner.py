"""One planner: a :class:`SweepRequest` — from the CLI's flags, the RPC, or the GUI's designer through
the RPC — becomes a :class:`SweepSpec` by one set of rules with one set of messages.

Every rule lives here: the default region on a block device, a preset or factors (not both), remote
hosts named once each and checked, folders and devices given for hosts in the run, an RBD image or
remote options only with hosts, and a size wherever the region cannot be read from the device.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field

from ssdprof.model.sweep import MAX_REPEATS, RemoteSpec, SweepMode, SweepSpec, build_sweep, preset
from ssdprof.model.workload import WorkloadError, parse_workload
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.ceph import parse_rbd
from ssdprof.target.plan import with_whole_device

__all__ = ["Loose", "SweepRequest", "WorkloadInput", "plan_sweep"]

Loose = int | float | str
"""What a person types: ``4096`` or ``"4k"``, ``10`` or ``"10s"``; the engine parses units."""


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WorkloadInput(_Request):
    """Workload fields as typed in a form or on the command line; omitted fields take the engine's defaults."""

    pattern: str | None = None
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
    engine: str | None = None
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
    tags: dict[str, str] = Field(default_factory=dict)
    hosts: list[str] = Field(default_factory=list, max_length=256,
                             description="run on these SSH hosts (aliases or user@host:port) instead of locally")
    remote_dir: str = Field(default="", description="the folder on every host (default: the engine's remote scratch folder)")
    remote_dirs: dict[str, str] = Field(default_factory=dict, description="host -> its own folder, overriding remote_dir")
    remote_devices: dict[str, str] = Field(default_factory=dict,
                                           description="host -> a block device there, measured in place of a test file")
    rbd: str = Field(default="", description="POOL/IMAGE for fio's rbd engine on the hosts; {host} gives one image per host")
    ceph_conf: str = ""
    ceph_user: str = "admin"


def plan_sweep(request: SweepRequest) -> SweepSpec:
    """The points, repeats and remote options of ``request``; raises WorkloadError naming the field."""
    raw = request.base.raw()
    base = parse_workload(raw if request.hosts else with_whole_device(raw))
    if request.preset and request.factors:
        raise WorkloadError.single("preset", "--preset", "give either a preset or factors to vary, not both")
    if request.preset:
        spec = preset(request.preset, base, repeats=request.repeats)
    elif request.factors:
        # build_sweep parses each value as typed ("4k", "10s"); numbers pass through unchanged
        factors = cast(dict[str, list[str]], {k: list(v) for k, v in request.factors.items()})
        spec = build_sweep(base, factors, request.mode, request.repeats)
    else:
        spec = SweepSpec(name="run", points=[base], repeats=request.repeats)
    return spec.model_copy(update={"name": request.name or spec.name, "tags": {**spec.tags, **request.tags},
                                   "remote": _remote(request)})


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
    if request.rbd:
        parse_rbd(request.rbd, request.ceph_user, request.ceph_conf)
    return RemoteSpec(hosts=names, target_dir=request.remote_dir, target_dirs=dict(request.remote_dirs),
                      devices=dict(request.remote_devices), rbd=request.rbd, ceph_conf=request.ceph_conf,
                      ceph_user=request.ceph_user)


def _absolute(field: str, flag: str, given: str, path: str) -> None:
    if not path.startswith("/") or "\n" in path:
        raise WorkloadError.single(field, flag, f"{given!r}: give an absolute path, or HOST=PATH for one of the --host hosts")
