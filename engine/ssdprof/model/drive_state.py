"""The drive's state when a run was measured: what was done to the target first (nothing, a purge,
preconditioning), how much ssdprof had written to it since its last purge, and whether steady state
had been reached. A fresh or trimmed SSD answers random writes several times faster than the same
drive in steady state, so runs taken in different states are said to differ wherever they are compared.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.quantities import format_bytes, format_size
from ssdprof.model.value import Value

__all__ = ["Condition", "DriveState", "PreconditionRecord", "PurgeRecord", "condition_of", "state_difference"]

Condition = Literal["fresh", "preconditioned", "steady-state", "as-found", "not-recorded"]
"""The drive state in one word, what comparisons match on:

- ``fresh``: purged by ssdprof and less than one region written since;
- ``preconditioned``: workload-independent preconditioning done, steady state not (yet) shown;
- ``steady-state``: a PTS test showed steady state for this target's workload;
- ``as-found``: nothing done before measuring, or purged long enough ago that it no longer says much;
- ``not-recorded``: stored before ssdprof recorded drive state."""


class PurgeRecord(Value):
    """A purge ssdprof ran: how, on what, and what it cannot do."""

    method: Literal["blkdiscard", "new-file"] = Field(description="blkdiscard for a block device; new-file for a file")
    at: str = Field(description="when, ISO time (UTC)")
    detail: str = Field(description="what was done, e.g. 'blkdiscard of all 64 MiB of /dev/loop3'")
    limitation: str = Field(default="", description="what the method does not reach, e.g. below a filesystem")


class PreconditionRecord(Value):
    """Workload-independent preconditioning: sequential writes over the test region, not measured."""

    pattern: str = Field(default="write", description="sequential write")
    block_size_bytes: int = 128 << 10
    region_bytes: int
    passes: float = Field(description="the passes asked for (PTS: 2)")
    bytes_written: int = Field(description="what was written, at least passes x region")
    seconds: float
    at: str = Field(description="when it finished, ISO time (UTC)")


class DriveState(Value):
    """Recorded with every run measured since ssdprof tracks it (``None`` on runs stored before)."""

    target_identity: str = Field(description="the ledger's key: 'device:MODEL:SERIAL', 'file:/path' or 'folder:/path'")
    preparation: Literal["none", "purge", "precondition", "purge+precondition"] = Field(
        default="none", description="what was done to the target right before this run or test")
    purge: PurgeRecord | None = Field(default=None, description="the purge before this run or test, if any")
    preconditioning: PreconditionRecord | None = None
    bytes_written_since_purge: int = Field(
        default=0, description="bytes ssdprof wrote to the target before this run, since its last purge (or first use)")
    ledger_since: Literal["purge", "first-use"] = Field(
        default="first-use", description="purge: the count starts at ssdprof's last purge; first-use: ssdprof never purged it")
    region_bytes: int = Field(default=0, description="the test region, to weigh bytes written against")
    steady_state: Literal["reached", "not-reached", "not-checked"] = Field(
        default="not-checked", description="whether a PTS test had shown steady state by this run")
    pts_id: int | None = Field(default=None, description="the PTS test this run belongs to")
    pts_round: int | None = None

    @property
    def condition(self) -> Condition:
        if self.steady_state == "reached":
            return "steady-state"
        if self.ledger_since == "purge" and self.bytes_written_since_purge < max(self.region_bytes, 1) \
                and self.preconditioning is None:
            return "fresh"
        if self.preconditioning is not None or self.steady_state == "not-reached":
            return "preconditioned"
        return "as-found"

    def sentence(self) -> str:
        """One line for tables and reports, e.g. 'preconditioned (2 x 128 KiB sequential writes); 1.00 GiB written since purge'."""
        parts = {"steady-state": "steady state reached", "fresh": "fresh (purged)", "preconditioned": "preconditioned",
                 "as-found": "as found"}[self.condition]
        if self.purge is not None and self.preparation.startswith("purge"):
            parts += f"; purged ({self.purge.method})"
        if self.preconditioning is not None:
            pre = self.preconditioning
            parts += f"; {pre.passes:g} x region of {format_size(pre.block_size_bytes)} sequential writes"
        since = "since purge" if self.ledger_since == "purge" else "by ssdprof (never purged by it)"
        return f"{parts}; {format_bytes(self.bytes_written_since_purge)} written {since}"


def condition_of(state: DriveState | None) -> Condition:
    return "not-recorded" if state is None else state.condition


def state_difference(a: list[DriveState | None], b: list[DriveState | None]) -> str:
    """'' when both groups were taken in one drive state; else a sentence saying how they differ."""
    conditions_a = sorted({condition_of(s) for s in a})
    conditions_b = sorted({condition_of(s) for s in b})
    if conditions_a == conditions_b and len(conditions_a) == 1:
        return "" if conditions_a[0] != "not-recorded" else "drive state not recorded for these runs"
    return (f"different drive states: A {'/'.join(conditions_a)}, B {'/'.join(conditions_b)}; a fresh SSD answers "
            "writes several times faster than in steady state, so the difference may be the drive's state")
