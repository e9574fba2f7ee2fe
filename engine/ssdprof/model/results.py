"""Result types shared by every runner, the store, analysis and the front ends.

All latencies are nanoseconds, all rates per second, all sizes bytes; the names say so.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from pydantic import Field, field_validator, model_validator

from ssdprof.model.aggregate import mixed
from ssdprof.model.cooldown import CoolDownWait
from ssdprof.model.direction import BIN_FIELDS, DirectionStats, LatencyStats, SpanStats
from ssdprof.model.drive_state import DriveState
from ssdprof.model.health import HealthRecord
from ssdprof.model.hosts import ClusterFacts, DeviceQueue, HostResult, InterfaceLoad, MonitorSample, WatchedHost
from ssdprof.model.provenance import Provenance
from ssdprof.model.spans import own_start, with_starts
from ssdprof.model.status import RunStatus
from ssdprof.model.value import Value
from ssdprof.model.workload import Workload

__all__ = [
    "BIN_FIELDS",
    "ClusterFacts",
    "DeviceQueue",
    "DirectionStats",
    "EngineInfo",
    "Environment",
    "FioSteadyState",
    "HostResult",
    "InterfaceLoad",
    "LatencyStats",
    "Measurement",
    "MonitorSample",
    "ProgressSample",
    "RunResult",
    "Severity",
    "SpanStats",
    "ValidityWarning",
    "WatchedHost",
]


class EngineInfo(Value):
    name: str = Field(description="fio or portable")
    version: str = ""
    ioengine: str = Field(default="", description="fio ioengine or the portable engine's I/O method")
    reason: str = Field(default="", description="why this engine was chosen")
    effective_queue_depth: int = Field(default=1, description="outstanding I/Os per job actually achievable")
    direct: bool = True
    loop: str = Field(default="", description="the portable engine's I/O loop: native (the compiled ssdprof-io) or python "
                                              "(the last resort where no compiled loop runs here); empty for fio")


class Environment(Value):
    os: str = ""
    kernel: str = ""
    hostname: str = ""
    cpu_model: str = ""
    cpu_count: int = 0
    memory_bytes: int = 0
    python: str = ""
    ssdprof: str = ""
    tool_versions: dict[str, str] = Field(default_factory=dict)
    device: str = Field(default="", description="block device holding the target, e.g. nvme0n1")
    device_model: str = ""
    device_serial: str = ""
    device_firmware: str = ""
    interface: str = Field(default="", description="NVMe, SATA, SAS, virtio, ... as far as the OS tells")
    pcie_link: str = Field(default="", description="e.g. '8.0 GT/s PCIe x4'")
    interface_limit_bytes_per_s: float | None = None
    rotational: bool | None = None
    logical_block_bytes: int | None = None
    filesystem: str = ""
    mount_options: str = ""
    mount_point: str = ""
    cluster: ClusterFacts | None = None
    # A block device as target: the device measured, and what lies beneath it (the device_* facts,
    # interface and limits above are those of the disk at the bottom of that stack).
    target_device: str = Field(default="", description="the block device measured, e.g. /dev/nvme1n1 or /dev/loop3")
    target_device_kind: str = Field(default="", description="disk, partition, loop, dm, md, zram or ram")
    target_device_bytes: int | None = None
    backing_file: str = Field(default="", description="a loop device's backing file")
    device_stack: list[str] = Field(default_factory=list, description="from the target down to the disk, one layer each")
    physical_block_bytes: int | None = None
    scheduler: str = ""
    queue_depth_limit: int | None = Field(default=None, description="the block layer's nr_requests")
    device_queue_depth: int | None = Field(default=None, description="the device's own queue depth (SCSI/SATA), where told")


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class ValidityWarning(Value):
    code: str
    severity: Severity = Severity.WARNING
    message: str
    concerns: list[str] = Field(default_factory=list, description="fields the warning is about, e.g. read.iops")


class ProgressSample(Value):
    """Per-second progress: rates over the interval ending at ``elapsed_s``."""

    elapsed_s: float
    interval_s: float | None = Field(
        default=None, description="the time the rates are over, ending at elapsed_s (fio's first "
        "interval is its I/O time, short of a second by the job's start); null: not recorded")
    start_s: float | None = Field(
        default=None, description="where the interval the rates are over begins, in seconds since the run "
        "started: what a chart draws each sample across (model/spans.py; a run's samples always carry it, "
        "a live event's wherever its interval was recorded)")
    read_iops: float = 0.0
    write_iops: float = 0.0
    read_bw_bytes_per_s: float = 0.0
    write_bw_bytes_per_s: float = 0.0
    read_lat_ns_mean: float | None = Field(default=None, description="total latency over the interval")
    write_lat_ns_mean: float | None = None
    read_lat_ns_p99: float | None = None
    write_lat_ns_p99: float | None = None
    lat_ns_mean: float | None = Field(default=None, description="all the interval's I/Os, reads and writes "
                                                                "together, I/O-weighted")
    lat_ns_p99: float | None = Field(default=None, description="all the interval's I/Os: the p99 of the reads' "
                                                               "and writes' merged bins (null: none recorded)")
    host: str = "local"
    ramping: bool = False

    @model_validator(mode="after")
    def _own_start(self) -> ProgressSample:
        if self.start_s is None and self.interval_s is not None:
            object.__setattr__(self, "start_s", own_start(self.elapsed_s, self.interval_s))  # frozen: set while validating
        return self


class FioSteadyState(Value):
    """fio's own steady-state detection (``--ss``), as its JSON output reports it."""

    ss: str = Field(description="the criterion as given, e.g. 'iops_slope:0.3%'")
    duration_s: float = Field(description="ss_dur: the window fio judged over")
    ramp_s: float = Field(description="ss_ramp: time before fio began judging")
    attained: bool
    criterion: str = Field(description="fio's limit, e.g. '0.30%'")
    max_deviation: float
    slope: float
    iops_samples: list[float] = Field(default_factory=list, description="fio's per-second IOPS samples of the window")
    bw_samples: list[float] = Field(default_factory=list, description="fio's per-second bandwidth samples, bytes/s (fio 3.x)")


