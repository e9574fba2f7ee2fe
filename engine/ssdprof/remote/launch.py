"""fio on several hosts at once over SSH, with a synchronised start, in one session per host for a whole sweep.

Each host runs a small POSIX-sh program (``fio_wrapper.sh`` beside this module, put together by
:func:`ssdprof.remote.heartbeat.host_program`) for every point of the sweep: its SSH session (and the
host's login shell, which costs ~0.2 s of CPU on a host whose .bashrc does work) is opened once, while
the hosts are probed and their files laid out, not once per point. Per point, ssdprof sends each host
fio's argument list (one argument a line: quoting stays at the SSH boundary); the host starts fio at
once, and each of fio's jobs does its set-up (fio's start-up costs ~0.3 s of CPU) and then waits at a
gate just before its first I/O. Once every job on every host waits there, ssdprof writes the same
"go AT" to all hosts: AT is a moment a little ahead, on each host's clock, when each host opens its
gate. Each job reads the host's clock as its gate opens, right before fio's I/O loop; the start skew
is the spread of those instants over every job of every host, in ssdprof's clock. fio 3.33 reports no
start time of its own; its first I/O follows once the job's process next gets a CPU (bench/multihost.py
checks the figure against fio's per-I/O log). The wrapper reports fio's PID, samples CPU and network every second, and
ends fio by that PID when told to cancel, when the SSH connection drops (stdin closes), or when
ssdprof's once-a-second heartbeat stops arriving. A session that ended (a lost host) is opened again
for the next point.
"""

from __future__ import annotations

import functools
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ssdprof.model.results import ProgressSample
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.heartbeat import SEND_LOCK, beat, send_line
from ssdprof.remote.host_run import HostRun, last_error
from ssdprof.remote.session import HostSession
from ssdprof.remote.ssh import OPENING_RETRIES_S, Ssh

__all__ = ["FioCommand", "HostRun", "Launch", "start_lead_ns", "start_skew_ms"]

_GRACE_S = 60.0
_READY_TIMEOUT_S = 30.0
_OPEN_TIMEOUT_S = 60.0
"""A session's first answer: a login on an emulated host under load took over 20 s."""
_ARMED_TIMEOUT_S = 120.0
"""fio's start-up on every host before the start: ~0.3 s of CPU each, longer on a loaded host or with rbd."""
MIN_LEAD_NS = 30_000_000
"""How far ahead the start is set at least: long enough for "go" to reach every host on a quiet LAN."""
MAX_LEAD_NS = 1_000_000_000


@dataclass(frozen=True)
class FioCommand:
    """fio's argument list on one host, and how many jobs (processes) it runs: each waits at the start gate."""

    argv: list[str]
    jobs: int
    health: str = ""
    """MAJOR:MINOR of the device counting the point's I/O, whose disk is asked for its own word ('' for none)."""


def start_lead_ns(round_trips_ns: list[int]) -> int:
    """How far ahead of now the start is set: twice the slowest host's answer to "run", within bounds."""
    return min(max(MIN_LEAD_NS, 2 * max(round_trips_ns, default=0)), MAX_LEAD_NS)


