"""One workload on many hosts at once: checks every host before anything starts, lays out a
test file (or fills an RBD image) on each, runs fio behind one barrier, and cleans up.

Per host, one shared SSH connection carries one keeper session (:mod:`ssdprof.remote.keeper`: probe,
layout, and the test file's removal) and one session per point (:mod:`ssdprof.remote.launch`). Each host's
target, and the test files to remove, in :mod:`ssdprof.remote.host_targets`; what a lost host kept is written
down (:mod:`ssdprof.remote.leftovers`) and removed by the next run reaching it.

Satisfies the runner's engine interface, plus ``prepare`` and ``cleanup`` for the remote side.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ssdprof import __version__
from ssdprof.fio.jobfile import FioPlan, job_file, job_options
from ssdprof.model.results import (
    ClusterFacts,
    EngineInfo,
    Environment,
    Measurement,
    MonitorSample,
    ProgressSample,
    ValidityWarning,
    WatchedHost,
)
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.ceph import ask_cluster_facts
from ssdprof.remote.host_results import KnownHosts, host_result, point_warnings
from ssdprof.remote.host_run import HostRun
from ssdprof.remote.host_targets import HostTargets
from ssdprof.remote.keeper import Keepers
from ssdprof.remote.launch import FioCommand, Launch, start_skew_ms
from ssdprof.remote.leftovers import Leftovers
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.probe import HostProbe
from ssdprof.remote.ssh import Ssh
from ssdprof.remote.watch import Watch
from ssdprof.target.environment import device_environment

__all__ = ["MultiHostEngine"]


class MultiHostEngine:
    name = "fio"

    def __init__(self, options: RemoteOptions):
        self.options = options
        self.ssh = Ssh(options.ssh)
        self.reason = f"fio on {len(options.hosts)} host(s) over SSH, started behind one barrier"
        self.probes: dict[str, HostProbe] = {}
        self.cluster: ClusterFacts | None = None
        self.counted: dict[str, tuple[int, int]] = {}
        """Per host, (major, minor) of the device whose /proc/diskstats line counts its I/O."""
        self.keepers = Keepers(self.ssh)
        self.leftovers = Leftovers(options.ssh.leftovers)
        self.host_targets = HostTargets(options, self.ssh, self.keepers, self.leftovers)
        self._launch: Launch | None = None
        self.last_runs: list[HostRun] = []
        """Each host's part of the point measured last, as its session read it."""
        self.watch = Watch(self.ssh, options.watch, options.link_gbps) if options.watch else None

    @property
    def targets(self) -> dict[str, str]:
        """Each host's test file, RBD image or device, by host name."""
        return self.host_targets.by_host

    @property
    def laid_out(self) -> dict[str, str]:
        """What prepare wrote before the first point, by host (never a device)."""
        return self.host_targets.laid_out

    @property
    def tool_versions(self) -> dict[str, str]:
        return {f"fio@{name}": probe.fio_version for name, probe in self.probes.items()}

    def prepare(self, spec: SweepSpec) -> Environment:
        """Fail fast, with every host's reason, before anything is written anywhere."""
        hosts = self.options.hosts
        self.ssh.open_masters([*hosts, *self.options.watch])  # closed in close()
        self.ssh.wait_masters()
        size = max(p.size_bytes for p in spec.points)
        pending = {h.name: self.leftovers.pending(self.ssh.destination(h)) for h in hosts}
        targets = self.host_targets
        keepers = [self.keepers.start(h, leftovers=pending[h.name], target=targets.choose(h), layout=targets.layout_argv(h, size),
                                      counted=targets.counted(h))
                   for h in hosts]  # first: every host's probe is on the way before anything else starts
        if self.watch is not None:
            self.watch.start()  # probed beside the clients; one not reached is named, not fatal
        # Its sessions and login shells start while the hosts are probed, and are waited for at the first point
        # (the files are laid out meanwhile).
        self._launch = Launch(self.ssh, hosts, confirm=False)
        with ThreadPoolExecutor(max_workers=min(len(hosts), 16)) as pool:
            self.probes = dict(zip([h.name for h in hosts], pool.map(lambda k: k.read_probe(), keepers), strict=True))
        for host in hosts:
            if self.probes[host.name].reachable:
                self.leftovers.forget(self.ssh.destination(host), pending[host.name])
        problems = [p.error for p in self.probes.values() if not p.reachable]
        problems += [f"{name}: fio is not installed there" for name, p in self.probes.items() if p.reachable and not p.fio_version]
        if self.options.rbd:
            problems += [f"{name}: this fio has no rbd engine" for name, p in self.probes.items()
                         if p.fio_version and "rbd" not in p.fio_engines]
        problems += self.refusals()
        if problems:
            raise HostError("; ".join(problems))
        if self.watch is not None:
            self.watch.wait_probed()
        devices = targets.check_devices(spec)  # still nothing written anywhere
        targets.to_remove = {k.host.name: k.target for k in keepers if k.target}  # from here on, a file may exist
        with ThreadPoolExecutor(max_workers=min(len(hosts), 16)) as pool:
            list(pool.map(lambda k: k.lay_out(), keepers))
        self.counted = {k.host.name: k.counted for k in keepers if k.counted is not None}
        admin = next((h for h in hosts if "ceph" in self.probes[h.name].ceph_tools), None)
        self.cluster = ask_cluster_facts(self.ssh, admin, self.options.rbd) if admin is not None else None
        facts = device_environment(devices[0]) if devices else {}  # the first host's device describes the run
        return Environment(os=f"{len(hosts)} remote host(s)", hostname=",".join(h.name for h in hosts), ssdprof=__version__,
                           tool_versions=self.tool_versions, cluster=self.cluster).model_copy(update=facts)

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        if self._launch is None:
            self._launch = Launch(self.ssh, self.options.hosts)
        samples: list[ProgressSample] = []  # kept with the result: the per-second series of every host

        def note(sample: ProgressSample) -> None:
            samples.append(sample)  # list.append is atomic: each host's reader thread adds its own
            if on_progress is not None:
                on_progress(sample)

        asked_ns = time.time_ns()
        runs = self._launch.run(self._commands(workload), ramp_s=workload.ramp_s,
                                duration_s=workload.duration_s(), on_progress=note, cancel=cancel)
        self.last_runs = runs
        known = KnownHosts(self.probes, self.targets, self.counted, self.options.link_gbps)
        hosts = [host_result(run, known, workload) for run in runs]
        skew_ms = start_skew_ms(runs)
        warnings = [ValidityWarning(code="remote_cleanup", message=problem, concerns=[f"hosts.{h.host}"])
                    for h in hosts if h.error and (problem := self.host_targets.remove(h.host))]
        warnings += point_warnings(hosts, runs, skew_ms, workload)
        watched, watched_seconds = self._watched(runs, asked_ns, workload, warnings)
        plan = self._plan(next(iter(self.probes.values())), workload)
        return Measurement(
            engine=EngineInfo(name="fio", version=", ".join(sorted({p.fio_version for p in self.probes.values()})),
                              ioengine=plan.ioengine, reason=self.reason, effective_queue_depth=plan.iodepth, direct=workload.direct),
            hosts=hosts, raw_output="\n".join(f"### host {run.host.name}\n{run.stream.text}" for run in runs),
            errors=[h.error for h in hosts if h.error], cancelled=cancel.is_set(),
            monitor=[s for run in runs for s in run.monitor] + watched_seconds, watched=watched,
            start_skew_ms=skew_ms, extra_warnings=warnings,
            progress=sorted(samples, key=lambda s: (s.elapsed_s, s.host)),
            job_text=job_file(workload, self.targets.get(self.options.hosts[0].name), plan,
                              extra_options=self._target_options(self.options.hosts[0]),
                              is_device=self.options.hosts[0].name in self.options.devices, hosts=len(self.options.hosts)),
        )

    def refusals(self) -> list[str]:
        """Why a probed host cannot run this engine's points (beyond fio missing), by host; none here."""
        return []

    def cleanup(self) -> list[str]:
        """Remove every test file we created, on all hosts at once; returns why that failed where it did."""
        problems = self.host_targets.remove_all()
        self.keepers.stop()  # the rest (RBD images are kept) end without removing anything
        return problems

    def close(self) -> None:
        """End the keepers and the shared SSH connections (after cleanup, which uses them)."""
        if self._launch is not None:
            self._launch.end()
            self._launch = None
        if self.watch is not None:
            self.watch.end()
        self.keepers.stop()
        self.ssh.close_masters()

    # --------------------------------------------------------------------------------------------

    def _watched(self, runs: list[HostRun], asked_ns: int, workload: Workload,
                 warnings: list[ValidityWarning]) -> tuple[list[WatchedHost], list[MonitorSample]]:
        """The watched hosts over the point's measured span: from the clients' start (their gates,
        in our clock) after the ramp, to now (every fio has ended); their verdicts added to
        ``warnings``."""
        if self.watch is None:
            return [], []
        starts = [began - run.clock_offset_ns for run in runs for began in run.began_ns]
        start_ns = (min(starts) if starts else asked_ns) + int(workload.ramp_s * 1e9)
        watched, seconds, verdicts = self.watch.point(start_ns, time.time_ns())
        warnings += verdicts
        return watched, seconds

    def _plan(self, probe: HostProbe, workload: Workload) -> FioPlan:
        if self.options.rbd is not None:
            return FioPlan("rbd", workload.queue_depth, workload.numjobs, "fio's rbd engine (librbd)")
        for engine in ("libaio", "io_uring"):
            if engine in probe.fio_engines:
                return FioPlan(engine, workload.queue_depth, workload.numjobs, f"{engine} on the host")
        return FioPlan("psync", 1, workload.outstanding_ios, "psync on the host: queue depth realised as jobs")

    def _target_options(self, host: HostAddress) -> tuple[str, ...]:
        return tuple(self.options.rbd.fio_options(host.name)) if self.options.rbd else ()

    def _commands(self, workload: Workload) -> dict[str, FioCommand]:
        return {host.name: self._command(host, workload) for host in self.options.hosts}

    def _command(self, host: HostAddress, workload: Workload) -> FioCommand:
        plan = self._plan(self.probes[host.name], workload)
        rbd = self.options.rbd
        options = job_options(workload.model_copy(update={"direct": False}) if rbd else workload,
                              None if rbd else self.targets[host.name], plan,
                              extra_options=self._target_options(host),
                              is_device=host.name in self.options.devices, hosts=len(self.options.hosts))
        counted = None if rbd else self.counted.get(host.name)
        return FioCommand(["env", *(rbd.env() if rbd else []), *options.as_argv()], jobs=plan.numjobs,
                          health=f"{counted[0]}:{counted[1]}" if counted else "")

