"""Where a sweep's points run: on this machine (a test file or device planned, laid out and removed, the
environment read once) or on SSH hosts (one multi-host engine kept across the points)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ssdprof.app.engines import LocalEngine, PointEngine
from ssdprof.app.planner import rbd_target
from ssdprof.model.events import LayoutDone, RunEvent
from ssdprof.model.results import Environment, RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import FieldProblem, WorkloadError
from ssdprof.portable.engine import PortableEngine
from ssdprof.portable.proof import disk_of
from ssdprof.remote import DEFAULT_REMOTE_DIR
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.ceph import RbdTarget
from ssdprof.remote.multihost import MultiHostEngine
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.ssh import SshSettings
from ssdprof.target.environment import capture_environment
from ssdprof.target.plan import (
    TargetKind,
    TargetPlan,
    direct_io_refusal,
    hold_device,
    plan_target,
    remove_stale_test_files,
    remove_test_file,
    widest,
)

__all__ = ["RAM_FILESYSTEMS", "LocalSite", "RemoteSite", "Site"]


RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs", "hugetlbfs"})


class Site(Protocol):
    environment: Environment
    path: Path
    is_device: bool
    counted_disk: str | None
    """The disk whose OS counters see this site's I/O (the device's side of the queue), where known."""

    @property
    def engine(self) -> PointEngine: ...

    def set_up(self, emit: Callable[[RunEvent], None]) -> float: ...

    def vanished(self) -> str | None: ...

    def lost(self, result: RunResult) -> str | None:
        """Why the sweep cannot go on after this point, or None."""
        ...

    def tear_down(self, *, keep: bool) -> None: ...


class LocalSite:
    """This machine: a directory (with our test file), a file or a block device."""

    def __init__(self, spec: SweepSpec, engine: LocalEngine, default_dir: Path | None,
                 plan: TargetPlan | None = None):
        """``plan``: the target as the planner's preflight resolved it; resolved here when not
        given (a resumed sweep, a PTS test's points)."""
        self.engine = engine
        self.size_bytes = max(p.size_bytes for p in spec.points)
        self.direct = spec.points[0].direct
        self.plan = plan or plan_target(widest(spec.points), default_dir)
        if self.plan.kind is TargetKind.DIRECTORY:
            remove_stale_test_files(self.plan.path.parent)
        where = self.plan.path.parent if self.plan.kind is TargetKind.DIRECTORY else self.plan.path
        self.environment = capture_environment(where, engine.tool_versions, block_device=self.plan.device)
        self.path = self.plan.path
        self.is_device = self.plan.kind is TargetKind.BLOCK_DEVICE
        self.counted_disk = disk_of(where)
        self._check_points(spec, self.plan, self.environment)
        self._folder = _hold(self.plan.path.parent) if self.plan.kind is TargetKind.DIRECTORY else None
        # Held for the whole sweep: nothing can mount or claim a device that is being written.
        self._claim = hold_device(self.plan.path) if self.is_device and any(p.does_write for p in spec.points) else None

    @property
    def layout_bytes(self) -> int:
        """What set_up writes: the test file in a folder, nothing on a file or device."""
        return self.size_bytes if self.plan.kind is TargetKind.DIRECTORY else 0

    def set_up(self, emit: Callable[[RunEvent], None]) -> float:
        if self.plan.kind is not TargetKind.DIRECTORY:
            return 0.0
        seconds = self.engine.layout(self.plan.path, self.size_bytes, direct=self.direct)
        emit(LayoutDone(path=str(self.plan.path), size_bytes=self.size_bytes, seconds=seconds))
        return seconds

    def vanished(self) -> str | None:
        """Why the next point cannot run where the sweep was laid out: the target (or our test file in
        it) is gone. fio would otherwise create a fresh file, and even its folder, and measure that."""
        if self.plan.path.exists():
            return None
        where = "the test file in " + str(self.plan.path.parent) if self.plan.kind is TargetKind.DIRECTORY else str(self.plan.path)
        gone = "" if self.plan.path.parent.exists() else " (its folder was removed)"
        return f"{where} vanished during the sweep{gone}; the finished points are kept; check the target and resume"

    def lost(self, result: RunResult) -> str | None:
        return None  # a failed point says why; the next point checks the target again (vanished)

    def tear_down(self, *, keep: bool) -> None:
        if self._claim is not None:
            os.close(self._claim)
            self._claim = None
        if not keep:
            remove_test_file(self.plan)
        if self._folder is not None:
            held, self._folder = self._folder, None
            try:
                if os.fstat(held).st_nlink == 0 and self.plan.path.parent.exists():
                    # The user's folder was deleted mid-sweep and fio made a new one in its place before
                    # failing (our open handle kept the old one's identity): remove that one if empty.
                    with contextlib.suppress(OSError):
                        self.plan.path.parent.rmdir()
            finally:
                os.close(held)

    def _check_points(self, spec: SweepSpec, plan: TargetPlan, environment: Environment) -> None:
        """Rules that need the target: direct I/O support and the device's block size."""
        problems: list[FieldProblem] = []
        if any(p.direct for p in spec.points) and plan.kind is not TargetKind.BLOCK_DEVICE:
            refusal = direct_io_refusal(plan.path.parent)
            if refusal:
                problems.append(FieldProblem(field="direct", flag="--buffered", message=(
                    f"the filesystem at {plan.path.parent} refuses direct I/O ({refusal}), e.g. tmpfs lives in RAM; "
                    "choose a folder on the SSD, or measure the page cache, labelled as such (Measure through the page "
                    "cache, --buffered)")))
        if environment.filesystem in RAM_FILESYSTEMS and any(p.direct for p in spec.points):
            problems.append(FieldProblem(field="target", flag="--target", message=(
                f"{plan.path.parent} is on {environment.filesystem}, which lives in RAM: no device would be measured; "
                "choose a folder on the SSD (or measure memory, labelled as such: Measure through the page cache, "
                "--buffered)")))
        logical = environment.logical_block_bytes or 512
        for name, flag in (("block_size_bytes", "--bs"), ("offset_bytes", "--offset")):
            odd = sorted({getattr(p, name) for p in spec.points if p.direct and getattr(p, name) % logical})
            if odd:
                problems.append(FieldProblem(field=name, flag=flag, message=(
                    f"{', '.join(map(str, odd))} B is not a multiple of the device's {logical} B logical block, "
                    "which direct I/O requires")))
        if (spec.curve is not None or any(p.rate_iops for p in spec.points)) and isinstance(self.engine, PortableEngine):
            try:  # before anything is written: a curve's rates come after its first point
                self.engine.backend_for(spec.points[0].queue_depth, paced=True)
            except WorkloadError as exc:
                problems += exc.problems
        if len({p.target for p in spec.points}) > 1:
            problems.append(FieldProblem(field="target", flag="--target", message="all points of a sweep share one target"))
        if problems:
            raise WorkloadError(problems)


class RemoteSite:
    """Several hosts over SSH: every host checked and prepared before any point starts."""

    def __init__(self, spec: SweepSpec, ssh: SshSettings,
                 links_gbps: dict[str, float] | None = None, watch: list[str] | None = None,
                 rbd: RbdTarget | None = None, *, engine: Callable[[RemoteOptions], MultiHostEngine] = MultiHostEngine):
        """``watch``: the monitor-only hosts (storage nodes) to watch; one also named as a client
        is a client. ``rbd``: the image as the planner read it (:class:`Preflight`); without it
        (a resumed or a growing sweep) it is read from the spec, by the planner's rule. ``engine``: what
        runs the points on the hosts (a trace replay's own)."""
        assert spec.remote is not None
        remote = spec.remote
        options = RemoteOptions(hosts=[parse_host(h) for h in remote.hosts], ssh=ssh,
                                rbd=rbd if rbd is not None else rbd_target(remote),
                                target_dir=remote.target_dir or DEFAULT_REMOTE_DIR, target_dirs=remote.target_dirs,
                                devices=remote.devices, link_gbps=links_gbps or {},
                                watch=[parse_host(h) for h in watch or [] if h not in remote.hosts])
        self.hosts = engine(options)
        self.engine: PointEngine = self.hosts
        self._spec = spec
        self.environment = Environment()
        self.path = Path(options.target_dir)
        self.is_device = False
        self.counted_disk: str | None = None  # each host's disk is its own; not counted from here

    def set_up(self, emit: Callable[[RunEvent], None]) -> float:
        started = time.monotonic()
        self.environment = self.hosts.prepare(self._spec)
        seconds = time.monotonic() - started
        laid_out = self.hosts.laid_out  # a device is measured as it is: no test file to speak of
        if laid_out:
            size_bytes = max(p.size_bytes for p in self._spec.points)
            emit(LayoutDone(path=", ".join(f"{h}:{t}" for h, t in laid_out.items()),
                            size_bytes=size_bytes, seconds=seconds))
        return seconds

    def vanished(self) -> str | None:
        return None  # each host's target is checked by fio there; a lost host marks its part

    def lost(self, result: RunResult) -> str | None:
        # Later points on fewer hosts would not measure the same cluster, and without the host they
        # cannot start at all: stop, keep what was measured, and let the user resume.
        errors = [h.error for h in result.hosts if h.error]
        return "; ".join(errors) if errors else None

    def tear_down(self, *, keep: bool) -> None:
        try:
            if not keep:
                self.hosts.cleanup()
        finally:
            self.hosts.close()


def _hold(folder: Path) -> int | None:
    """An open handle on the target folder for the sweep, to tell later whether it is still the same
    folder (a deleted one keeps its identity while held, with no links left). None where folders
    cannot be opened (Windows)."""
    try:
        return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
