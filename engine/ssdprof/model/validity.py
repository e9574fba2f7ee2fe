"""Validity warnings: reasons not to trust a number, computed from the result itself."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ssdprof.model.plateau import HostLoad, Limit, capped_outside
from ssdprof.model.results import (
    DeviceQueue,
    DirectionStats,
    Environment,
    HostResult,
    Measurement,
    MonitorSample,
    ProgressSample,
    Severity,
    ValidityWarning,
)
from ssdprof.model.workload import Workload

__all__ = ["CPU_SATURATED_PCT", "SHORT_RUN_FRACTION", "check_validity"]

CPU_SATURATED_PCT = 90.0
SHORT_RUN_FRACTION = 0.95
# No flash device completes a 4K read in under ~5 µs (Optane ~7 µs); faster means a cache answered.
CACHE_READ_LATENCY_NS = 5_000.0


def check_validity(workload: Workload, measurement: Measurement, read: DirectionStats, write: DirectionStats, *,
                   environment: Environment, cpu_busy_pct: float | None,
                   device_queue: DeviceQueue | None = None) -> list[ValidityWarning]:
    warnings = list(measurement.extra_warnings)
    limit = environment.interface_limit_bytes_per_s
    for name, stats in (("read", read), ("write", write)):
        if not stats.active:
            continue
        if limit and stats.bw_bytes_per_s > limit * 1.02:
            warnings.append(ValidityWarning(
                code="above_interface_limit", concerns=[f"{name}.bw_bytes_per_s"],
                message=f"{name} bandwidth {stats.bw_bytes_per_s / 1e6:.0f} MB/s exceeds the {environment.interface} "
                        f"link's {limit / 1e6:.0f} MB/s: a cache answered, not the device"))
        if stats.runtime_ms and stats.runtime_ms < workload.runtime_s * 1000 * SHORT_RUN_FRACTION and not measurement.cancelled:
            warnings.append(ValidityWarning(
                code="short_run", concerns=[f"{name}.iops"],
                message=f"{name} ran {stats.runtime_ms / 1000:.1f} s of the {workload.runtime_s:g} s asked"))
    if workload.direct and read.active and read.lat_ns.p50 is not None and read.lat_ns.p50 < CACHE_READ_LATENCY_NS:
        warnings.append(ValidityWarning(
            code="cache_suspected", concerns=["read.lat_ns.p50"],
            message=f"median read latency {read.lat_ns.p50 / 1000:.1f} µs is faster than any flash device: "
                    "a cache (RAM disk, hypervisor or controller cache) is answering"))
    if not workload.direct:
        warnings.append(ValidityWarning(
            code="buffered", severity=Severity.WARNING, concerns=["read", "write"],
            message="buffered run: the page cache is in the path; these are not device numbers"))
    for line in measurement.errors[:5]:
        warnings.append(ValidityWarning(code="tool_error", severity=Severity.ERROR, message=line))
    if cpu_busy_pct is not None and cpu_busy_pct >= CPU_SATURATED_PCT:
        warnings.append(ValidityWarning(
            code="cpu_saturated", concerns=["read.iops", "write.iops"],
            message=f"the CPU was {cpu_busy_pct:.0f} % busy: the result may be CPU-bound, not device-bound"))
    if measurement.engine.effective_queue_depth < workload.queue_depth:
        warnings.append(ValidityWarning(
            code="queue_depth_realised_as_jobs", severity=Severity.INFO, concerns=["workload.queue_depth"],
            message=measurement.engine.reason))
    if len(measurement.hosts) > 1 or measurement.monitor:
        warnings += host_warnings(measurement.hosts, measurement.monitor, progress=measurement.progress,
                                  workload=workload)
    elif device_queue is not None and len(measurement.hosts) == 1:
        warnings += _local_plateau(workload, measurement, environment, cpu_busy_pct, device_queue)
    return warnings


NETWORK_BOUND_FRACTION = 0.9
SLOW_HOST_FRACTION = 0.5


def host_warnings(hosts: list[HostResult], monitor: list[MonitorSample], *, progress: Sequence[ProgressSample] = (),
                  workload: Workload | None = None) -> list[ValidityWarning]:
    """Bottleneck flags across hosts: network near link speed, CPU saturated, one host far slower,
    a plateau capped outside the host (where the per-second series and the workload are given)."""
    warnings: list[ValidityWarning] = []
    if workload is not None:
        warnings += _plateaus(hosts, monitor, progress, workload)
    for host in hosts:
        samples = [s for s in monitor if s.host == host.host]
        warnings += _network_bound(host, samples)
        busy = [s.cpu_busy_pct for s in samples]
        if busy and sum(busy) / len(busy) >= CPU_SATURATED_PCT:
            warnings.append(ValidityWarning(code="cpu_bound", concerns=[f"hosts.{host.host}"], message=(
                f"{host.host}: CPU {sum(busy) / len(busy):.0f} % busy on average: the client's CPU was the limit")))
    rates = sorted(h.read.iops + h.write.iops for h in hosts if not h.error)
    if len(rates) >= 2:
        median = statistics.median(rates)
        for host in hosts:
            rate = host.read.iops + host.write.iops
            if not host.error and median > 0 and rate < SLOW_HOST_FRACTION * median:
                warnings.append(ValidityWarning(code="slow_host", concerns=[f"hosts.{host.host}"], message=(
                    f"{host.host}: {rate:.0f} IOPS is under half the hosts' median ({median:.0f}): check that host")))
    return warnings


def _network_bound(host: HostResult, samples: list[MonitorSample]) -> list[ValidityWarning]:
    """Traffic near the host's link limit (the lowest of NIC speed, egress shaping and the speed set for the host,
    named by its source), or, for a host recorded without one, near any NIC's speed."""
    if not samples:
        return []
    warnings = []
    for nic, limit, source in _links(host):
        # Sustained, not peak: the median second of each direction. A burst of a second or two at the link's speed
        # (a cache answering) does not make a run network-bound; a run that spends most of its time there is.
        sustained = max(statistics.median(_traffic(s.net_rx_bytes_per_s, nic) for s in samples),
                        statistics.median(_traffic(s.net_tx_bytes_per_s, nic) for s in samples))
        if sustained >= NETWORK_BOUND_FRACTION * limit:
            where = nic or "its NICs"
            warnings.append(ValidityWarning(code="network_bound", concerns=[f"hosts.{host.host}"], message=(
                f"{host.host}: {where} carried {sustained / 1e6:.1f} MB/s (median second) of its {limit / 1e6:.1f} MB/s "
                f"link ({source}): the network, not the storage, was the limit")))
    return warnings


