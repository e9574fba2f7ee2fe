"""Events a run emits while it goes: the one contract shared by the CLI, the RPC and the GUI."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.model.pts_results import SteadyState
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.model.status import SweepEnd, SweepState
from ssdprof.model.value import Value
from ssdprof.model.workload import Workload

__all__ = [
    "Cooling",
    "Count",
    "CountBound",
    "Event",
    "LayoutDone",
    "PointFinished",
    "PointProgress",
    "PointStarted",
    "PreconditionProgress",
    "PtsFinished",
    "PtsStarted",
    "PurgeDone",
    "RoundFinished",
    "RunEvent",
    "SweepEnd",
    "SweepEvent",
    "SweepFinished",
    "SweepStarted",
    "SweepState",
    "interrupted",
]


def interrupted(status: SweepState, *, running_now: bool) -> bool:
    """Whether a stored sweep was interrupted, so resuming it is offered unasked: the engine stopped
    in the middle of it, or a host was lost. Done, cancelled (the user's choice) and failed sweeps
    are not."""
    return status == "stopped" or (status == "running" and not running_now)


class Event(Value):
    """An event of a running test, whatever its kind, as every face receives it: frozen, told apart by its
    ``kind``."""



CountBound = Literal["exact", "at_most", "open"]
"""exact: the steps are known; at_most: a bound (a curve a stop latency may cut short, a PTS test
that ends at steady state); open: unknown until it ends (a latency-target search goes on until it
has its answer)."""


class Count(Value):
    """How far a sweep or a PTS test has got, as honestly as it is known; both faces draw it as
    it is."""

    done: int = Field(ge=0, description="steps finished, those before a resume included")
    total: int | None = Field(
        description="exact: the steps there are; at_most: the most there can be; open: null")
    bound: CountBound
    unit: Literal["point", "round"]
    note: str = Field(
        description="what the steps are, e.g. '1 full-speed probe + 6 offered rates'; may be empty")
    text: str = Field(
        description="the count in words, e.g. '3 of 7 points (1 full-speed probe + 6 offered rates)'")

    @classmethod
    def of(cls, done: int, total: int | None, bound: CountBound, unit: Literal["point", "round"],
           note: str = "") -> Count:
        if (total is None) != (bound == "open"):
            needs = "no" if bound == "open" else "a"
            raise ValueError(f"a count that is {bound} needs {needs} total")
        if bound == "open":
            words = f"{done} {_plural(unit, done)} so far"
        else:
            assert total is not None
            most = "at most " if bound == "at_most" else ""
            words = f"{done} of {most}{total} {_plural(unit, total)}"
        return cls(done=done, total=total, bound=bound, unit=unit, note=note,
                   text=f"{words} ({note})" if note else words)


def _plural(unit: str, n: int) -> str:
    return unit if n == 1 else f"{unit}s"


class SweepStarted(Event):
    kind: Literal["sweep_started"] = "sweep_started"
    sweep_id: int | None
    name: str
    count: Count = Field(
        description="points done before this start (a resume) and how many there will be")
    estimated_s: float
    engine: str
    engine_reason: str


class LayoutDone(Event):
    kind: Literal["layout_done"] = "layout_done"
    path: str
    size_bytes: int
    seconds: float


class PointStarted(Event):
    kind: Literal["point_started"] = "point_started"
    index: int = Field(
        description="the point's place in the sweep's list (a PTS test's: in its round)")
    repeat: int = Field(description="the repeat, from 0 (a PTS test's: its round, from 0)")
    number: int = Field(description="this point's number in the sweep, from 1")
    count: Count = Field(description="points finished before this one, of how many")
    round: Count | None = Field(
        default=None, description="a PTS test's rounds finished before this point's round")
    workload: Workload
    eta_s: float


class PointProgress(Event):
    kind: Literal["point_progress"] = "point_progress"
    number: int
    count: Count = Field(description="points finished before this one, of how many")
    sample: ProgressSample
    point_elapsed_s: float
    point_duration_s: float
    eta_s: float
    drive_temperature_c: float | None = Field(
        default=None, description="the drive's latest temperature (hwmon, each second), on this "
        "machine's runs where it reports one; a run keeps them in drive_health.temperatures")


class Cooling(Event):
    """The cool-down gate before a point (:mod:`ssdprof.model.cooldown`): every few seconds while it
    waits, and once more as it ends (``done``)."""

    kind: Literal["cooling"] = "cooling"
    number: int = Field(description="the point it waits before, from 1")
    celsius: float | None = Field(
        description="the drive's temperature now; null where none is read")
    start_c: float | None = Field(description="its temperature as the wait began")
    target_c: float | None = Field(description="the temperature waited for; null: an idle time")
    waited_s: float
    most_s: float = Field(description="the longest this wait can take")
    done: bool = False
    text: str = Field(description="the wait in words, e.g. 'cooling before point 3: 52 °C → 45 °C, "
                      "40 s (at most 300 s)'")


class PointFinished(Event):
    kind: Literal["point_finished"] = "point_finished"
    number: int
    count: Count = Field(description="points finished, this one included, of how many")
    result: RunResult


class SweepFinished(Event):
    kind: Literal["sweep_finished"] = "sweep_finished"
    sweep_id: int | None
    status: SweepEnd = Field(
        description="how it ended; stopped (a host was lost) is resumable, see reason")
    run_ids: list[int]
    wall_s: float
    layout_s: float
    reason: str = ""


class PtsStarted(Event):
    """A PTS test began (or resumed); its purge, preconditioning and rounds follow."""

    kind: Literal["pts_started"] = "pts_started"
    pts_id: int | None
    test: str
    profile: str
    pts_compliant: bool
    compliance_note: str
    points_per_round: int
    max_rounds: int
    already_rounds: int = Field(description="rounds finished before a resume")
    estimated_s: float = Field(description="the remaining time if every round up to max_rounds runs")
    engine: str
    engine_reason: str


class PurgeDone(Event):
    kind: Literal["purge_done"] = "purge_done"
    method: str = Field(description="blkdiscard or new-file")
    detail: str
    limitation: str = ""
    seconds: float


class PreconditionProgress(Event):
    """Workload-independent preconditioning (sequential writes over the region): not a measurement."""

    kind: Literal["precondition_progress"] = "precondition_progress"
    bytes_done: int
    bytes_total: int
    elapsed_s: float
    eta_s: float
    done: bool = False


class RoundFinished(Event):
    kind: Literal["round_finished"] = "round_finished"
    round: int
    max_rounds: int
    tracking_value: float | None
    steady_state: SteadyState = Field(description="the rule applied to the rounds so far")
    run_ids: list[int]
    bytes_written: int = Field(description="bytes the test had written by the end of this round")


class PtsFinished(Event):
    kind: Literal["pts_finished"] = "pts_finished"
    pts_id: int | None
    status: SweepEnd
    attained: bool
    rounds: int
    wall_s: float
    reason: str = ""


SweepEvent = SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished | SweepFinished | Cooling
"""The events of a running sweep (curves and latency-target searches too), as ``run.event`` sends them."""
RunEvent = SweepEvent | PtsStarted | PurgeDone | PreconditionProgress | RoundFinished | PtsFinished
