"""One host's part of one point (:class:`HostRun`): what its session's readers fill in as the point runs, and the
host's result it becomes."""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from ssdprof.fio.output import FioOutputError, combine, parse_report
from ssdprof.fio.progress import DocumentStream, ProgressTracker
from ssdprof.model.results import HostResult, MonitorSample
from ssdprof.remote.addresses import HostAddress
from ssdprof.remote.drive_word import DriveWord
from ssdprof.remote.monitor import MonitorParser
from ssdprof.remote.ssh import explain_ssh_failure

__all__ = ["FIO_INTERRUPTED_EXIT", "HostRun", "last_error"]

FIO_INTERRUPTED_EXIT = 128
"""fio's exit status when SIGINT ended it (it still prints its report)."""


@dataclass
class HostRun:
    """One host's part of one point, filled in by its session's reader threads."""

    host: HostAddress
    ramp_s: float = 0.0
    stream: DocumentStream = field(default_factory=DocumentStream)
    stderr_lines: list[str] = field(default_factory=list)
    fio_pid: int | None = None
    began_ns: list[int] = field(default_factory=list)
    """When each of fio's jobs was let through its start gate, by the host's clock, read by the gate right before fio's
    I/O loop (fio_wrapper.sh). The job's first I/O follows once its process next gets a CPU."""
    clock_offset_ns: int = 0
    """The host's clock minus ours, when the two clearly differ (0 when they agree within a round trip)."""
    clock_measured_ns: int | None = None
    clock_bound_ns: int | None = None
    """The offset as measured (even within the round trip) and half that round trip: what the result
    records."""
    ready: threading.Event = field(default_factory=threading.Event)
    ready_clock_ns: int | None = None
    ready_local_ns: int | None = None
    """The host's clock in its ready line, and ours when that line arrived."""
    armed: threading.Event = field(default_factory=threading.Event)
    """Every fio job waits at the gate before its first I/O (or fio ended first, or the session did)."""
    done: threading.Event = field(default_factory=threading.Event)
    """The point's output is complete (fio's report and exit status), or the session ended."""
    exited: threading.Event = field(default_factory=threading.Event)
    monitor: list[MonitorSample] = field(default_factory=list)
    disks: dict[str, str] = field(default_factory=dict)
    """The host's /proc/diskstats lines (';'-joined), "before" the start and "after" fio ended."""
    drive_word: DriveWord = field(default_factory=DriveWord)
    """What the disk beneath the target said of itself before and after (when the point asked)."""
    fio_exit: int | None = None
    """fio's exit status as the wrapper saw it; None when the connection ended first."""
    returncode: int | None = None
    """The SSH session's exit status when it ended during this point."""
    master_reason: Callable[[], str] = lambda: ""
    """Why the shared SSH connection ended, when it did (Ssh.master_reason)."""
    reader_errors: list[str] = field(default_factory=list)
    """What ssdprof's readers of this host's output failed on, in ssdprof's words (the lines after were still read)."""
    lost_stream: str = ""
    """Why ssdprof stopped reading this host's output mid-point: the point ended there, its data up to then kept."""
    stopped: bool = False
    """ssdprof asked for fio's end before its time (a cancel, or a write bounded by bytes that has
    written them): fio's exit status after that SIGINT is no failure."""
    issued: dict[str, list[str]] = field(default_factory=dict)
    """A replay's per-I/O submission logs as the host sent them back, by file: each line as fio wrote it."""

    def __post_init__(self) -> None:
        self.tracker = ProgressTracker(ramp_s=self.ramp_s)
        self.monitor_parser = MonitorParser(self.host.name)

    def note_issued(self, line: str) -> None:
        """One line of a replay's per-I/O submission log ("ssdprof-issued FILE LINE")."""
        name, _, entry = line.removeprefix("ssdprof-issued ").partition(" ")
        self.issued.setdefault(name, []).append(entry)

    def note_counters(self, line: str) -> None:
        """A per-second CPU and network sample ("ssdprof-mon ...") or a disk snapshot ("ssdprof-disks before|after ...")."""
        if line.startswith("ssdprof-disks "):
            which, _, text = line.removeprefix("ssdprof-disks ").partition(" ")
            self.disks[which] = text
        elif (sample := self.monitor_parser.feed(line.removeprefix("ssdprof-mon "))) is not None:
            self.monitor.append(sample)

    @property
    def start_epoch_ns(self) -> int | None:
        """When the host's first job was let through its start gate, by the host's clock."""
        return min(self.began_ns, default=None)

    def reader_failed(self, what: str, exc: Exception) -> None:
        """A line this host sent that ssdprof could not handle: named, and the next lines still read."""
        if len(self.reader_errors) < 5:
            self.reader_errors.append(f"ssdprof's reader of {what} failed on a line: {type(exc).__name__}: {exc}")

    def ssh_failure(self) -> str:
        """What ended the session, in ssh's words: what it means, its exit status and its last line."""
        stderr = "\n".join(self.stderr_lines)
        said = [line.strip() for line in (stderr or self.master_reason()).splitlines() if line.strip()]
        words = f": {said[-1][:200]}" if said else ""
        return f"{explain_ssh_failure(self.host, stderr, self.master_reason())} (ssh exit status {self.returncode}{words})"

    def result(self) -> HostResult:
        name = self.host.name
        try:
            report = parse_report(self.stream.text)
        except FioOutputError:
            reason = f"{name}: {self.lost_stream}" if self.lost_stream else self.ssh_failure() if self.returncode == 255 else (
                last_error(self.stderr_lines) or f"{name}: fio produced no result (exit status {self.returncode})")
            return HostResult(host=name, error=reason, start_epoch_ns=self.start_epoch_ns,
                              jobs_start_epoch_ns=sorted(self.began_ns), **self._clock())
        error = None
        if self.lost_stream:
            error = f"{name}: {self.lost_stream}; its data up to then kept"
        elif self.fio_exit is None and self.returncode is not None:
            error = self.ssh_failure() + " (mid-run; data up to then kept)"
        elif any(j.error for j in report.jobs):
            error = f"{name}: fio reported error {sorted({j.error for j in report.jobs if j.error})}"
        elif self.fio_exit and not (self.stopped and self.fio_exit == FIO_INTERRUPTED_EXIT):
            error = f"{name}: fio {_ending(self.fio_exit)} mid-run; its data up to then kept"
        return HostResult(host=name, jobs=len(report.jobs), read=combine(j.read for j in report.jobs),
                          write=combine(j.write for j in report.jobs), error=error, start_epoch_ns=self.start_epoch_ns,
                          jobs_start_epoch_ns=sorted(self.began_ns), **self._clock())

    def _clock(self) -> dict[str, int | None]:
        return {"clock_offset_ns": self.clock_measured_ns, "clock_offset_bound_ns": self.clock_bound_ns}



_ERROR = re.compile(r"(error|fio:|denied|not found|no such|refused|cannot)", re.IGNORECASE)


def _ending(status: int) -> str:
    """How fio ended, from its exit status as a POSIX shell reports it (128 + signal when killed)."""
    if status > 128:
        try:
            return f"was killed by {signal.Signals(status - 128).name}"
        except ValueError:
            return f"was killed by signal {status - 128}"
    return f"ended with exit status {status}"



def last_error(lines: list[str]) -> str:
    errors = [line for line in lines if _ERROR.search(line)]
    return (errors or lines or ["no output"])[-1][:300]
