"""Child processes that end with ssdprof.

fio, and the SSH connections ssdprof holds open, must not outlive ssdprof, even when it is killed
with SIGKILL: an orphaned fio was seen to run for ever, and an orphaned SSH master would keep a
connection to a lab host open. A measuring child (fio, the compiled loop) is watched while it runs
and stopped on cancel or when it overruns its time (:class:`Watchdog`; how, each engine says).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

__all__ = ["Watchdog", "end_with_parent"]

_PR_SET_PDEATHSIG = 1


def end_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` (Linux) that has the child sent SIGTERM when ssdprof dies, by any signal.

    Elsewhere there is no such mechanism; callers bound their children by other means (fio's
    watchdog, the remote wrapper that ends fio when its connection drops)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()

    def set_death_signal() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # ssdprof died between fork and prctl: the signal will never come
            os._exit(1)

    return set_death_signal


class Watchdog(threading.Thread):
    """Watches a measuring child we started: it is to stop on cancel, or when it overruns its time by
    far. How it is stopped is the subclass's ``run``; ``finish`` once the child has ended."""

    def __init__(self, process: subprocess.Popen[str], cancel: threading.Event, limit_s: float):
        super().__init__(daemon=True)
        self._process = process
        self._cancel = cancel
        self._deadline = time.monotonic() + limit_s
        self._done = threading.Event()
        self.cancelled = False

    def _due(self, now: float) -> bool:
        """Whether the child is to stop now: cancelled (``cancelled`` is then set) or past its time."""
        self.cancelled = self._cancel.is_set()
        return self.cancelled or now > self._deadline

    def finish(self) -> None:
        self._done.set()
        self.join(timeout=1)
