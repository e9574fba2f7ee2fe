"""Each host's one SSH session for a sweep's points, running ``fio_wrapper.sh`` (:class:`HostSession`), whose reader
threads fill in the current point's :class:`~ssdprof.remote.host_run.HostRun`. Orchestrated by
:mod:`ssdprof.remote.launch`."""

from __future__ import annotations

import contextlib
import re
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO

from ssdprof.model.results import ProgressSample
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.heartbeat import host_program, send_line, send_text
from ssdprof.remote.host_run import HostRun
from ssdprof.remote.ssh import Ssh, dropped_while_opening
from ssdprof.target.processes import end_with_parent

__all__ = ["PLAIN_NAME", "PUT_CHUNK_BYTES", "HostSession", "epoch_ns"]

PUT_CHUNK_BYTES = 1 << 20
"""A put file goes in pieces of at most this, so the heartbeat still reaches the host between them."""
PLAIN_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
"""A file name the host's session accepts (fio_wrapper.sh's plain_name)."""
_OPEN_PROBE = "ssdprof-open"
"""A file no session holds, asked for to learn that the session is open (fio_wrapper.sh's "check")."""


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


def epoch_ns(text: str) -> int | None:
    """'SECONDS.FRACTION' (bash's EPOCHREALTIME, or date +%s.%N) as integer nanoseconds, with no float rounding."""
    seconds, _, fraction = text.strip().partition(".")
    if not seconds.isdigit() or (fraction and not fraction.isdigit()):
        return None
    return int(seconds) * 1_000_000_000 + int((fraction + "000000000")[:9])

