"""What each host of a run measured and carried: its own figures, the queue its disk held, its CPU
and network each second, the storage nodes watched beside it, and the Ceph cluster behind them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ssdprof.model.direction import DirectionStats
from ssdprof.model.health import HealthRecord
from ssdprof.model.value import Value

__all__ = ["ClusterFacts", "DeviceQueue", "HostResult", "InterfaceLoad", "MonitorSample", "WatchedHost"]


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


class HostResult(Value):
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


class MonitorSample(Value):
    """One second of a host's CPU and network while a run went on."""

    host: str
    elapsed_s: float
    cpu_busy_pct: float
    net_rx_bytes_per_s: dict[str, float] = Field(default_factory=dict)
    net_tx_bytes_per_s: dict[str, float] = Field(default_factory=dict)
    disk_busy_pct: dict[str, float] = Field(
        default_factory=dict, description="per disk, the share of the second it had I/O in flight "
        "(/proc/diskstats io_ticks), for the disks that did I/O; watched hosts only")


class InterfaceLoad(Value):
    """One network interface of a watched host during a run: its sustained traffic and its link
    limit."""

    interface: str
    rx_bytes_per_s_median: float = Field(description="received, the median second of the run")
    tx_bytes_per_s_median: float = Field(description="sent, the median second of the run")
    link_limit_bytes_per_s: float | None = Field(
        default=None,
        description="the lowest of its NIC speed, egress qdisc rate and the speed set for the host")
    link_limit_source: str = Field(
        default="", description="where the link limit came from, e.g. 'tbf rate on eth0'")


class WatchedHost(Value):
    """A host watched during the run without running any I/O (a monitor-only host: a Ceph OSD or
    MON node, a server behind the target). Its per-second samples are in RunResult.monitor under
    its name."""

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


class ClusterFacts(Value):
    """A Ceph cluster as `ceph -s` and `ceph osd tree` described it when the run started."""

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
