"""Each host's side of a run between its start and its end, in one SSH session per host (the keeper).

The keeper first removes what earlier runs could not (:mod:`ssdprof.remote.leftovers`), then probes the host;
only once every host has passed its probe does ssdprof tell each keeper to lay out its test file (or
fill its RBD image), so nothing is written anywhere when one host is unusable. The keeper then holds
the file until ssdprof says "remove", and removes it by itself when the session ends (ssdprof killed,
connection dropped) or when ssdprof's heartbeat stops arriving (a link that went down). One session
does what took three (probe, layout, removal): each SSH session costs a login shell on the host.
The host's side is ``keeper.sh`` beside this module.
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.heartbeat import beat, host_program, send_line
from ssdprof.remote.probe import HostProbe, parse_probe
from ssdprof.remote.ssh import OPENING_RETRIES_S, Ssh, dropped_while_opening, explain_ssh_failure, session_ended
from ssdprof.target.processes import end_with_parent

__all__ = ["Keeper", "Keepers"]

_PROBE_TIMEOUT_S = 90.0
"""A slow host's probe (fio's start-up several times) took over 30 s on an emulated machine under load."""
_LAYOUT_TIMEOUT_S = 600.0


@dataclass
class Keeper:
    host: HostAddress
    argv: list[str]
    target: str
    register: Callable[[subprocess.Popen[str]], None] = lambda process: None
    """Where the keeper's ssh process is handed once started (the heartbeat writes to it)."""
    process: subprocess.Popen[str] = field(init=False)
    lines: queue.Queue[str | None] = field(init=False)
    stderr_lines: list[str] = field(init=False)
    stderr_done: threading.Event = field(init=False)
    probe: HostProbe = field(default_factory=lambda: HostProbe(reachable=False))
    laid_out: bool = False
    counted: tuple[int, int] | None = None
    """(major, minor) of the device whose /proc/diskstats line counts this host's I/O, as the host said after the layout."""
    attempts: int = 0
    """How many times the session was opened (sshd may drop one while it is being opened)."""
    heard: bool = False
    """The host answered on this session (it was opened: nothing to open again)."""
    closed: bool = False
    """The session ended (its output closed)."""
    opened_at: float = 0.0

    def __post_init__(self) -> None:
        self._open()

    def _open(self) -> None:
        self.lines, self.stderr_lines, self.stderr_done = queue.Queue(), [], threading.Event()
        self.heard = self.closed = False
        self.attempts += 1
        self.opened_at = time.monotonic()
        process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   errors="replace", bufsize=1, start_new_session=True, preexec_fn=end_with_parent())  # noqa: PLW1509 - one prctl
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=_pump, args=(process.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=_pump, args=(process.stderr, self.add_stderr), daemon=True).start()
        self.process = process
        self.register(process)

    def add_stderr(self, line: str | None) -> None:
        if line is None:
            self.stderr_done.set()
        else:
            self.stderr_lines.append(line)

    def read_probe(self) -> HostProbe:
        """The host's probe; a session sshd dropped while it was being opened (MaxStartups, a slow host) is
        opened again, a few times, before the host is given up; one that ended says what ended it."""
        for wait_s in (*OPENING_RETRIES_S, None):
            text = self._until("ssdprof-probed", _PROBE_TIMEOUT_S)
            if text is not None:
                self.probe = parse_probe(text)
                return self.probe
            if not self.closed:
                self.probe = HostProbe(reachable=False, error=self._failure(f"no answer within {_PROBE_TIMEOUT_S:.0f} s"))
                return self.probe
            self._settle()
            if wait_s is None or self.heard or not dropped_while_opening(self.process.returncode, "\n".join(self.stderr_lines)):
                break
            time.sleep(wait_s)
            self._open()
        self.probe = HostProbe(reachable=False, error=session_ended(
            self.host, self.process.returncode, "\n".join(self.stderr_lines), time.monotonic() - self.opened_at,
            attempts=self.attempts))
        return self.probe

    def lay_out(self) -> None:
        send_line(self.process, "layout")
        text = self._until("ssdprof-laid-out", _LAYOUT_TIMEOUT_S, keep_marker=True)
        status = text.rsplit("ssdprof-laid-out", 1)[1].strip() if text else ""
        if status != "0":
            detail = self._failure("fio failed") if text is None else (self._last_stderr() or f"fio exit status {status}")
            raise HostError(f"{self.host.name}: could not prepare {self.target or 'its target'}: {detail}")
        self.laid_out = True
        self.counted = _counted_device(text or "")

    def remove(self, timeout_s: float = 20.0) -> bool:
        """Ends the keeper, which removes the test file; True when the host said it did."""
        send_line(self.process, "remove")
        removed = self._until("ssdprof-removed", timeout_s) is not None
        self.end()
        return removed

    def end(self) -> None:
        """Ends the local side (by PID); the keeper on the host then removes its file by itself."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    def _until(self, marker: str, timeout_s: float, *, keep_marker: bool = False) -> str | None:
        """The stdout lines before ``marker`` (the marker line too if asked); None when the session ended or the time ran out."""
        deadline = time.monotonic() + timeout_s
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                return None
            if line is None:
                self.lines.put(None)  # the session is over for every later reader too
                self.closed = True
                return None
            self.heard = True
            if line.startswith(marker):
                return "\n".join([*seen, line] if keep_marker else seen)
            seen.append(line)

    def _settle(self) -> bool:
        """Waits for the ended session's ssh to exit and say all it had to; False if it has not exited."""
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return False
        self.stderr_done.wait(timeout=5)
        return True

    def _failure(self, otherwise: str) -> str:
        """Why the session ended (or did not answer): ssh's own words once it has exited and said them all."""
        if not self._settle():
            return f"{self.host.name}: {otherwise}"
        if self.closed:
            return session_ended(self.host, self.process.returncode, "\n".join(self.stderr_lines),
                                 time.monotonic() - self.opened_at, attempts=self.attempts)
        if self.process.returncode == 255:
            return explain_ssh_failure(self.host, "\n".join(self.stderr_lines))
        return f"{self.host.name}: {self._last_stderr() or otherwise}"

    def _last_stderr(self) -> str:
        lines = [line for line in self.stderr_lines if line.strip() and not line.startswith("ssdprof-")]
        return lines[-1][:300] if lines else ""