def _links(host: HostResult) -> list[tuple[str, float, str]]:
    """(interface or "" for all, bytes/s, source): the host's link limit, else every NIC's known speed."""
    if host.link_limit_bytes_per_s:
        return [(host.link_interface, host.link_limit_bytes_per_s, host.link_limit_source)]
    return [(nic, mbps * 1e6 / 8, f"NIC speed of {nic}") for nic, mbps in host.nic_speeds_mbps.items() if mbps > 0]


def _plateaus(hosts: list[HostResult], monitor: list[MonitorSample], progress: Sequence[ProgressSample],
              workload: Workload) -> list[ValidityWarning]:
    loads = []
    for host in hosts:
        if host.error:
            continue
        busy = [s.cpu_busy_pct for s in monitor if s.host == host.host]
        loads.append(HostLoad(
            host=host.host, samples=[s for s in progress if s.host == host.host],
            limits=[Limit(rate, source) for _nic, rate, source in _links(host)],
            cpu_busy_pct=sum(busy) / len(busy) if busy else None, device=host.device_queue,
            bytes_per_s_per_job=(host.read.bw_bytes_per_s + host.write.bw_bytes_per_s) / max(host.jobs, 1)))
    found = (capped_outside(load, workload, peers=loads, cpu_saturated_pct=CPU_SATURATED_PCT) for load in loads)
    return [warning for warning in found if warning is not None]


def _local_plateau(workload: Workload, measurement: Measurement, environment: Environment, cpu_busy_pct: float | None,
                   device_queue: DeviceQueue) -> list[ValidityWarning]:
    """This machine's run, judged only where its disk's utilisation was counted: with no network in
    the path, the device's own word is what tells a cap (QoS, the path to the device) from the device."""
    host = measurement.hosts[0]
    interface = environment.interface_limit_bytes_per_s
    limits = [Limit(interface, f"{environment.interface or 'device'} link")] if interface else []
    load = HostLoad(host=host.host, samples=measurement.progress, limits=limits, cpu_busy_pct=cpu_busy_pct,
                    device=device_queue)
    found = capped_outside(load, workload, peers=(), cpu_saturated_pct=CPU_SATURATED_PCT,
                           where="outside this machine's device (a QoS limit, or the path to the device)")
    return [found] if found is not None else []


def _traffic(rates: dict[str, float], nic: str) -> float:
    return rates.get(nic, 0.0) if nic else sum(rate for name, rate in rates.items() if name != "lo")
