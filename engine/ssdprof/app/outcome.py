"""How a run of a stored test (a PTS test, a sustained write, a replay) ended, as its runner returns it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from ssdprof.model.status import SweepEnd

__all__ = ["TestOutcome"]

ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class TestOutcome(Generic[ResultT]):
    test_id: int
    """The stored test's id (the sweep that holds it): what ``--resume``, ``--show`` and its report take."""
    status: SweepEnd
    result: ResultT
    """The stored test read back after this run: every round, phase or repeat so far, earlier runs' too."""
