"""A test run by a command, in the foreground: through the one job layer (``app/jobs.py``) like the
RPC's, the first Ctrl-C cancelling it (what is finished is kept), a second one aborting at once."""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType
from typing import Any, TypeVar

from ssdprof.app.jobs import Jobs
from ssdprof.app.kinds.kind import Context, Emit, JobKind

__all__ = ["run_job"]

OutcomeT = TypeVar("OutcomeT")


def run_job(ctx: Context, kind: JobKind[Any, OutcomeT, Any], plan: Any, listen: Emit) -> OutcomeT:
    """Run ``plan`` here until it ends or Ctrl-C cancels it; the kind's outcome either way."""
    jobs = Jobs(ctx)
    asked = threading.Event()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if asked.is_set():
            raise KeyboardInterrupt
        asked.set()
        jobs.cancel()
        print(f"\nstopping the {kind.noun}; what is finished is kept (Ctrl-C again to abort)", file=sys.stderr)

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        return jobs.run(kind, plan, listen)
    finally:
        signal.signal(signal.SIGINT, previous)
