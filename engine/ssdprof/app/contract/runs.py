"""The RPC's params and results for the engine, sweeps and stored runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from ssdprof.app.contract.base import Params, Result
from ssdprof.app.contract.kind import cancel_answer, job_status
from ssdprof.app.contract.run_queries import MAX_RUN_IDS
from ssdprof.app.planner import WorkloadInput
from ssdprof.model.events import Count
from ssdprof.model.presets import PRESETS
from ssdprof.model.problems import Choice
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import preset
from ssdprof.model.sweep_info import SweepInfo
from ssdprof.model.workload import FieldProblem, Pattern, Workload
from ssdprof.target.devices import BlockDevice

if TYPE_CHECKING:
    from ssdprof.target.plan import DeviceRegion


class FieldRule(Result):
    flag: str
    allowed: str
    label: str = Field(default="", description="the field as a form names it, e.g. 'queue depth'")
    example: str = ""
    choices: list[Choice] = Field(default_factory=list, description="the values a list offers, with display names")
    applies_with: dict[str, list[str]] = Field(default_factory=dict, description=(
        "the field counts only while another has one of these values (read_pct: pattern rw or "
        "randrw); empty: always"))


def field_conditions() -> dict[str, dict[str, list[str]]]:
    """Fields that count only with some values of another: the read share only with a mixed
    pattern (a pure one fixes it: ``Pattern.fixed_read_pct``)."""
    return {"read_pct": {"pattern": [p.value for p in Pattern if p.fixed_read_pct is None]}}


class EngineInfoResult(Result):
    version: str
    fio_path: str | None
    fio_version: str | None
    portable_available: bool
    portable_reason: str = Field(description="why the portable engine is or is not available")
    default_target: str = Field(description="the scratch folder used when no target is given")
    db_path: str
    platform: str
    defaults: Workload
    field_rules: dict[str, FieldRule]


class ValidateParams(Params):
    workload: WorkloadInput
    check_target: bool = Field(default=True, description="also check the target exists, is writable and has room")


class ValidateResult(Result):
    ok: bool
    problems: list[FieldProblem]
    workload: Workload | None = None
    label: str = ""
    duration_s: float = 0.0


class PresetInfo(Result):
    name: str
    description: str
    points: int


class PresetsResult(Result):
    presets: list[PresetInfo]

    @classmethod
    def listed(cls) -> PresetsResult:
        """Every ready-made sweep, its points counted on the default workload."""
        base = Workload()
        return cls(presets=[PresetInfo(name=name, description=desc, points=len(preset(name, base).points))
                            for name, (desc, _) in PRESETS.items()])


class PlannedPoint(Result):
    label: str
    workload: Workload


class TargetDevice(Result):
    """A block device as a target: what it is, what lies beneath it, and what keeps it from being written."""

    path: str
    description: str = Field(description="e.g. '/dev/loop3 (loop device over /var/tmp/a.img on vda, 64MiB)'")
    model: str = Field(description="the model of the disk holding the data ('' when the OS does not say)")
    size_bytes: int
    kind: str = Field(description="disk, partition, loop, zram, ram, dm or md")
    stack: list[str] = Field(description="from the device down to the disk holding its data")
    in_use: list[str] = Field(description="why it must not be written now (mounted, held, swap), each with what to do")
    ram: str = Field(description="why measuring it would measure memory; '' for a real device")


def target_device(device: BlockDevice) -> TargetDevice:
    return TargetDevice(path=device.path, description=device.describe(), model=device.model, size_bytes=device.size_bytes,
                        kind=device.kind, stack=list(device.stack), in_use=device.uses(), ram=device.ram_reason() or "")


class DevicesResult(Result):
    devices: list[TargetDevice]


class DeviceEffect(Result):
    """What a test will do to a block device it targets, said in its estimate before it starts (the
    overwrite confirmation shows it); every kind's estimate carries it."""

    device: TargetDevice | None = Field(default=None, description="the block device the test targets, if it is one")
    overwrite_bytes: int = Field(default=0, description="bytes of the device the test overwrites (0: it only reads)")
    region: str = Field(default="", description="what the test does to the device, in one sentence")

    @staticmethod
    def of(region: DeviceRegion | None, *, writes: bool | None = None) -> dict[str, Any]:
        """The fields for a test using ``region`` (None: no block device); ``writes`` where the test
        writes whatever its first point does (default: as the region says)."""
        if region is None:
            return {}
        written = region.writes if writes is None else writes
        return {"device": target_device(region.device), "overwrite_bytes": region.size_bytes if written else 0,
                "region": region.sentence()}


