"""Result types shared by every runner, the store, analysis and the front ends.

All latencies are nanoseconds, all rates per second, all sizes bytes; the names say so.
"""

from __future__ import annotations

import enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from ssdprof.model.cooldown import CoolDownWait
from ssdprof.model.drive_state import DriveState
from ssdprof.model.health import HealthRecord
from ssdprof.model.status import RunStatus
from ssdprof.model.workload import Workload

__all__ = [
    "BIN_FIELDS",
    "DeviceQueue",
    "DirectionStats",
    "EngineInfo",
    "Environment",
    "FioSteadyState",
    "HostResult",
    "InterfaceLoad",
    "LatencyStats",
    "Measurement",
    "ProgressSample",
    "RunResult",
    "Severity",
    "SpanStats",
    "ValidityWarning",
    "WatchedHost",
]


class SpanStats(BaseModel):
    """A timed span's moments in nanoseconds, with no percentiles (fio's ``slat_ns``)."""

    model_config = ConfigDict(frozen=True)
    samples: int = 0
    mean: float | None = None
    stddev: float | None = None
    min: float | None = None
    max: float | None = None


class LatencyStats(SpanStats):
    """A latency in nanoseconds with its percentiles, from histogram bins where there are any."""

    p50: float | None = None
    p90: float | None = None
    p95: float | None = None
    p99: float | None = None
    p99_9: float | None = None
    p99_99: float | None = None
    from_bins: bool = Field(default=False, description="percentiles computed from histogram bins")


class DirectionStats(BaseModel):
    """One direction (read or write) of a run, a host or a job.

    ``lat_ns`` is THE latency: total, from submission to completion (fio's ``lat``, SNIA's response
    time), the span an application waits, and the one figure that compares across engines. fio's
    asynchronous engines split it into submission (``slat_ns``) and completion (``clat_ns``, which
    starts when the submission call returns); synchronous engines and the portable engine time the
    whole call, so there ``clat_ns`` is the same span as ``lat_ns``.
    """

    model_config = ConfigDict(frozen=True)
    io_count: int = 0
    io_bytes: int = 0
    runtime_ms: float = 0.0
    iops: float = 0.0
    bw_bytes_per_s: float = 0.0
    lat_ns: LatencyStats = Field(default=LatencyStats(), description="total latency, submission to completion")
    clat_ns: LatencyStats = Field(default=LatencyStats(), description="completion latency (after the submission call returned)")
    slat_ns: SpanStats = Field(default=SpanStats(), description="submission latency (the submission call itself)")
    lat_bins_ns: dict[int, int] = Field(default_factory=dict,
                                        description="total latency, fio-layout histogram: bucket midpoint ns -> count")
    clat_bins_ns: dict[int, int] = Field(default_factory=dict, description="completion latency, fio-layout histogram")

    @property
    def active(self) -> bool:
        return self.io_count > 0

    @computed_field(  # type: ignore[prop-decorator]  # pydantic's documented form: computed_field over property
        description="what was recorded of latency: total (with percentiles), total_mean_only (old fio output: "
                    "mean/min/max), completion_only (clat without total), none; empty without I/O")
    @property
    def latency_kind(self) -> str:
        if not self.active:
            return ""
        if self.lat_ns.p50 is not None:
            return "total"
        if self.lat_ns.mean is not None:
            return "total_mean_only"
        return "completion_only" if self.clat_ns.mean is not None or self.clat_ns.p50 is not None else "none"


BIN_FIELDS = ("lat_bins_ns", "clat_bins_ns")
"""Histogram fields of DirectionStats, left out of summaries and light listings."""


class DeviceQueue(BaseModel):
    """How much of the queue reached the device, from the OS's disk counters read around the run
    (see :mod:`ssdprof.target.device_queue`)."""

    disk: str = Field(description="the disk counted, e.g. nvme0n1 or vda")
    requested_outstanding: int = Field(description="I/Os the engine kept outstanding: queue depth × jobs")
    mean_in_flight: float = Field(description="mean I/Os the block layer held: the run's IOPS × block-layer time "
                                              "per I/O issued (Little's law)")
    read_request_lat_ns_mean: float | None = Field(default=None, description="mean block-layer time per read request, "
                                                                             "arrival at the block layer to completion")
    write_request_lat_ns_mean: float | None = Field(default=None, description="the same for write requests")
    requests: int = Field(default=0, description="requests the disk completed during the run, ramp and any other I/O "
                                                 "on the disk included")
    busy_pct: float | None = Field(
        default=None, description="the disk's utilisation: the share of the point's time it had a "
        "request in flight (its io_ticks); null where not timed")


