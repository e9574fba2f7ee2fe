"""Child processes that end with ssdprof.

fio, and the SSH connections ssdprof holds open, must not outlive ssdprof, even when it is killed
with SIGKILL: an orphaned fio was seen to run for ever, and an orphaned SSH master would keep a
connection to a lab host open.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable

__all__ = ["end_with_parent"]

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