class Keepers:
    """One keeper per host, with the heartbeat that keeps them from acting on their own."""

    def __init__(self, ssh: Ssh):
        self.ssh = ssh
        self.by_host: dict[str, Keeper] = {}
        self._processes: list[subprocess.Popen[str]] = []
        self._finished = threading.Event()
        self._heartbeat = threading.Thread(target=beat, args=(self._processes, self._finished), daemon=True)

    def start(self, host: HostAddress, *, leftovers: list[str], target: str, layout: list[str], counted: str = "") -> Keeper:
        """``counted``: the file or device whose disk counts the run's I/O, '' for none (an RBD image)."""
        program = host_program("keeper.sh", probe=True)  # its arguments: see keeper.sh
        argv = self.ssh.argv(host, ["sh", "-c", program, "ssdprof-keeper", str(len(leftovers)), *leftovers, counted, target,
                                    *layout])
        keeper = Keeper(host, argv, target, self._processes.append)
        self.by_host[host.name] = keeper
        if not self._heartbeat.is_alive():
            self._heartbeat.start()
        return keeper

    def stop(self) -> None:
        """Ends every keeper still running (their hosts remove what they hold) and the heartbeat."""
        for keeper in self.by_host.values():
            send_line(keeper.process, "remove")
        for keeper in self.by_host.values():
            keeper.end()
        self._finished.set()


def _counted_device(text: str) -> tuple[int, int] | None:
    """(major, minor) from the keeper's "ssdprof-counted dev ST_DEV" or "ssdprof-counted rdev MAJOR MINOR" line."""
    for line in text.splitlines():
        words = line.split()
        try:
            if words[:2] == ["ssdprof-counted", "dev"] and len(words) == 3:
                number = int(words[2])
                return os.major(number), os.minor(number)
            if words[:2] == ["ssdprof-counted", "rdev"] and len(words) == 4:
                return int(words[2], 16), int(words[3], 16)
        except ValueError:
            return None
    return None


def _pump(stream: IO[str], put: Callable[[str | None], None]) -> None:
    try:
        for raw in stream:
            put(raw.rstrip("\n"))
    finally:
        put(None)  # the end of the stream, also when it could not be read: its readers stop waiting