class HostResult(BaseModel):
    model_config = ConfigDict(frozen=True)
    host: str
    read: DirectionStats = DirectionStats()
    write: DirectionStats = DirectionStats()
    jobs: int = 1
    error: str | None = None
    target: str = Field(default="", description="what this host measured: a file, a device or pool/image")
    os: str = ""
    cpu_count: int = 0
    fio_version: str = ""
    nic_speeds_mbps: dict[str, int] = Field(default_factory=dict, description="link speed per interface, -1 unknown")
    start_epoch_ns: int | None = Field(
        default=None, description="when the host's first fio job was let through its start gate, by the host's clock")
    jobs_start_epoch_ns: list[int] = Field(
        default_factory=list, description="when each of the host's fio jobs was let through its start gate, right before fio's I/O loop, "
        "by the host's clock")
    link_limit_bytes_per_s: float | None = Field(
        default=None, description="the host's link limit: the lowest of NIC speed, egress qdisc rate and the speed set for it")
    link_limit_source: str = Field(default="", description="where the link limit came from, e.g. 'tbf rate on eth0'")
    link_interface: str = Field(default="", description="the interface that carried the run's traffic")
    device_queue: DeviceQueue | None = Field(default=None, description="how much of this host's queue reached its disk, "
                                                                       "where the host's disk counters could be read")
    clock_offset_ns: int | None = Field(
        default=None, description="the host's clock minus ssdprof's, from one exchange over its SSH session as the point "
        "started (the host's clock read between ssdprof's 'run' and its arrival back)")
    clock_offset_bound_ns: int | None = Field(
        default=None, description="half that exchange's round trip: the true offset lies within clock_offset_ns ± this")
    drive_health: HealthRecord | None = Field(
        default=None, description="what the disk beneath this host's target said of itself before and after the point")

    @property
    def clock_offset_label(self) -> str:
        """e.g. ``+2.503 s ± 4 ms``; '' when not measured."""
        if self.clock_offset_ns is None:
            return ""
        bound_ms = (self.clock_offset_bound_ns or 0) / 1e6
        return f"{self.clock_offset_ns / 1e9:+.3f} s ± {bound_ms:.0f} ms" if bound_ms >= 1 else (
            f"{self.clock_offset_ns / 1e9:+.4f} s ± {bound_ms:.1f} ms")


class MonitorSample(BaseModel):
    """One second of a host's CPU and network while a run went on."""

    model_config = ConfigDict(frozen=True)
    host: str
    elapsed_s: float
    cpu_busy_pct: float
    net_rx_bytes_per_s: dict[str, float] = Field(default_factory=dict)
    net_tx_bytes_per_s: dict[str, float] = Field(default_factory=dict)
    disk_busy_pct: dict[str, float] = Field(
        default_factory=dict, description="per disk, the share of the second it had I/O in flight "
        "(/proc/diskstats io_ticks), for the disks that did I/O; watched hosts only")


class InterfaceLoad(BaseModel):
    """One network interface of a watched host during a run: its sustained traffic and its link
    limit."""

    model_config = ConfigDict(frozen=True)
    interface: str
    rx_bytes_per_s_median: float = Field(description="received, the median second of the run")
    tx_bytes_per_s_median: float = Field(description="sent, the median second of the run")
    link_limit_bytes_per_s: float | None = Field(
        default=None,
        description="the lowest of its NIC speed, egress qdisc rate and the speed set for the host")
    link_limit_source: str = Field(
        default="", description="where the link limit came from, e.g. 'tbf rate on eth0'")