class SweepEstimate(DeviceEffect):
    name: str
    points: list[PlannedPoint]
    repeats: int
    total_points: int
    estimated_s: float = Field(description="ramp + runtime of every point, per-point overhead and test-file layout")
    layout_bytes: int
    cool_down: str = Field(default="", description="what the cool-down between points adds to the "
                           "duration, in words ('' without one)")


class ResumeParams(Params):
    sweep_id: int | None = Field(default=None, description="default: the caller's own last interrupted sweep; "
                                 "another person's only by its id, and never one running now")


class SweepWhere(Result):
    """Where a running sweep is: the fields its status adds."""

    name: str = ""
    count: Count | None = Field(
        default=None, description="the running sweep's points finished, of how many")


CancelResult = cancel_answer("CancelResult", "sweep_id", "sweep")
SweepStatus = job_status("SweepStatus", "sweep_id", SweepWhere)
"""A sweep's status and what its cancel answers, as every job kind's (``kind.py``)."""


class SweepsResult(Result):
    sweeps: list[SweepInfo]
    last_finished: SweepInfo | None = Field(
        default=None,
        description="the newest sweep that ended done or cancelled with runs kept: what Results opens")
    interrupted: SweepInfo | None = Field(
        default=None,
        description="the caller's own newest interrupted sweep (its process died, or a host was lost): what "
        "sweep.resume continues unasked; null when none of the caller's was interrupted")


class RunsListParams(Params):
    tag: str | None = Field(default=None, description="key=value, or a bare value matching any tag")
    text: str | None = Field(default=None, description="matched against target, device model, engine and source")
    since: str | None = Field(default=None, description="ISO date or time")
    sweep_id: int | None = None
    limit: int = Field(default=500, ge=1, le=5000, description="the newest N matching runs; a sweep_id lists all its runs")
    run_ids: list[int] | None = Field(default=None, max_length=5000, description=(
        "only these runs, all of them (History's selection opened in Results; at most 5000: Models learns "
        "from more)"))


class RunsListResult(Result):
    runs: list[RunResult] = Field(description="oldest first; without per-second progress and histogram bins; runs.get has them")
    total: int = Field(description="how many runs match in all; more than len(runs) when the limit left older ones out")


class RunIdParams(Params):
    run_id: int


class RunResultEnvelope(Result):
    run: RunResult


class TagParams(Params):
    run_id: int
    tags: dict[str, Annotated[str, Field(max_length=200)]]


class DeleteResult(Result):
    deleted: bool


class ExportParams(Params):
    run_ids: list[int] = Field(default_factory=list)
    sweep_id: int | None = None


class ExportResult(Result):
    csv: str
    filename: str
    runs: int


_POOL = ("pool runs of one setting from different sweeps, or different points of one sweep, into "
         "one mean ± CI (the user's explicit choice); off: only the repeats of one point that a "
         "sweep asked for are pooled")


class ChartsParams(Params):
    run_ids: list[int] = Field(max_length=20000, description="the runs the charts are about")
    compare_with: list[int] = Field(default_factory=list, max_length=20000, description="earlier runs, drawn beside them")
    spec_id: str | None = Field(default=None, description="a spec sheet whose rated IOPS are drawn as reference points")
    pool_same_setting: bool = Field(default=False, description=_POOL)


class BarGroup(Params):
    label: str = Field(max_length=200, description="e.g. 'interface=SATA'")
    run_ids: list[int] = Field(max_length=MAX_RUN_IDS)


class BarsParams(Params):
    groups: list[BarGroup] = Field(min_length=1, max_length=64, description="one series of bars each, in this order")
    metric: Literal["iops", "bw_bytes_per_s", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9"] = "iops"
    pool_same_setting: bool = Field(default=False, description=_POOL)


class SummaryParams(Params):
    """The student's summary of a sweep's runs or of chosen runs (``runs.summary``)."""

    run_ids: list[int] = Field(default_factory=list, max_length=20000)
    sweep_id: int | None = None
    spec_id: str | None = Field(default=None, description="a spec sheet to compare with; default: "
                                "the one chosen earlier for the device, else the one matching it")
    compare_spec: bool = Field(default=True, description="false: compare with no spec sheet")
    pool_same_setting: bool = Field(default=False, description=_POOL)
