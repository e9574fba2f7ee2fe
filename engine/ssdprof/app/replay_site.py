"""Where a replay plays, and what plays it: on this machine, fio's ``read_iolog`` (or, where fio is missing, the
portable engine's compiled loop with the same lanes) behind the engine interface every point is measured through
(the target's ledger kept); on SSH hosts, each host its plan from one common start (:mod:`ssdprof.remote.replay`).
Either way, once a repeat ran, when each I/O was issued is kept with the replay."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ssdprof.app.engines import LocalEngine, choose_engine
from ssdprof.app.ledger import TargetLedger
from ssdprof.app.sites import LocalSite, RemoteSite, Site
from ssdprof.fio.replay import FioReplay, fio_refusal
from ssdprof.fio.runner import FioEngine
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import ReplaySpec
from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import FIELD_RULES, EngineChoice, Workload
from ssdprof.portable import PortableUnavailable, portable_engine
from ssdprof.portable.engine import PortableEngine
from ssdprof.portable.native import NativeBinary
from ssdprof.portable.native_replay import NativeReplay
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.replay import ReplayOnHosts
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.trace.describe import series_step_s
from ssdprof.trace.issued import issue_timing, issue_timing_of
from ssdprof.trace.plan import ReplayPlan

__all__ = ["LocalReplayEngine", "NativeReplayEngine", "ReplayEngine", "ReplayPlace", "replay_engine", "replay_place"]


class _Playing:
    """A trace played behind the engine interface every point is measured through, by an engine that lays
    out test files as it does for any point (its tool versions, its layout)."""

    def __init__(self, engine: FioEngine | PortableEngine, reason: str):
        self.engine = engine
        self.reason = reason
        self.issued_ns: npt.NDArray[np.int64] | None = None
        """When each I/O was issued, once measured (None: not logged)."""

    @property
    def tool_versions(self) -> dict[str, str]:
        return self.engine.tool_versions

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float:
        return self.engine.layout(path, size_bytes, direct=direct)


class ReplayEngine(_Playing):
    """fio playing one planned trace: the point's workload says where and how (direct or not); the trace
    says what."""

    name = "fio"

    def __init__(self, fio: FioEngine, plan: ReplayPlan):
        super().__init__(fio, f"{fio.reason}; {plan.lanes} lane(s) of fio read_iolog")
        self.replay = FioReplay(fio.install, plan)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        played = self.replay.run(str(path), direct=workload.direct, is_device=is_device, on_progress=on_progress,
                                 cancel=cancel)
        self.issued_ns = played.issued_ns
        return played.measurement


class NativeReplayEngine(_Playing):
    """The portable engine's compiled loop playing one planned trace, where fio is missing (or too old), with the
    same lanes and the same result: every I/O once, its latency from bins, when each was issued."""

    name = "portable"

    def __init__(self, portable: PortableEngine, binary: NativeBinary, plan: ReplayPlan):
        super().__init__(portable, f"{portable.reason}; {plan.lanes} lane(s) of one synchronous I/O "
                                   f"({binary.path.name} --trace)")
        self.replay = NativeReplay(binary, plan, system=portable.system, reason=portable.reason)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        measured, self.issued_ns = self.replay.run(str(path), direct=workload.direct, is_device=is_device,
                                                   region_bytes=workload.size_bytes, on_progress=on_progress,
                                                   cancel=cancel)
        return measured


LocalReplayEngine = ReplayEngine | NativeReplayEngine


def replay_engine(workload: Workload, plan: ReplayPlan, fio_executable: str = "fio") -> LocalReplayEngine:
    """What replays the plan here: fio 3.31 or newer, else (unless fio was insisted on) the portable engine's
    compiled loop; a WorkloadError saying why neither can."""
    engine: LocalEngine = choose_engine(workload.engine, fio_executable)
    if isinstance(engine, FioEngine):
        refusal = fio_refusal(engine.install)
        if refusal is None:
            return ReplayEngine(engine, plan)
        if workload.engine is EngineChoice.FIO:
            raise _refused(refusal)
        engine = _portable(f"fio {engine.install.version} cannot replay a trace")
    assert isinstance(engine, PortableEngine)
    if engine.native is None:
        raise _refused(f"the portable engine replays a trace with its compiled I/O loop only, and none runs here "
                       f"({engine.native_refusal}): build it (python engine/native/build.py) or install fio 3.31 or "
                       "newer")
    return NativeReplayEngine(engine, engine.native, plan)


def _portable(reason: str) -> LocalEngine:
    try:
        return portable_engine(reason)
    except PortableUnavailable as exc:
        raise _refused(str(exc)) from None


def _refused(message: str) -> WorkloadError:
    return WorkloadError.single("engine", FIELD_RULES["engine"][0], message)


@dataclass(frozen=True)
class ReplayPlace:
    """A replay's site (this machine or its hosts) with its ledger (this machine's target only)."""

    site: Site
    ledger: TargetLedger | None
    plan: ReplayPlan
    host_plans: dict[str, ReplayPlan]

    @property
    def engine_name(self) -> str:
        return self.site.engine.name

    def with_issued(self, replay: ReplaySpec) -> ReplaySpec:
        """``replay`` with how the last repeat issued its I/Os (left as it was where nothing was logged)."""
        step_s = int(replay.recorded.series[0].span_s) if replay.recorded.series else series_step_s(
            replay.recorded.duration_s)
        engine = self.site.engine
        if isinstance(engine, ReplayEngine | NativeReplayEngine):
            return replay if engine.issued_ns is None else replay.model_copy(
                update={"issued": issue_timing(self.plan, engine.issued_ns, step_s)})
        if not isinstance(engine, ReplayOnHosts):
            return replay
        logged = {name: (self.host_plans[name], issued) for name, issued in engine.issued_ns.items() if issued is not None}
        parts = [part.model_copy(update={"issued": issue_timing(*logged[part.host], step_s)}) if part.host in logged
                 else part for part in replay.parts]
        whole = issue_timing_of(list(logged.values()), step_s) if len(logged) == len(replay.parts) else None
        return replay.model_copy(update={"parts": parts, "issued": whole})


def replay_place(spec: SweepSpec, plan: ReplayPlan, host_plans: dict[str, ReplayPlan], *, store: Store,
                 default_dir: Path | None, fio_executable: str, ssh: SshSettings) -> ReplayPlace:
    """Where ``spec`` plays: its hosts (each its plan) or this machine (a WorkloadError where nothing here can)."""
    if spec.remote is not None:
        site = RemoteSite(spec, ssh, links_gbps=store.host_links(), watch=store.monitor_hosts(),
                          engine=lambda options: _on_hosts(options, host_plans))
        return ReplayPlace(site, None, plan, host_plans)
    local = LocalSite(spec, replay_engine(spec.points[0], plan, fio_executable), default_dir)
    return ReplayPlace(local, TargetLedger.of(store, local.plan, local.size_bytes), plan, host_plans)


def _on_hosts(options: RemoteOptions, host_plans: dict[str, ReplayPlan]) -> ReplayOnHosts:
    return ReplayOnHosts(options, host_plans)