class WatchedHost(BaseModel):
    """A host watched during the run without running any I/O (a monitor-only host: a Ceph OSD or
    MON node, a server behind the target). Its per-second samples are in RunResult.monitor under
    its name."""

    model_config = ConfigDict(frozen=True)
    host: str
    role: Literal["monitor"] = "monitor"
    os: str = ""
    cpu_count: int = 0
    nic_speeds_mbps: dict[str, int] = Field(
        default_factory=dict, description="link speed per interface, -1 unknown")
    seconds: int = Field(
        default=0, description="samples (seconds) taken during the run, ramp left out")
    cpu_busy_pct_mean: float | None = Field(
        default=None, description="mean CPU busy % over those seconds")
    interfaces: list[InterfaceLoad] = Field(
        default_factory=list, description="its interfaces that carried traffic, busiest first")
    disk_busy_pct_median: dict[str, float] = Field(
        default_factory=dict, description="per disk that did I/O, the median second's busy %")
    error: str | None = Field(
        default=None, description="why it could not be watched (or only in part)")


class ClusterFacts(BaseModel):
    """A Ceph cluster as `ceph -s` and `ceph osd tree` described it when the run started."""

    model_config = ConfigDict(frozen=True)
    fsid: str = ""
    name: str = ""
    health: str = ""
    health_checks: list[str] = Field(default_factory=list)
    ceph_version: str = ""
    storage_nodes: int = 0
    osd_count: int = 0
    osds_up: int = 0
    device_classes: list[str] = Field(default_factory=list)
    recovering_or_scrubbing: bool = False
    pg_states: dict[str, int] = Field(default_factory=dict)


class EngineInfo(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str = Field(description="fio or portable")
    version: str = ""
    ioengine: str = Field(default="", description="fio ioengine or the portable engine's I/O method")
    reason: str = Field(default="", description="why this engine was chosen")
    effective_queue_depth: int = Field(default=1, description="outstanding I/Os per job actually achievable")
    direct: bool = True


class Environment(BaseModel):
    model_config = ConfigDict(frozen=True)
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


class ValidityWarning(BaseModel):
    model_config = ConfigDict(frozen=True)
    code: str
    severity: Severity = Severity.WARNING
    message: str
    concerns: list[str] = Field(default_factory=list, description="fields the warning is about, e.g. read.iops")


class ProgressSample(BaseModel):
    """Per-second progress: rates over the interval ending at ``elapsed_s``."""

    model_config = ConfigDict(frozen=True)
    elapsed_s: float
    read_iops: float = 0.0
    write_iops: float = 0.0
    read_bw_bytes_per_s: float = 0.0
    write_bw_bytes_per_s: float = 0.0
    read_lat_ns_mean: float | None = Field(default=None, description="total latency over the interval")
    write_lat_ns_mean: float | None = None
    read_lat_ns_p99: float | None = None
    write_lat_ns_p99: float | None = None
    host: str = "local"
    ramping: bool = False


class FioSteadyState(BaseModel):
    """fio's own steady-state detection (``--ss``), as its JSON output reports it."""

    model_config = ConfigDict(frozen=True)
    ss: str = Field(description="the criterion as given, e.g. 'iops_slope:0.3%'")
    duration_s: float = Field(description="ss_dur: the window fio judged over")
    ramp_s: float = Field(description="ss_ramp: time before fio began judging")
    attained: bool
    criterion: str = Field(description="fio's limit, e.g. '0.30%'")
    max_deviation: float
    slope: float
    iops_samples: list[float] = Field(default_factory=list, description="fio's per-second IOPS samples of the window")
    bw_samples: list[float] = Field(default_factory=list, description="fio's per-second bandwidth samples, bytes/s (fio 3.x)")


class RunResult(BaseModel):
    """A finished measurement point: the aggregate, every host, and how it was obtained."""

    model_config = ConfigDict(frozen=True)
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
    progress: list[ProgressSample] = Field(default_factory=list)
    tags: dict[str, str] = Field(default_factory=dict)
    source: str = Field(default="measured", description="measured or imported:<file name>")
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

    def summary_json(self) -> dict[str, Any]:
        """The documented, stable ``--json`` shape (bins and time series left out)."""
        data = self.model_dump(mode="json", exclude={"progress"})
        for part in (data, *data["hosts"]):
            for direction in ("read", "write"):
                for bins in BIN_FIELDS:
                    part[direction].pop(bins, None)
        return data


class Measurement(BaseModel):
    """What an engine hands back for one point, before validity checks and storage."""

    model_config = ConfigDict(frozen=True)
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
