"""fio on several hosts at once over SSH, with a synchronised start.

Each host runs a small POSIX-sh wrapper (``fio_wrapper.sh`` beside this module, put together by
:func:`ssdprof.remote.heartbeat.host_program`) that reports readiness, waits for a "go" line on
stdin, starts fio (by argument list, quoted once at the SSH boundary), reports fio's PID and the
host's clock at start, samples CPU and network every second, and ends fio by that PID when told
to cancel, when the SSH connection drops (stdin closes), or when ssdprof's once-a-second heartbeat
stops arriving: a link that goes down leaves the host's sshd none the wiser, and fio would
otherwise run to its end with its output going nowhere. "go" is written to every host at once,
so the start skew is the spread of SSH delivery, and it is measured from the hosts' own clocks.
When fio ends, the wrapper ends its helpers and their sleeps, so nothing is left on the host and
the SSH session closes at once. Commands travel over the run's shared connection per host
(:meth:`ssdprof.remote.ssh.Ssh.open_masters`) when it is up.
"""

from __future__ import annotations

import functools
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ssdprof.fio.output import FioOutputError, combine, parse_report
from ssdprof.fio.progress import DocumentStream, ProgressTracker
from ssdprof.model.results import HostResult, MonitorSample, ProgressSample
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.heartbeat import SEND_LOCK, beat, host_program, send_line
from ssdprof.remote.monitor import MonitorParser
from ssdprof.remote.ssh import Ssh, explain_ssh_failure

__all__ = ["HostRun", "Launch", "fio_argv_from_job"]

_GRACE_S = 60.0


def fio_argv_from_job(job_text: str) -> list[str]:
    """The job file's options as fio command-line options (one job named ssdprof)."""
    options = [line.strip() for line in job_text.splitlines()
               if line.strip() and not line.startswith((";", "#", "["))]
    return ["fio", "--output-format=json+", "--status-interval=1", "--name=ssdprof", *(f"--{option}" for option in options)]


@dataclass
class HostRun:
    """One host's part of a run, filled in by its reader threads."""

    host: HostAddress
    stream: DocumentStream = field(default_factory=DocumentStream)
    stderr_lines: list[str] = field(default_factory=list)
    fio_pid: int | None = None
    start_epoch_ns: int | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    monitor: list[MonitorSample] = field(default_factory=list)
    fio_exit: int | None = None
    """fio's exit status as the wrapper saw it; None when the connection ended first."""
    returncode: int | None = None
    master_reason: Callable[[], str] = lambda: ""
    """Why the shared SSH connection ended, when it did (Ssh.master_reason)."""

    def ssh_failure(self) -> str:
        return explain_ssh_failure(self.host, "\n".join(self.stderr_lines), self.master_reason())

    def result(self) -> HostResult:
        name = self.host.name
        try:
            report = parse_report(self.stream.text)
        except FioOutputError:
            reason = self.ssh_failure() if self.returncode == 255 else (
                _last_error(self.stderr_lines) or f"{name}: fio produced no result (exit status {self.returncode})")
            return HostResult(host=name, error=reason, start_epoch_ns=self.start_epoch_ns)
        error = None
        if self.fio_exit is None and self.returncode is not None:
            error = self.ssh_failure() + " (mid-run; data up to then kept)"
        elif any(j.error for j in report.jobs):
            error = f"{name}: fio reported error {sorted({j.error for j in report.jobs if j.error})}"
        elif self.fio_exit:
            error = f"{name}: fio {_ending(self.fio_exit)} mid-run; its data up to then kept"
        return HostResult(host=name, jobs=len(report.jobs), read=combine(j.read for j in report.jobs),
                          write=combine(j.write for j in report.jobs), error=error, start_epoch_ns=self.start_epoch_ns)


