"""What each host's part of a point becomes: fio's report with the host as the probe found it
(its OS, CPUs, NICs and the link limit its traffic met), the queue its disk held, its drive's own
word; and the warnings a point on hosts calls for (a reader that failed on a line, a disk queue
held shallow, a drive that throttled, hosts started apart, a Ceph cluster unwell or busy).
"""

from __future__ import annotations

from dataclasses import dataclass

from ssdprof.model.results import ClusterFacts, HostResult, Severity, ValidityWarning
from ssdprof.model.workload import Workload
from ssdprof.remote.drive_word import host_health_warnings
from ssdprof.remote.host_run import HostRun
from ssdprof.remote.links import busiest_interface, host_link_limit
from ssdprof.remote.probe import HostProbe
from ssdprof.target.device_queue import device_queue, device_queue_warnings, parse_diskstats

__all__ = ["SKEW_WARNING_MS", "KnownHosts", "cluster_warnings", "host_result", "point_warnings", "reader_warnings"]

SKEW_WARNING_MS = 50.0


@dataclass(frozen=True)
class KnownHosts:
    """What the sweep learnt of its hosts before the first point."""

    probes: dict[str, HostProbe]
    targets: dict[str, str]
    """Each host's test file, device or RBD image."""
    counted: dict[str, tuple[int, int]]
    """(major, minor) of the device whose /proc/diskstats line counts each host's I/O."""
    link_gbps: dict[str, float]
    """The link speeds the user set, by host name."""


def host_result(run: HostRun, known: KnownHosts, workload: Workload) -> HostResult:
    """One host's part of the point, described, with its disk's queue and its drive's word."""
    result = _with_device_queue(_describe(run, known), run, known, workload)
    return result.model_copy(update={"drive_health": run.drive_word.record(result.read, result.write)})


def point_warnings(hosts: list[HostResult], runs: list[HostRun], skew_ms: float | None,
                   workload: Workload) -> list[ValidityWarning]:
    """The warnings each host's part calls for, named for it, and the hosts' start skew."""
    warnings = reader_warnings(runs)
    for host in hosts:
        warnings += [w.model_copy(update={"message": f"{host.host}: {w.message}", "concerns": [f"hosts.{host.host}"]})
                     for w in device_queue_warnings(host.device_queue)]
        warnings += host_health_warnings(host.host, host.drive_health, workload.duration_s())
    if skew_ms is not None and skew_ms > SKEW_WARNING_MS:
        warnings.append(ValidityWarning(code="start_skew", concerns=["read.iops", "write.iops"],
                                        message=f"hosts started {skew_ms:.0f} ms apart (goal < {SKEW_WARNING_MS:.0f} ms)"))
    return warnings


def _describe(run: HostRun, known: KnownHosts) -> HostResult:
    result = run.result()
    probe = known.probes.get(result.host, HostProbe(reachable=False))
    interface = busiest_interface(run.monitor)
    limit = host_link_limit(result.host, interface, probe.nics, probe.shaping, known.link_gbps.get(result.host))
    return result.model_copy(update={
        "target": known.targets.get(result.host, ""), "os": probe.os, "cpu_count": probe.cpu_count,
        "fio_version": probe.fio_version, "nic_speeds_mbps": probe.nics,
        "link_interface": interface or (limit.interface if limit else ""),
        "link_limit_bytes_per_s": limit.bytes_per_s if limit else None, "link_limit_source": limit.source if limit else ""})


def _with_device_queue(result: HostResult, run: HostRun, known: KnownHosts, workload: Workload) -> HostResult:
    """How much of the host's queue reached its disk, from its /proc/diskstats before and after (direct, unpaced I/O)."""
    numbers = known.counted.get(result.host)
    if numbers is None or result.error or not workload.direct or workload.rate_iops:
        return result
    before = parse_diskstats(run.disks.get("before", "")).get(numbers)
    after = parse_diskstats(run.disks.get("after", "")).get(numbers)
    if before is None or after is None:
        return result
    # Read just before the gate and after fio ended: the point's ramp and runtime are nearly
    # all of that span, so its utilisation reads a hair high, the safe side for calling a
    # flat line the device's own.
    queue = device_queue(before[0], before[1], after[1], read=result.read, write=result.write,
                         block_size_bytes=workload.block_size_bytes, requested_outstanding=workload.outstanding_ios,
                         span_s=workload.duration_s())
    return result.model_copy(update={"device_queue": queue})


def reader_warnings(runs: list[HostRun]) -> list[ValidityWarning]:
    """Lines from a host that ssdprof's readers failed on: named, with what they cost (the point's result is fio's own)."""
    return [ValidityWarning(code="host_reader", concerns=[f"hosts.{run.host.name}"],
                            message=f"{run.host.name}: {error}; the point's result is fio's own report, "
                                    "per-second figures from that line on may be missing")
            for run in runs for error in run.reader_errors]


def cluster_warnings(cluster: ClusterFacts | None) -> list[ValidityWarning]:
    if cluster is None:
        return []
    warnings = []
    if cluster.health and cluster.health != "HEALTH_OK":
        warnings.append(ValidityWarning(code="cluster_health", message=f"the Ceph cluster was {cluster.health} "
                                        f"({', '.join(cluster.health_checks) or 'no details'}) during the run"))
    if cluster.recovering_or_scrubbing:
        warnings.append(ValidityWarning(code="cluster_busy", severity=Severity.WARNING,
                                        message="the cluster was recovering, backfilling or scrubbing: it competed with the workload"))
    return warnings
