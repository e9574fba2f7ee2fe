"""A trace replay on SSH hosts: the sweep's hosts, probed, laid out and started behind one barrier as for any
point (:class:`MultiHostEngine`), each host playing its own plan (the whole part, or its share of a split one) with
fio's ``read_iolog``. Each host's lanes (one iolog each) are put into its session's own folder over the session
that runs its points, before the first point (again into a session opened anew); fio runs in that folder, so the
iologs go when the session does. Every I/O's time counts from the common start: the gates open together, and
each lane's log times its I/Os from there. Each host's per-I/O submission log comes back over the same session.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ssdprof.fio.replay import iolog_text, lane_files, replay_limit_s, replay_options, version_refusal
from ssdprof.fio.replay_log import PER_IO_LOG_LIMIT, issue_times_of, log_rows
from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.workload import Workload
from ssdprof.remote.addresses import HostAddress
from ssdprof.remote.launch import FioCommand
from ssdprof.remote.multihost import MultiHostEngine
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.session import HostSession
from ssdprof.trace.plan import ReplayPlan

__all__ = ["ISSUED_LOG", "ReplayOnHosts"]

ISSUED_LOG = "ssdprof-issued"
"""The per-I/O submission logs' name on a host (fio_wrapper.sh sends back and removes ``ssdprof-issued_*.log``)."""


class ReplayOnHosts(MultiHostEngine):
    """The hosts, each replaying its plan from one common start."""

    def __init__(self, options: RemoteOptions, plans: dict[str, ReplayPlan]):
        super().__init__(options)
        self.plans = plans
        self.reason = (f"fio read_iolog on {len(options.hosts)} host(s) over SSH, started behind one barrier; "
                       f"lanes of one I/O each")
        self.issued_ns: dict[str, npt.NDArray[np.int64] | None] = {}
        """Per host, when each of its I/Os was issued (its plan's order; -1 not issued), once measured; None: not logged."""
        self._shipped: dict[str, HostSession] = {}

    def refusals(self) -> list[str]:
        """Hosts whose fio cannot replay a timed iolog."""
        found = []
        for name, probe in self.probes.items():
            refusal = version_refusal(probe.fio_version) if probe.fio_version else None
            if refusal:
                found.append(f"{name}: {refusal}")
        return found

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        self._ship()
        limit = max(replay_limit_s(plan) for plan in self.plans.values())
        measured = super().measure(workload.model_copy(update={"runtime_s": limit, "ramp_s": 0.0}), path,
                                   is_device=is_device, on_progress=on_progress, cancel=cancel)
        self.issued_ns = {run.host.name: self._issued(run.host.name, run.issued) for run in self.last_runs}
        first = self.options.hosts[0].name
        job = replay_options(self.plans[first], self.targets.get(first, ""), ioengine=measured.engine.ioengine,
                             direct=workload.direct, is_device=first in self.options.devices)
        engine = measured.engine.model_copy(update={"reason": self.reason, "effective_queue_depth": 1})
        return measured.model_copy(update={"engine": engine, "job_text": job.as_job_file()})

    def _ship(self) -> None:
        """Each host's iologs into its session's folder, where a session has not had them yet."""
        assert self._launch is not None, "prepare() opens the hosts' sessions"
        launch = self._launch
        pending = [(host, launch.session(host)) for host in self.options.hosts]
        pending = [(host, session) for host, session in pending if self._shipped.get(host.name) is not session]

        with ThreadPoolExecutor(max_workers=min(len(pending), 16) or 1) as pool:
            list(pool.map(self._ship_to, (session for _, session in pending)))

    def _ship_to(self, session: HostSession) -> None:
        plan = self.plans[session.host.name]
        for lane, name in enumerate(lane_files(plan.lanes)):
            session.put_file(name, iolog_text(plan, lane))
        self._shipped[session.host.name] = session

    def _command(self, host: HostAddress, workload: Workload) -> FioCommand:
        plan = self.plans[host.name]
        logged = len(plan.records) <= PER_IO_LOG_LIMIT
        options = replay_options(plan, self.targets[host.name], ioengine=self._plan(self.probes[host.name], workload).ioengine,
                                 direct=workload.direct, is_device=host.name in self.options.devices,
                                 extra=(f"write_lat_log={ISSUED_LOG}", "log_offset=1") if logged else ())
        counted = self.counted.get(host.name)
        return FioCommand(options.as_argv(), jobs=plan.lanes, health=f"{counted[0]}:{counted[1]}" if counted else "")

    def _issued(self, name: str, logs: dict[str, list[str]]) -> npt.NDArray[np.int64] | None:
        plan = self.plans[name]
        if len(plan.records) > PER_IO_LOG_LIMIT:
            return None
        return issue_times_of(plan, (log_rows(lines) for _, lines in sorted(logs.items())))
