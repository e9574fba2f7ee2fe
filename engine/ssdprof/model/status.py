"""Every status and kind a result, a sweep or a spec figure can have, each a Literal in one place.

The contract generator (``scripts/gen_contract.py``) emits each as a TypeScript union with the array
of its values (``STATUS_CHOICES`` below lists them), so the renderer compares typed values, never
strings it spelled itself."""

from __future__ import annotations

from typing import Literal, get_args

__all__ = [
    "STATUS_CHOICES",
    "ReferenceStatus",
    "RunStatus",
    "SweepEnd",
    "SweepKind",
    "SweepStanding",
    "SweepState",
]

RunStatus = Literal["ok", "partial", "failed", "cancelled"]
"""How one point ended. ok: measured on every host; partial: some host failed, the others'
figures are kept; failed: nothing was measured; cancelled: stopped by the user mid-point."""

SweepEnd = Literal["done", "cancelled", "stopped", "failed"]
"""How a sweep or a PTS test ended. done: every point ran; cancelled: the user stopped it (its
points are kept; it continues only when asked by its id); stopped: a host was lost (resume when it
is back); failed: the engine hit an error it could not measure past."""

SweepState = Literal["running", "done", "cancelled", "stopped", "failed"]
"""A stored sweep's status: its end, or running. A sweep the engine stopped in the middle of (it
died or was killed) stays running in the store, with nothing running it."""

SweepStanding = Literal["running", "interrupted", "done", "cancelled", "failed"]
"""A stored sweep as a person reading the store sees it. running: a live process holds it (its lease
is current); interrupted: it was left in the middle (its process died, or a host was lost) and can be
resumed; done, cancelled, failed: how it ended."""

SweepKind = Literal["sweep", "pts", "sustain", "replay"]
"""What a stored sweep holds: points (plain, a curve or a latency-target search), a PTS test,
whose repeats are its rounds, a sustained-write test (the fill, then its recovery writes), or a trace
replay (one point that plays a recorded trace)."""

ReferenceStatus = Literal["matched", "unstated", "mismatch"]
"""A rated figure against the conditions measured. matched: rated as measured; unstated: the sheet
leaves a condition out (indicative only); mismatch: not measured as rated (not compared)."""

STATUS_CHOICES: dict[str, tuple[str, ...]] = {
    "RunStatus": get_args(RunStatus),
    "SweepEnd": get_args(SweepEnd),
    "SweepState": get_args(SweepState),
    "SweepStanding": get_args(SweepStanding),
    "SweepKind": get_args(SweepKind),
    "ReferenceStatus": get_args(ReferenceStatus),
}
"""Each status type by its name, with its values in order: what the contract sends the renderer."""