class Launch:
    """One point's wrapper on every host, connected and waiting for "go". Starting it ahead of time (while
    the test files are laid out) takes its SSH session and login shell off the run's critical path."""

    def __init__(self, ssh: Ssh, commands: dict[str, list[str]], hosts: list[HostAddress], *, ramp_s: float):
        self.commands = commands
        self.ramp_s = ramp_s
        self.runs = [HostRun(host, master_reason=functools.partial(ssh.master_reason, host)) for host in hosts]
        self.on_progress: Callable[[ProgressSample], None] | None = None
        self._processes: list[subprocess.Popen[str]] = []
        self._readers: list[threading.Thread] = []
        self._finished = threading.Event()
        self._ended = False
        try:
            for run in self.runs:
                argv = ssh.argv(run.host, ["sh", "-c", host_program("fio_wrapper.sh"), "ssdprof-run", *commands[run.host.name]])
                process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True, bufsize=1, start_new_session=True)
                self._processes.append(process)
                self._readers += _start_readers(run, process, ramp_s, self._progress)
        except BaseException:
            self.end()
            raise
        threading.Thread(target=beat, args=(self._processes, self._finished), daemon=True).start()

    def matches(self, commands: dict[str, list[str]], ramp_s: float) -> bool:
        return not self._ended and commands == self.commands and ramp_s == self.ramp_s

    def run(self, *, duration_s: float, on_progress: Callable[[ProgressSample], None] | None,
            cancel: threading.Event) -> list[HostRun]:
        self.on_progress = on_progress
        try:
            _wait_ready(self.runs, self._processes)
            for process in self._processes:  # the barrier: every host is connected and waiting
                send_line(process, "go")
            _supervise(self.runs, self._processes, duration_s + _GRACE_S, cancel)
        finally:
            self.end()
        return self.runs

    def end(self) -> None:
        """Closes every connection (a wrapper still waiting for "go" then exits; one running ends fio)."""
        if self._ended:
            return
        self._ended = True
        self._finished.set()
        for process in self._processes:
            _close(process)
        for reader in self._readers:
            reader.join(timeout=15)
        for run, process in zip(self.runs, self._processes, strict=False):
            run.returncode = process.returncode

    def _progress(self, sample: ProgressSample) -> None:
        if self.on_progress is not None:
            self.on_progress(sample)


def _start_readers(run: HostRun, process: subprocess.Popen[str], ramp_s: float,
                   on_progress: Callable[[ProgressSample], None] | None) -> list[threading.Thread]:
    tracker = ProgressTracker(ramp_s=ramp_s)
    assert process.stdout is not None and process.stderr is not None

    def read_stdout(stdout: IO[str]) -> None:
        for line in stdout:
            for document in run.stream.feed(line):
                for sample in tracker.update(document):
                    if on_progress:
                        on_progress(sample.model_copy(update={"host": run.host.name}))

    monitor = MonitorParser(run.host.name)

    def read_stderr(stderr: IO[str]) -> None:
        for raw in stderr:
            line = raw.rstrip("\n")
            if line == "ssdprof-ready":
                run.ready.set()
            elif line.startswith("ssdprof-start "):
                value = line.split()[1]
                run.start_epoch_ns = int(value) if value.isdigit() else None
            elif line.startswith("ssdprof-pid "):
                run.fio_pid = int(line.split()[1])
            elif line.startswith("ssdprof-exit "):
                run.fio_exit = int(line.split()[1])
            elif line.startswith("ssdprof-mon "):
                sample = monitor.feed(line.removeprefix("ssdprof-mon "))
                if sample is not None:
                    run.monitor.append(sample)
            else:
                run.stderr_lines.append(line)
        run.ready.set()  # the connection ended: nobody is waiting any more

    threads = [threading.Thread(target=read_stdout, args=(process.stdout,), daemon=True),
               threading.Thread(target=read_stderr, args=(process.stderr,), daemon=True)]
    for thread in threads:
        thread.start()
    return threads


def _wait_ready(runs: list[HostRun], processes: list[subprocess.Popen[str]], timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    for run, process in zip(runs, processes, strict=True):
        if not run.ready.wait(max(deadline - time.monotonic(), 0)) or process.poll() is not None:
            process.wait(timeout=5) if process.poll() is None else None
            raise HostError(run.ssh_failure() if process.returncode == 255
                            else f"{run.host.name}: not ready to start within {timeout_s:.0f} s: {_last_error(run.stderr_lines)}")


def _supervise(runs: list[HostRun], processes: list[subprocess.Popen[str]], limit_s: float, cancel: threading.Event) -> None:
    deadline = time.monotonic() + limit_s
    cancelled = False
    while any(p.poll() is None for p in processes):
        if (cancel.is_set() or time.monotonic() > deadline) and not cancelled:
            cancelled = True
            for process in processes:
                send_line(process, "cancel")  # the wrapper ends fio by its PID; fio still prints its JSON
            deadline = time.monotonic() + 20
        elif cancelled and time.monotonic() > deadline:
            break
        time.sleep(0.05)


def _close(process: subprocess.Popen[str]) -> None:
    """Closing stdin makes the remote wrapper end fio; then the local ssh ends."""
    try:
        with SEND_LOCK:
            if process.stdin is not None:
                process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


_ERROR = re.compile(r"(error|fio:|denied|not found|no such|refused|cannot)", re.IGNORECASE)


def _ending(status: int) -> str:
    """How fio ended, from its exit status as a POSIX shell reports it (128 + signal when killed)."""
    if status > 128:
        try:
            return f"was killed by {signal.Signals(status - 128).name}"
        except ValueError:
            return f"was killed by signal {status - 128}"
    return f"ended with exit status {status}"


def _last_error(lines: list[str]) -> str:
    errors = [line for line in lines if _ERROR.search(line)]
    return (errors or lines or ["no output"])[-1][:300]
