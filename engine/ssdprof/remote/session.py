"""Each host's part of a sweep's points: its one SSH session running ``fio_wrapper.sh`` (:class:`HostSession`),
whose reader threads fill in the current point's :class:`HostRun`. Orchestrated by :mod:`ssdprof.remote.launch`."""

from __future__ import annotations

import contextlib
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
from ssdprof.remote.drive_word import DriveWord
from ssdprof.remote.heartbeat import host_program, send_line, send_text
from ssdprof.remote.monitor import MonitorParser
from ssdprof.remote.ssh import Ssh, dropped_while_opening, explain_ssh_failure
from ssdprof.target.processes import end_with_parent

__all__ = ["FIO_INTERRUPTED_EXIT", "PLAIN_NAME", "PUT_CHUNK_BYTES", "HostRun", "HostSession", "epoch_ns", "last_error"]

FIO_INTERRUPTED_EXIT = 128
"""fio's exit status when SIGINT ended it (it still prints its report)."""
PUT_CHUNK_BYTES = 1 << 20
"""A put file goes in pieces of at most this, so the heartbeat still reaches the host between them."""
PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
"""A file name the host's session accepts (fio_wrapper.sh's plain_name)."""
_OPEN_PROBE = "ssdprof-open"
"""A file no session holds, asked for to learn that the session is open (fio_wrapper.sh's "check")."""


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