class Launch:
    """One session per host, opened ahead of time (while the test files are laid out) and kept for every
    point of the sweep: a point costs no SSH session and no login shell."""

    def __init__(self, ssh: Ssh, hosts: list[HostAddress], *, confirm: bool = True):
        """``confirm``: wait here until every host's session answers; otherwise each is waited for when
        first used (the first point), so the sessions open while the caller does other work (the layouts)."""
        self.ssh = ssh
        self.hosts = hosts
        self.sessions: dict[str, HostSession] = {}
        self._unconfirmed: set[str] = set()
        self._processes: list[subprocess.Popen[str]] = []
        self._finished = threading.Event()
        self._ended = False
        try:
            for host in hosts:
                self._open(host)
            self._unconfirmed = {host.name for host in hosts}
            threading.Thread(target=beat, args=(self._processes, self._finished), daemon=True).start()
            if confirm:
                for host in hosts:  # each waits for its own session's answer; the others open meanwhile
                    self.session(host)
        except BaseException:
            self.end()
            raise

    def run(self, commands: dict[str, FioCommand], *, ramp_s: float, duration_s: float,
            on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> list[HostRun]:
        """One point on every host: fio started on each up to its gate, one start time for all, until every host is done."""
        if self._ended:
            raise HostError("the hosts' sessions are closed")
        runs = []
        for host in self.hosts:
            session = self.session(host)
            run = HostRun(host, ramp_s=ramp_s, master_reason=functools.partial(self.ssh.master_reason, host))
            session.current, session.on_progress = run, on_progress
            runs.append(run)
        sent_ns = time.time_ns()
        for run in runs:
            command = commands[run.host.name]
            bad = next((arg for arg in command.argv if "\n" in arg or "\r" in arg), None)
            if bad is not None:
                raise HostError(f"{run.host.name}: a fio argument holds a line break, which ssdprof never sends: {bad[:80]!r}")
            head = f"run {len(command.argv)} {command.jobs} {command.health}".rstrip()
            send_line(self.sessions[run.host.name].process, "\n".join([head, *command.argv]))
        self._wait_ready(runs, sent_ns)
        round_trips = [run.ready_local_ns - sent_ns for run in runs if run.ready_local_ns is not None]
        if not self._wait_armed(runs, cancel):
            self._supervise(runs, 0.0, cancel)  # cancelled while fio started: each host ends its fio, no "go" is sent
            return runs
        start_ns = time.time_ns() + start_lead_ns(round_trips)
        for run in runs:  # the barrier: every job waits at its gate; one start time for all, on each host's clock
            send_line(self.sessions[run.host.name].process, f"go {start_ns + run.clock_offset_ns}")
        self._supervise(runs, duration_s + _GRACE_S, cancel)
        return runs

    def session(self, host: HostAddress) -> HostSession:
        """The host's session for the next point: opened again when it was lost at an earlier point."""
        if self._ended:
            raise HostError("the hosts' sessions are closed")
        if host.name in self._unconfirmed:
            self._unconfirmed.discard(host.name)
            return self._confirmed(host)
        session = self.sessions[host.name]
        if session.alive():
            return session
        self._open(host)
        return self._confirmed(host)

    def end(self) -> None:
        """Closes every session (a wrapper waiting for a point then exits; one running ends fio)."""
        if self._ended:
            return
        self._ended = True
        self._finished.set()
        for session in self.sessions.values():  # every host told at once: they end side by side
            _hang_up(session.process)
        for session in self.sessions.values():
            _wait_or_kill(session.process)
        for session in self.sessions.values():
            for reader in session.readers:
                reader.join(timeout=15)

    def _open(self, host: HostAddress) -> HostSession:
        session = HostSession(self.ssh, host)
        self.sessions[host.name] = session
        self._processes.append(session.process)
        return session

    def _confirmed(self, host: HostAddress) -> HostSession:
        """The host's session once it answers; one sshd dropped while it was being opened (MaxStartups on a
        slow host) is opened again, a few times. One that still cannot be opened is left ended: the point
        then says what ended it."""
        session = self.sessions[host.name]
        for wait_s in OPENING_RETRIES_S:
            if session.confirm_open(_OPEN_TIMEOUT_S) or not session.dropped_while_opening():
                return session
            time.sleep(wait_s)
            session = self._open(host)
        session.confirm_open(_OPEN_TIMEOUT_S)
        return session

    def _wait_ready(self, runs: list[HostRun], sent_ns: int) -> None:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        pending = list(runs)
        while pending:
            for run in list(pending):
                if run.ready.is_set():
                    pending.remove(run)
                    received_ns = run.ready_local_ns or sent_ns
                    run.clock_offset_ns = clock_offset_ns(sent_ns, run.ready_clock_ns, received_ns)
                    if run.ready_clock_ns is not None:
                        run.clock_measured_ns = run.ready_clock_ns - (sent_ns + received_ns) // 2
                        run.clock_bound_ns = (received_ns - sent_ns) // 2
            if not pending:
                break
            if time.monotonic() > deadline:
                run = pending[0]
                raise HostError(f"{run.host.name}: not ready to start within {_READY_TIMEOUT_S:.0f} s: {last_error(run.stderr_lines)}")
            pending[0].ready.wait(0.002)
        for run in runs:
            if run.returncode is not None:
                raise HostError(run.ssh_failure() if run.returncode == 255
                                else f"{run.host.name}: its session ended before the start: {last_error(run.stderr_lines)}")

    def _wait_armed(self, runs: list[HostRun], cancel: threading.Event) -> bool:
        """Until every host's fio jobs wait at the gate (True), or a cancel (False); a fio that ended first reports
        its error as its result."""
        deadline = time.monotonic() + _ARMED_TIMEOUT_S
        for run in runs:
            while not cancel.is_set() and not run.armed.wait(0.05):
                if time.monotonic() > deadline:
                    raise HostError(f"{run.host.name}: fio not ready to start within {_ARMED_TIMEOUT_S:.0f} s: "
                                    f"{last_error(run.stderr_lines)}")
            if cancel.is_set():
                return False
        return True

    def _supervise(self, runs: list[HostRun], limit_s: float, cancel: threading.Event) -> None:
        deadline = time.monotonic() + limit_s
        cancelled = False
        while not all(run.done.is_set() for run in runs):
            if (cancel.is_set() or time.monotonic() > deadline) and not cancelled:
                cancelled = True
                for run in runs:
                    run.stopped = cancel.is_set()  # asked for, unlike a fio that overran its time
                    send_line(self.sessions[run.host.name].process, "cancel")  # the wrapper ends fio by its PID
                deadline = time.monotonic() + 20
            elif cancelled and time.monotonic() > deadline:
                break
            next((run for run in runs if not run.done.is_set()), runs[0]).done.wait(0.05)


def start_skew_ms(runs: list[HostRun]) -> float | None:
    """The spread of the instants every job on every host was let through its gate, in ssdprof's clock; None when none was."""
    starts = [began - run.clock_offset_ns for run in runs for began in run.began_ns]
    return (max(starts) - min(starts)) / 1e6 if starts else None


def clock_offset_ns(sent_ns: int, host_ns: int | None, received_ns: int) -> int:
    """The host's clock minus ours from one exchange; 0 when they agree within half its round trip (one machine, NTP)."""
    if host_ns is None:
        return 0
    offset = host_ns - (sent_ns + received_ns) // 2
    return 0 if abs(offset) <= (received_ns - sent_ns) // 2 else offset


def _hang_up(process: subprocess.Popen[str]) -> None:
    """Closing stdin makes the remote wrapper end fio (if one runs) and its session; then the local ssh ends."""
    try:
        with SEND_LOCK:
            if process.stdin is not None:
                process.stdin.close()
    except OSError:
        pass


def _wait_or_kill(process: subprocess.Popen[str]) -> None:
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)
