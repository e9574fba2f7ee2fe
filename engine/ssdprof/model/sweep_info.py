"""A stored sweep as listed (any kind: sweep, PTS test, sustained write, replay): newest first, with how
many runs it kept and who holds it. The store lists these and the contract sends them as they are."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from ssdprof.model.status import SweepKind, SweepStanding, SweepState
from ssdprof.model.value import Value

__all__ = ["SweepInfo", "last_finished"]


class SweepInfo(Value):
    id: int
    created_at: str
    name: str
    status: SweepState
    runs: int
    kind: SweepKind = "sweep"
    standing: SweepStanding = Field(
        default="done", description="running (a live process holds it), interrupted (its process died or a host was "
        "lost: it can be resumed), or how it ended")
    owner: str = Field(default="", description="who last ran it (login name); '' for sweeps stored before owners were kept")
    owner_host: str = Field(default="", description="the machine it last ran on")
    owner_pid: int = Field(default=0, description="the process that ran it there")
    since: str = Field(default="", description="when that process took it (ISO, the database's clock)")
    renewed_at: str = Field(default="", description="when that process last renewed its lease")


def last_finished(sweeps: Iterable[SweepInfo]) -> SweepInfo | None:
    """The newest sweep (of kind sweep) that ended done or cancelled with runs kept, of ``sweeps``
    listed newest first: what Results opens."""
    return next((s for s in sweeps if s.kind == "sweep" and s.status in ("done", "cancelled") and s.runs > 0), None)