class RunResult(Value):
    """A finished measurement point: the aggregate, every host, and how it was obtained."""

    id: int | None = None
    sweep_id: int | None = None
    repeat: int = 0
    started_at: str = ""
    finished_at: str = ""
    status: RunStatus = "ok"
    engine: EngineInfo
    workload: Workload
    environment: Environment = Environment()
    warnings: list[ValidityWarning] = Field(default_factory=list)
    hosts: list[HostResult] = Field(default_factory=list)
    read: DirectionStats = DirectionStats()
    write: DirectionStats = DirectionStats()
    mixed: DirectionStats = Field(
        default=DirectionStats(), description="all I/Os, reads and writes together (fio's "
        "unified_rw_reporting=mixed): IOPS and bandwidth added, the mean I/O-weighted, percentiles from "
        "the two directions' merged histogram bins (null where a direction has none); a run of one "
        "direction: that direction. Without bins. Filled from read and write when not given")
    progress: list[ProgressSample] = Field(default_factory=list, description="each sample with the span it covers")
    tags: dict[str, str] = Field(default_factory=dict)
    source: str = Field(default="measured", description="measured or imported:<file name>")
    imported: Provenance | None = Field(default=None, description="an imported run's source: the tool, its version, the "
                                                                   "file and what each figure was there; null if measured")
    cpu_busy_pct: float | None = Field(default=None, description="mean CPU busy % of the machine during the run")
    monitor: list[MonitorSample] = Field(
        default_factory=list,
        description="per-host CPU and network, every second (watched hosts' too, with their disks)")
    watched: list[WatchedHost] = Field(
        default_factory=list,
        description="hosts watched without running I/O (monitor-only: storage nodes), with what "
                    "they carried")
    start_skew_ms: float | None = Field(default=None, description="spread of the hosts' fio start times")
    raw_output: str = Field(default="", exclude=True, description="the tool's raw output, stored beside the result")
    job_text: str = Field(default="", description="a plain fio job file reproducing the point")
    drive_state: DriveState | None = Field(default=None, description="what was done to the target before measuring, bytes "
                                                                      "written since its last purge, steady state; null on "
                                                                      "runs stored before ssdprof recorded it")
    fio_steadystate: FioSteadyState | None = Field(default=None, description="fio's own steadystate object, where fio wrote one")
    device_queue: DeviceQueue | None = Field(default=None, description="the device's side of the queue (local direct I/O "
                                                                       "on a disk the OS counts); null elsewhere")
    drive_health: HealthRecord | None = Field(
        default=None, description="the drive's own word before and after the run (SMART, hwmon), the "
        "difference and the temperatures seen; null where not asked (hosts, runs before ssdprof kept it)")
    cool_down: CoolDownWait | None = Field(
        default=None, description="the sweep's cool-down gate before this point: how long it "
        "waited, the drive's temperature then; null where the sweep asked for none")
    measured_by: str = Field(default="", description="the user who stored the run (login name); '' before ssdprof kept it")
    measured_on: str = Field(default="", description="the machine that stored the run (host name); '' before ssdprof kept it")

    @model_validator(mode="after")
    def _all_ios(self) -> RunResult:
        """A run made, or stored before ``mixed`` was kept, has it computed from read and write."""
        if "mixed" not in self.model_fields_set:
            object.__setattr__(self, "mixed", mixed(self.read, self.write))  # frozen: set once, while validating
        return self

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> RunResult:
        """A copy; one with another read or write has its ``mixed`` computed again from them, and new
        samples are spanned as the constructor spans them (a copy skips validation)."""
        if update is not None and "progress" in update:
            update = {**update, "progress": with_starts(update["progress"])}
        copied = super().model_copy(update=update, deep=deep)
        if update and ("read" in update or "write" in update) and "mixed" not in update:
            object.__setattr__(copied, "mixed", mixed(copied.read, copied.write))
        return copied

    def summary_json(self) -> dict[str, Any]:
        """The documented, stable ``--json`` shape (bins and time series left out)."""
        data = self.model_dump(mode="json", exclude={"progress"})
        for part in (data, *data["hosts"]):
            for direction in ("read", "write"):
                for bins in BIN_FIELDS:
                    part[direction].pop(bins, None)
        return data

    @field_validator("progress")
    @classmethod
    def _spans(cls, progress: list[ProgressSample]) -> list[ProgressSample]:
        return with_starts(progress)


class Measurement(Value):
    """What an engine hands back for one point, before validity checks and storage."""

    engine: EngineInfo
    hosts: list[HostResult]
    raw_output: str = ""
    errors: list[str] = Field(default_factory=list, description="error lines the tool printed")
    notes: list[str] = Field(default_factory=list, description="non-error notes, e.g. fio's warnings")
    cancelled: bool = False
    progress: list[ProgressSample] = Field(default_factory=list)
    job_text: str = Field(default="", description="a plain fio job file reproducing the point")
    extra_warnings: list[ValidityWarning] = Field(default_factory=list)
    monitor: list[MonitorSample] = Field(default_factory=list)
    watched: list[WatchedHost] = Field(default_factory=list)
    start_skew_ms: float | None = None
    fio_steadystate: FioSteadyState | None = None
