"""Hosts watched during a run without running any I/O: monitor-only hosts (Ceph OSD or MON nodes,
any server behind the target), where a wall the clients cannot see usually sits.

Each watched host gets one SSH session for the whole sweep, over the same shared connection the
clients' sessions use (:class:`~ssdprof.remote.ssh.Ssh`): ``watch.sh`` beside this module probes the
host once (its NICs, their shaping) and then prints its CPU, network per interface and disks every
second until the session ends, kept alive by ssdprof's heartbeat like every host-side program. Each
point takes the seconds within its own span (:meth:`Watch.point`); what they add up to, and the
verdicts, are :mod:`ssdprof.remote.watch_verdicts`'.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ssdprof.model.results import MonitorSample, ValidityWarning, WatchedHost
from ssdprof.remote.addresses import HostAddress
from ssdprof.remote.heartbeat import SEND_LOCK, beat, host_program, send_line
from ssdprof.remote.monitor import MonitorParser
from ssdprof.remote.probe import HostProbe, parse_probe
from ssdprof.remote.ssh import Ssh, explain_ssh_failure
from ssdprof.remote.watch_verdicts import describe_watched, watched_warnings
from ssdprof.target.processes import end_with_parent

__all__ = ["PROBE_TIMEOUT_S", "Watch", "Watcher"]

PROBE_TIMEOUT_S = 60.0
"""The probe starts a few small programs (tc, ip): seconds even on a loaded host."""
_KEEP_S = 3600.0
"""Seconds kept between points, for a point that asks late; older ones are let go (a long sweep)."""


@dataclass
class Watcher:
    """One watched host's session and the samples it has sent, each with the moment it arrived
    (ssdprof's clock)."""

    host: HostAddress
    process: subprocess.Popen[str]
    probe: HostProbe = field(default_factory=lambda: HostProbe(reachable=False))
    probed: threading.Event = field(default_factory=threading.Event)
    samples: list[tuple[int, MonitorSample]] = field(default_factory=list)
    stderr_lines: list[str] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)
    on_sample: Callable[[MonitorSample], None] | None = None

    def __post_init__(self) -> None:
        self._parser = MonitorParser(self.host.name)
        self._probe_lines: list[str] = []
        self._lock = threading.Lock()

    def read(self, stdout: IO[str]) -> None:
        try:
            for raw in stdout:
                self._line(raw.rstrip("\n"))
        except (OSError, ValueError):  # the session's end: what arrived until then is kept
            pass
        finally:
            self.ended.set()
            self.probed.set()

    def _line(self, line: str) -> None:
        if not self.probed.is_set():
            if line == "ssdprof-probed":
                self.probe = parse_probe("\n".join(self._probe_lines))
                self.probed.set()
            else:
                self._probe_lines.append(line)
            return
        if line.startswith("ssdprof-mon ") and (
            sample := self._parser.feed(line.removeprefix("ssdprof-mon "))
        ):
            with self._lock:
                self.samples.append((time.time_ns(), sample))
            if self.on_sample is not None:
                self.on_sample(sample)

    def between(self, start_ns: int, end_ns: int) -> list[MonitorSample]:
        """The seconds that ended within [start_ns, end_ns], re-timed from ``start_ns``; older ones
        let go."""
        with self._lock:
            self.samples = [(t, s) for t, s in self.samples if t >= end_ns - _KEEP_S * 1e9]
            chosen = [(t, s) for t, s in self.samples if start_ns <= t <= end_ns]
        return [
            s.model_copy(update={"elapsed_s": round((t - start_ns) / 1e9, 3)}) for t, s in chosen
        ]

    def failure(self) -> str:
        """Why the host is not (or no longer) watched, in ssh's words where it gave them."""
        name = self.host.name
        if self.probed.is_set() and not self.ended.is_set():
            return ""
        if not self.ended.is_set():
            return f"{name}: no answer to the probe within {PROBE_TIMEOUT_S:.0f} s"
        stderr = "\n".join(line for line in self.stderr_lines if not line.startswith("ssdprof-"))
        if self.process.poll() == 255:
            return explain_ssh_failure(self.host, stderr)
        said = (stderr.strip().splitlines() or ["no output"])[-1][:300]
        return f"{name}: its watch session ended ({said})"


class Watch:
    """The watched hosts of a sweep: their sessions, opened together and kept until :meth:`end`."""

    def __init__(
        self, ssh: Ssh, hosts: list[HostAddress], link_gbps: dict[str, float] | None = None
    ):
        self.ssh = ssh
        self.hosts = hosts
        self.link_gbps = link_gbps or {}
        self.watchers: dict[str, Watcher] = {}
        self._processes: list[subprocess.Popen[str]] = []
        self._finished = threading.Event()

    def start(self, on_sample: Callable[[MonitorSample], None] | None = None) -> None:
        """Opens every host's session (their probes run while the caller does other work)."""
        program = host_program("watch.sh", probe=True)
        for host in self.hosts:
            argv = self.ssh.argv(host, ["sh", "-c", program, "ssdprof-watch"])
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                bufsize=1,
                start_new_session=True,
                preexec_fn=end_with_parent(),  # noqa: PLW1509 - one prctl
            )
            watcher = Watcher(host, process, on_sample=on_sample)
            assert process.stdout is not None and process.stderr is not None
            threading.Thread(target=watcher.read, args=(process.stdout,), daemon=True).start()
            threading.Thread(
                target=_collect, args=(process.stderr, watcher.stderr_lines), daemon=True
            ).start()
            self.watchers[host.name] = watcher
            self._processes.append(process)
        threading.Thread(target=beat, args=(self._processes, self._finished), daemon=True).start()

    def wait_probed(self, timeout_s: float = PROBE_TIMEOUT_S) -> dict[str, HostProbe]:
        """Every watched host's probe, once each has answered (or failed, or the time ran out)."""
        deadline = time.monotonic() + timeout_s
        for watcher in self.watchers.values():
            watcher.probed.wait(max(deadline - time.monotonic(), 0.0))
        return {name: watcher.probe for name, watcher in self.watchers.items()}

    def point(
        self, start_ns: int, end_ns: int
    ) -> tuple[list[WatchedHost], list[MonitorSample], list[ValidityWarning]]:
        """What each watched host did between ``start_ns`` and ``end_ns`` (ssdprof's clock: the
        point's measured span), its seconds, and the verdicts they give."""
        watched, samples = [], []
        for name, watcher in self.watchers.items():
            seconds = watcher.between(start_ns, end_ns)
            watched.append(
                describe_watched(
                    name,
                    watcher.probe,
                    seconds,
                    self.link_gbps.get(name),
                    error=watcher.failure() or None,
                )
            )
            samples += seconds
        return watched, samples, watched_warnings(watched)

    def end(self) -> None:
        """Closes every session (the host's side ends its sampler when its stdin closes)."""
        self._finished.set()
        for watcher in self.watchers.values():
            send_line(watcher.process, "end")
            try:
                with SEND_LOCK:
                    if watcher.process.stdin is not None:
                        watcher.process.stdin.close()
            except OSError:
                pass
        for watcher in self.watchers.values():
            try:
                watcher.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                watcher.process.kill()
                watcher.process.wait(timeout=5)


def _collect(stream: IO[str], lines: list[str]) -> None:
    try:
        for raw in stream:
            if len(lines) < 200:
                lines.append(raw.rstrip("\n"))
    except (OSError, ValueError):
        pass