class HostSession:
    """One host's SSH session running ``fio_wrapper.sh`` for the sweep; its readers feed the current point's HostRun."""

    def __init__(self, ssh: Ssh, host: HostAddress):
        self.host = host
        self.ssh = ssh
        self.current: HostRun | None = None
        self.on_progress: Callable[[ProgressSample], None] | None = None
        argv = ssh.argv(host, ["sh", "-c", host_program("fio_wrapper.sh"), "ssdprof-run"])
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        errors="replace", bufsize=1, start_new_session=True, preexec_fn=end_with_parent())  # noqa: PLW1509 - one prctl
        assert self.process.stdout is not None and self.process.stderr is not None
        self.readers = [threading.Thread(target=self._read_stdout, args=(self.process.stdout,), daemon=True),
                        threading.Thread(target=self._read_stderr, args=(self.process.stderr,), daemon=True)]
        self.ended = threading.Event()
        self._open_streams = 2
        self._lock = threading.Lock()
        self._files: dict[str, str] = {}
        self._file_said = threading.Condition()
        self._early_stderr: list[str] = []
        self.opened_at = time.monotonic()
        for reader in self.readers:
            reader.start()

    def alive(self) -> bool:
        return self.process.poll() is None and not self.ended.is_set()

    def confirm_open(self, timeout_s: float) -> bool:
        """Whether the session is open: the host's side answers a question (the size of a file that is not
        there); False when the session ended first, or stayed silent ``timeout_s``."""
        send_line(self.process, f"check {_OPEN_PROBE}")
        deadline = time.monotonic() + timeout_s
        with self._file_said:
            while _OPEN_PROBE not in self._files and self.alive() and time.monotonic() < deadline:
                self._file_said.wait(0.05)
            return _OPEN_PROBE in self._files

    def stderr_text(self) -> str:
        """What ssh said before the session had a point to report to (why it could not be opened)."""
        return "\n".join(self._early_stderr)

    def dropped_while_opening(self) -> bool:
        """sshd dropped the session before it was authenticated (nothing ran on the host): open it again."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self.ended.wait(5)
        return dropped_while_opening(self.process.returncode, self.stderr_text())

    def put_file(self, name: str, text: str, *, timeout_s: float = 120.0) -> None:
        """``text`` (ASCII) written as the file ``name`` in this session's directory on the host, where fio runs
        (removed with the directory when the session ends); a HostError when it did not arrive whole."""
        if not PLAIN_NAME.fullmatch(name) or not text.isascii():
            raise ValueError(f"not a plain file name or not ASCII text: {name!r}")
        with self._file_said:
            self._files.pop(name, None)
        for start in range(0, len(text), PUT_CHUNK_BYTES):  # the heartbeat goes between chunks
            chunk = text[start:start + PUT_CHUNK_BYTES]
            send_text(self.process, f"put {name} {len(chunk)}\n{chunk}")
        send_line(self.process, f"check {name}")
        deadline = time.monotonic() + timeout_s
        with self._file_said:
            while name not in self._files and self.alive() and time.monotonic() < deadline:
                self._file_said.wait(0.1)
            said = self._files.get(name)
        if said != str(len(text)):
            why = "its session ended" if not self.alive() else f"it holds {said} bytes" if said else "no answer"
            raise HostError(f"{self.host.name}: {name} ({len(text)} bytes) did not arrive whole in its session's "
                            f"folder: {why}")

    def _read_stdout(self, stdout: IO[str]) -> None:
        self._read(stdout, "fio's output", self._on_stdout)

    def _read_stderr(self, stderr: IO[str]) -> None:
        self._read(stderr, "the host's status lines", self._on_stderr)

    def _read(self, stream: IO[str], what: str, handle: Callable[[HostRun, str], None]) -> None:
        """Every line to ``handle`` for the current point. A line it fails on is named on the point and the
        next read; a stream that cannot be read ends the point where it was, with what arrived until then."""
        try:
            for line in stream:
                if line.startswith("ssdprof-file "):  # a put file's size: the session's, whatever point runs
                    self._file_arrived(line)
                    continue
                run = self.current
                if run is None:
                    if handle == self._on_stderr and len(self._early_stderr) < 50:
                        self._early_stderr.append(line.rstrip("\n"))  # ssh's words before any point: why it ended
                    continue
                try:
                    handle(run, line)
                except Exception as exc:  # any failure is the point's, never the thread's end
                    run.reader_failed(what, exc)
        except Exception as exc:  # the stream itself (decoding errors are replaced): the point ends
            self._lose_stream(what, exc)
        finally:
            self._stream_closed()

    def _file_arrived(self, line: str) -> None:
        name, _, size = line.removeprefix("ssdprof-file ").strip().partition(" ")
        with self._file_said:
            self._files[name] = size
            self._file_said.notify_all()

    def _lose_stream(self, what: str, exc: Exception) -> None:
        run = self.current
        if run is not None:
            run.lost_stream = f"ssdprof could not read {what} mid-point ({type(exc).__name__}: {exc})"
            run.armed.set()
            run.exited.set()
            run.done.set()
        self.ended.set()  # the next point opens a new session
        with contextlib.suppress(OSError):
            self.process.kill()  # the host's wrapper ends fio when its stdin closes

    def _on_stdout(self, run: HostRun, line: str) -> None:
        if line.rstrip("\n") == "ssdprof-point-end":
            run.exited.wait(5)  # the exit status travels on stderr, written just before
            run.done.set()
            return
        for document in run.stream.feed(line):
            for sample in run.tracker.update(document):
                if self.on_progress:
                    self.on_progress(sample.model_copy(update={"host": self.host.name}))

    def _on_stderr(self, run: HostRun, raw: str) -> None:
        line = raw.rstrip("\n")
        if line.startswith("ssdprof-ready"):
            value = line.removeprefix("ssdprof-ready").strip()
            run.ready_clock_ns = int(value) if value.isdigit() else None
            run.ready_local_ns = time.time_ns()
            run.ready.set()
        elif line.startswith("ssdprof-began "):
            began_ns = epoch_ns(line.removeprefix("ssdprof-began "))
            if began_ns is not None and not run.done.is_set():  # not a gate let go after its fio was killed
                run.began_ns.append(began_ns)
        elif line == "ssdprof-armed":
            run.armed.set()
        elif line.startswith("ssdprof-pid "):
            run.fio_pid = int(line.split()[1])
        elif line.startswith("ssdprof-exit "):
            run.fio_exit = int(line.split()[1])
            run.armed.set()
            run.exited.set()
        elif line.startswith("ssdprof-issued "):
            run.note_issued(line)
        elif line.startswith(("ssdprof-mon ", "ssdprof-disks ")):
            run.note_counters(line)
        elif line.startswith("ssdprof-health"):
            run.drive_word.feed(line)
        else:
            run.stderr_lines.append(line)

    def _stream_closed(self) -> None:
        with self._lock:
            self._open_streams -= 1
            if self._open_streams:
                return
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self.ended.set()
        run = self.current
        if run is not None:  # nobody waits any more for what this session would have said
            run.returncode = self.process.returncode
            run.ready.set()
            run.armed.set()
            run.exited.set()
            run.done.set()


_ERROR = re.compile(r"(error|fio:|denied|not found|no such|refused|cannot)", re.IGNORECASE)


def _ending(status: int) -> str:
    """How fio ended, from its exit status as a POSIX shell reports it (128 + signal when killed)."""
    if status > 128:
        try:
            return f"was killed by {signal.Signals(status - 128).name}"
        except ValueError:
            return f"was killed by signal {status - 128}"
    return f"ended with exit status {status}"


def epoch_ns(text: str) -> int | None:
    """'SECONDS.FRACTION' (bash's EPOCHREALTIME, or date +%s.%N) as integer nanoseconds, with no float rounding."""
    seconds, _, fraction = text.strip().partition(".")
    if not seconds.isdigit() or (fraction and not fraction.isdigit()):
        return None
    return int(seconds) * 1_000_000_000 + int((fraction + "000000000")[:9])


def last_error(lines: list[str]) -> str:
    errors = [line for line in lines if _ERROR.search(line)]
    return (errors or lines or ["no output"])[-1][:300]
