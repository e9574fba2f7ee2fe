"""What a PTS test reports: the steady-state determination, the rounds, the matrix of the measurement
window, the drive state and the parameters — one shape for the CLI's ``--json``, the RPC and the PDF."""

from __future__ import annotations

from pydantic import Field

from ssdprof.model.drive_state import DriveState
from ssdprof.model.status import SweepState
from ssdprof.model.value import Value

__all__ = ["PtsIdentity", "PtsInfo", "PtsMatrixCell", "PtsParameters", "PtsResult", "PtsRound", "SteadyState"]


class SteadyState(Value):
    """The PTS rule applied to one tracking variable's round values (``analysis.steady_state``).

    Excursions and limits are in the tracking variable's unit: ``data_excursion`` = max - min over the
    window, ``data_limit`` = data_limit_pct of the window's mean; ``slope_excursion`` = how much the
    least-squares line changes across the window (|slope| x (window - 1)), ``slope_limit`` = slope_limit_pct
    of the mean."""

    tracking: str = Field(description="e.g. '4KiB random 0/100 IOPS'")
    unit: str = Field(description="IOPS, MB/s (10^6 bytes/s) or µs")
    gating: bool = Field(default=True, description="false: reported beside the rule's variable, not waited for")
    attained: bool
    rounds: int = Field(description="rounds measured")
    window: list[int] = Field(description="[first, last] round of the measurement window (the last `window_size` rounds); [] before any")
    window_size: int
    mean: float | None = None
    slope_per_round: float | None = None
    fit_first: float | None = Field(default=None, description="the fitted line's value at the window's first round")
    fit_last: float | None = Field(default=None, description="the fitted line's value at the window's last round")
    data_excursion: float | None = None
    data_limit: float | None = None
    slope_excursion: float | None = None
    slope_limit: float | None = None
    data_limit_pct: float
    slope_limit_pct: float
    reason: str = Field(description="e.g. 'steady state at rounds 3-7', or why not: never hidden")


class PtsRound(Value):
    round: int = Field(description="1-based")
    tracking_value: float | None = Field(description="the gating tracking variable this round; null when its point failed")
    tracked: dict[str, float | None] = Field(default_factory=dict, description="every tracking variable this round, by label")
    convergence: dict[str, float | None] = Field(
        default_factory=dict, description="the tracking metric at every access size (at the tracking mix), by access size label")
    runs: list[int] = Field(description="stored run ids of this round's points")
    complete: bool = Field(default=True, description="false: the round was cut short (cancelled); not judged")
    bytes_written: int = Field(default=0, description="bytes this test had written by the end of this round")
    elapsed_s: float = Field(default=0.0, description="measured seconds of the test by the end of this round")


class PtsMatrixCell(Value):
    """One access size x mix, averaged over the measurement window's rounds (the PTS's tables)."""

    block_size_bytes: int
    read_pct: int
    mix: str = Field(description="R/W, e.g. '65/35'")
    sequential: bool
    iops: float
    bw_bytes_per_s: float
    lat_mean_ns: float | None = Field(description="total latency, read and write together")
    lat_max_ns: float | None = None
    lat_p99_999_ns: float | None = Field(default=None, description="five nines, from the histogram bins")
    rounds: list[int] = Field(description="the rounds averaged")
    runs: list[int]


class PtsParameters(Value):
    """Everything that defines the test, as the report's first page lists it."""

    target: str
    region_bytes: int
    offset_bytes: int
    engine: str = Field(description="the engine chosen: fio or portable")
    round_time_s: float = Field(description="measured time of every point in a round (PTS: 60 s)")
    queue_depth: int
    numjobs: int
    block_sizes_bytes: list[int]
    mixes_read_pct: list[int]
    sequential: bool
    window: int
    data_limit_pct: float
    slope_limit_pct: float
    min_rounds: int
    max_rounds: int
    precondition: str = Field(description="auto (workload-independent, before the rounds) or none")
    precondition_passes: float
    purge: bool
    saturation_multiple: float | None = Field(default=None, description="write saturation: multiple of the region written")


class PtsIdentity(Value):
    """What names a PTS test, first in its listing and in its result."""

    id: int = Field(description="the test's id (its runs are the sweep of the same id)")
    created_at: str
    name: str
    test: str = Field(description="iops, throughput, latency or write-saturation")
    profile: str = Field(description="pts or laptop")
    pts_compliant: bool


class PtsInfo(PtsIdentity):
    """One test in the list of PTS tests (``pts.list``, ``ssdprof pts list``)."""

    status: SweepState
    rounds: int = Field(description="rounds finished (a round a cancel cut short is not counted)")
    attained: bool
    target: str


class PtsResult(PtsIdentity):
    """A PTS test, finished or not: the shape of ``ssdprof pts --json`` and ``pts.get``."""

    compliance_note: str
    status: SweepState
    reason: str = Field(default="", description="why the test stopped early, if it did")
    parameters: PtsParameters
    drive_state: DriveState | None = Field(description="the target's state when the rounds began")
    drive_state_text: str = Field(description="that state in one line, as every face says it ('not recorded' when none)")
    steady_state: SteadyState = Field(description="the rule applied to the gating tracking variable")
    checks: list[SteadyState] = Field(description="the rule applied to every tracking variable, the gating one first")
    rounds: list[PtsRound]
    matrix: list[PtsMatrixCell] = Field(description="access size x mix, averaged over the measurement window")
    estimated_s: float = Field(default=0.0, description="the estimate given before starting (the maximum rounds)")

    @property
    def finished_rounds(self) -> int:
        """Rounds measured to their last point: a round a cancel cut short is begun, not finished, and not counted."""
        return sum(r.complete for r in self.rounds)
