"""What a watched host's seconds add up to (:class:`~ssdprof.model.results.WatchedHost`), and the
verdicts they give: a storage node whose link carried near its limit, whose disk was busy nearly all
the time, or whose CPU was saturated is named as the limit, in the same terms as a client's
(:mod:`ssdprof.model.validity`)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from ssdprof.model.results import (
    InterfaceLoad,
    MonitorSample,
    Severity,
    ValidityWarning,
    WatchedHost,
)
from ssdprof.model.validity import CPU_SATURATED_PCT, NETWORK_BOUND_FRACTION
from ssdprof.remote.links import host_link_limit
from ssdprof.remote.probe import HostProbe

__all__ = ["DISK_BUSY_PCT", "describe_watched", "watched_warnings"]

DISK_BUSY_PCT = 95.0
"""A disk with I/O in flight this much of its median second was the limit (io_ticks:
/proc/diskstats)."""


def describe_watched(
    name: str,
    probe: HostProbe,
    samples: Sequence[MonitorSample],
    link_gbps: float | None,
    error: str | None = None,
) -> WatchedHost:
    """A watched host during one point: its mean CPU, each interface's median second against its
    link limit, each disk's median busy second."""
    if not probe.reachable and error is None:
        error = probe.error or f"{name}: not reached"
    busy = [s.cpu_busy_pct for s in samples]
    return WatchedHost(
        host=name,
        os=probe.os,
        cpu_count=probe.cpu_count,
        nic_speeds_mbps=dict(probe.nics),
        seconds=len(samples),
        cpu_busy_pct_mean=statistics.fmean(busy) if busy else None,
        interfaces=_interfaces(name, probe, samples, link_gbps),
        disk_busy_pct_median={
            disk: statistics.median(s.disk_busy_pct.get(disk, 0.0) for s in samples)
            for disk in sorted({d for s in samples for d in s.disk_busy_pct})
        },
        error=error,
    )


def _interfaces(
    name: str, probe: HostProbe, samples: Sequence[MonitorSample], link_gbps: float | None
) -> list[InterfaceLoad]:
    nics = sorted(
        {
            nic
            for s in samples
            for table in (s.net_rx_bytes_per_s, s.net_tx_bytes_per_s)
            for nic in table
            if nic != "lo"
        }
    )
    loads = []
    for nic in nics:
        rx = statistics.median(s.net_rx_bytes_per_s.get(nic, 0.0) for s in samples)
        tx = statistics.median(s.net_tx_bytes_per_s.get(nic, 0.0) for s in samples)
        if not (rx or tx) and not any(
            s.net_rx_bytes_per_s.get(nic) or s.net_tx_bytes_per_s.get(nic) for s in samples
        ):
            continue  # an interface that carried nothing at all says nothing
        limit = host_link_limit(name, nic, probe.nics, probe.shaping, link_gbps)
        loads.append(
            InterfaceLoad(
                interface=nic,
                rx_bytes_per_s_median=rx,
                tx_bytes_per_s_median=tx,
                link_limit_bytes_per_s=limit.bytes_per_s if limit else None,
                link_limit_source=limit.source if limit else "",
            )
        )
    return sorted(
        loads, key=lambda load: -max(load.rx_bytes_per_s_median, load.tx_bytes_per_s_median)
    )


def watched_warnings(watched: Sequence[WatchedHost]) -> list[ValidityWarning]:
    """Each watched host that was the limit (link, disk or CPU), and each that could not be
    watched."""
    warnings: list[ValidityWarning] = []
    for host in watched:
        if host.error:
            warnings.append(_verdict(host, "watched_unreachable", (
                f"{host.error} (watched host: its load is missing from this run)")))
        for load in host.interfaces:
            carried = max(load.rx_bytes_per_s_median, load.tx_bytes_per_s_median)
            limit = load.link_limit_bytes_per_s
            if limit and carried >= NETWORK_BOUND_FRACTION * limit:
                warnings.append(_verdict(host, "watched_network_bound", (
                    f"{host.host}: {load.interface} carried {_mb(carried)} MB/s of its "
                    f"{_mb(limit)} MB/s link ({load.link_limit_source}): the storage node's "
                    "network was the limit")))
        for disk, pct in host.disk_busy_pct_median.items():
            if pct >= DISK_BUSY_PCT:
                warnings.append(_verdict(host, "watched_disk_busy", (
                    f"{host.host}: {disk} was busy {pct:.0f} % of the median second: the storage "
                    "node's disk was the limit")))
        cpu = host.cpu_busy_pct_mean
        if cpu is not None and cpu >= CPU_SATURATED_PCT:
            warnings.append(_verdict(host, "watched_cpu_bound", (
                f"{host.host}: CPU {cpu:.0f} % busy on average: the storage node's CPU was the "
                "limit")))
    return warnings


def _verdict(host: WatchedHost, code: str, message: str) -> ValidityWarning:
    return ValidityWarning(code=code, severity=Severity.WARNING, concerns=[f"watched.{host.host}"],
                           message=message)


def _mb(bytes_per_s: float) -> str:
    """MB/s with three figures: 118, 23.9, 9.84."""
    mb = bytes_per_s / 1e6
    return f"{mb:.0f}" if mb >= 100 else f"{mb:.1f}" if mb >= 10 else f"{mb:.2f}"
