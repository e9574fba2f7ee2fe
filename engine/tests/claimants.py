"""Who holds a sweep, for tests: a process that has ended (a sweep whose engine was killed), and other
people. The lease rule is the store's own (``store/leases.py``); only the identity is chosen here."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

from ssdprof.store.leases import Claimant


def ended_process() -> Claimant:
    """This login on this machine, as a process that has exited: what a killed engine left behind."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True)
    return replace(Claimant.here(), pid=int(child.stdout), started_s=1.0)


def another_person(user: str = "bob", host: str = "lab-pc-2") -> Claimant:
    """Someone else on another machine: their process cannot be seen from here, so their lease's expiry decides."""
    return replace(Claimant.here(), user=user, host=host, process_space="another-machine", pid=4242)
