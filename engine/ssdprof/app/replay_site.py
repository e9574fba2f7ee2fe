"""Where a replay plays, and what plays it: on this machine, fio's ``read_iolog`` behind the engine interface every
point is measured through (the target's ledger kept); on SSH hosts, each host its plan from one common start
(:mod:`ssdprof.remote.replay`). Either way, once a repeat ran, when each I/O was issued is kept with the replay."""

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
from ssdprof.model.workload import FIELD_RULES, Workload
from ssdprof.remote.multihost import RemoteOptions
from ssdprof.remote.replay import ReplayOnHosts
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.trace.describe import series_step_s
from ssdprof.trace.issued import issue_timing, issue_timing_of
from ssdprof.trace.plan import ReplayPlan

__all__ = ["PORTABLE_REFUSAL", "ReplayEngine", "ReplayPlace", "replay_engine", "replay_place"]

PORTABLE_REFUSAL = ("the portable engine replays no traces yet (it issues generated patterns only): install fio "
                    "3.31 or newer (apt install fio, brew install fio, winget install fio) to replay a trace")


class ReplayEngine:
    """fio playing one planned trace, behind the engine interface every point is measured through: the point's
    workload says where and how (direct or not); the trace says what."""

    name = "fio"

    def __init__(self, fio: FioEngine, plan: ReplayPlan):
        self.fio = fio
        self.replay = FioReplay(fio.install, plan)
        self.reason = f"{fio.reason}; {plan.lanes} lane(s) of fio read_iolog"
        self.issued_ns: npt.NDArray[np.int64] | None = None
        """When each I/O was issued, once measured (None: not logged)."""

    @property
    def tool_versions(self) -> dict[str, str]:
        return self.fio.tool_versions

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float:
        return self.fio.layout(path, size_bytes, direct=direct)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        played = self.replay.run(str(path), direct=workload.direct, is_device=is_device, on_progress=on_progress,
                                 cancel=cancel)
        self.issued_ns = played.issued_ns
        return played.measurement


def replay_engine(workload: Workload, plan: ReplayPlan, fio_executable: str = "fio") -> ReplayEngine:
    """fio that can replay the plan, or a WorkloadError saying why none can here (the portable engine cannot yet)."""
    engine: LocalEngine = choose_engine(workload.engine, fio_executable)
    refusal = fio_refusal(engine.install) if isinstance(engine, FioEngine) else PORTABLE_REFUSAL
    if refusal is not None or not isinstance(engine, FioEngine):
        raise WorkloadError.single("engine", FIELD_RULES["engine"][0], refusal or PORTABLE_REFUSAL)
    return ReplayEngine(engine, plan)


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
        if isinstance(engine, ReplayEngine):
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
