"""ssdprof's once-a-second line to every host session, and the host-side programs that listen for it.

A link that goes down leaves the host's sshd none the wiser, so each host-side program (``fio_wrapper.sh``,
``keeper.sh``) runs a watchdog (``watchdog.sh``) that acts on its own once ssdprof has been silent for
:data:`LOST_AFTER_S`. The programs are ``.sh`` files beside this module, put together here and handed to
``sh -c`` on the host as one argument (quoted once, at the SSH boundary, by :meth:`Ssh.argv`).
"""

from __future__ import annotations

import functools
import subprocess
import threading
from pathlib import Path

from ssdprof.remote.probe import probe_script

__all__ = ["CALLS", "HEARTBEAT_S", "LOST_AFTER_S", "beat", "host_program", "send_line", "send_text"]

HEARTBEAT_S = 1.0
LOST_AFTER_S = 10
"""The host ends fio when ssdprof has been silent this long: longer than ssh takes to give up on a dead
connection (ServerAliveInterval 2 x ServerAliveCountMax 3), after which fio's output has nowhere to go."""


CALLS: dict[str, tuple[str, ...]] = {
    "fio_wrapper.sh": ("drive_word.sh",),
    "drive_show.sh": ("drive_word.sh",),
}
"""The shell libraries (``.sh`` beside this module) each program calls beyond the watchdog's."""


@functools.cache
def host_program(name: str, *, probe: bool = False) -> str:
    """The host-side program ``name`` (a ``.sh`` beside this module) after what it calls: the watchdog's
    functions, its libraries in :data:`CALLS` and, with ``probe``, ``probe.sh`` as the function
    ``probe_host``."""
    here = Path(__file__)
    parts = [f"lost_after_s={LOST_AFTER_S}\n", here.with_name("watchdog.sh").read_text()]
    parts += [here.with_name(library).read_text() for library in CALLS.get(name, ())]
    if probe:
        parts.append(f"probe_host() {{\n{probe_script()}}}\n")
    return "".join([*parts, here.with_name(name).read_text()])


def beat(processes: list[subprocess.Popen[str]], finished: threading.Event) -> None:
    """Tell every host ssdprof is still there (see LOST_AFTER_S), until the run is over."""
    while not finished.wait(HEARTBEAT_S):
        for process in list(processes):
            send_line(process, "alive")


SEND_LOCK = threading.Lock()
"""The heartbeat, the barrier and the closing of a session write to the same pipes."""


def send_line(process: subprocess.Popen[str], line: str) -> None:
    send_text(process, line + "\n")


def send_text(process: subprocess.Popen[str], text: str) -> None:
    """``text`` written whole to the session's stdin, no other writer between (a put file's bytes)."""
    try:
        with SEND_LOCK:
            if process.stdin is not None and not process.stdin.closed and process.poll() is None:
                process.stdin.write(text)
                process.stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
