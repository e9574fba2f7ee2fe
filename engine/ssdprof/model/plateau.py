"""A plateau, named: a host's throughput held flat far below every limit ssdprof can see, while
neither its CPU nor its device was the limit, was capped by something outside the host (the
network path beyond its own NIC, such as a switch port, an uplink or the far end's shaping, or a
QoS limit).  The one rule for it, asked by :mod:`ssdprof.model.validity` for every host of a run
(and for this machine's own run where its disk's utilisation was counted). A cap holds a flow
steady; a device, a CPU or a storage cluster answering under load wanders from second to second."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ssdprof.model.results import DeviceQueue, ProgressSample, ValidityWarning
from ssdprof.model.workload import Workload

__all__ = [
    "DEVICE_LIMIT_BUSY_PCT",
    "DEVICE_LIMIT_IN_FLIGHT",
    "FAR_BELOW_FRACTION",
    "FLAT_SECONDS_MIN",
    "FLAT_WITHIN_FRACTION",
    "PEER_BELOW_RATIO",
    "PEER_RATIO_CPU_CLEARED",
    "Flat",
    "HostLoad",
    "Limit",
    "capped_outside",
    "device_was_limit",
    "flat_line",
]

FLAT_WITHIN_FRACTION = 0.05
"""Every judged second within ± this of the median second, beyond what whole I/Os explain: a token
bucket or a port's line rate holds a flow this steady (the Ceph client shaped to 200 Mb/s outside
it read 24-26 MB/s each second at 4 KiB) where the unshaped one, storage-bound, wandered ± 25 %."""
FLAT_SECONDS_MIN = 5
"""Fewer judged seconds than this and a steady line may be chance."""
FAR_BELOW_FRACTION = 0.5
"""Below half the lowest limit seen: near a limit, that limit is the explanation (network_bound)."""
DEVICE_LIMIT_BUSY_PCT = 90.0
"""The disk had a request in flight this share of the time or more: the device held the line."""
DEVICE_LIMIT_IN_FLIGHT = 0.8
"""Or the block layer held this many requests on average (Little's law): the device was kept at work
nearly all the time. A cap before the device lets I/O through at its rate, each done in the
device's service time, far fewer held. Needed beside io_ticks, which blk-mq undercounts (this
project's virtio disk read 74 % busy while holding 17 requests on average)."""
PEER_BELOW_RATIO = 2.0
"""In a run on several hosts, a host is named capped outside itself only where another host of the run
moved at least this many times its bytes per job: through the same storage, the other was not held
there. A host as fast as the rest, held flat, may be held by the storage they share, which the
sweep's shared-limit rule names (the cluster here, CPU-bound under load, held the fastest client
within 2 % every second)."""
PEER_RATIO_CPU_CLEARED = 4.0
"""A saturated CPU is cleared as the limit when a host of the same run, its CPU saturated too, moved
this many times the bytes per job: under the same CPU load the host could have done far more."""


@dataclass(frozen=True)
class Limit:
    """A limit ssdprof can see on a host's traffic, and where it came from."""

    bytes_per_s: float
    source: str
    """e.g. "NIC speed of eth0", "tbf rate on eth0", "the NVMe link"."""


@dataclass(frozen=True)
class Flat:
    """A per-second series held flat: its median second, its widest deviation and its length."""

    median_bytes_per_s: float
    mean_bytes_per_s: float
    """The rate it was held at: the seconds' mean, which averages out the counting step of whole I/Os
    that the median second keeps (at 4 MiB a 25 MB/s cap reads 5 or 6 I/Os a second)."""
    spread_fraction: float
    seconds: int
    io_fraction: float
    """One I/O's bytes as a share of the median second's: the step of a count of whole I/Os."""


@dataclass(frozen=True)
class HostLoad:
    """What the rule reads of one host in one run."""

    host: str
    samples: Sequence[ProgressSample]
    limits: Sequence[Limit]
    cpu_busy_pct: float | None
    device: DeviceQueue | None
    bytes_per_s_per_job: float = 0.0


def flat_line(samples: Sequence[ProgressSample], io_bytes: int) -> Flat | None:
    """The seconds after the ramp, the last one left out (fio's last report covers a part second and
    the I/Os still in flight), judged flat or not; None when too short, idle or not flat."""
    judged = [s.read_bw_bytes_per_s + s.write_bw_bytes_per_s for s in samples if not s.ramping][:-1]
    if len(judged) < FLAT_SECONDS_MIN:
        return None
    median = statistics.median(judged)
    if median <= 0:
        return None
    spread = max(abs(value - median) for value in judged) / median
    io_fraction = io_bytes / median
    # A second's count of whole I/Os is off by one at either end of its interval (a completion just
    # inside or just outside), and fio's status intervals stretch and shrink on a loaded machine:
    # two I/Os either way are counting, not wandering (in CI the shaped client's 4 MiB reads at
    # 25 MB/s, ~6 a second, missed one step's allowance).
    if spread > FLAT_WITHIN_FRACTION + 2 * io_fraction:
        return None
    return Flat(median, statistics.fmean(judged), spread, len(judged), io_fraction)


def capped_outside(
    load: HostLoad,
    workload: Workload,
    *,
    peers: Sequence[HostLoad],
    cpu_saturated_pct: float,
    where: str = "outside this host (network path or QoS)",
) -> ValidityWarning | None:
    """The warning when ``load`` was capped by something outside it; None when anything ssdprof sees
    explains the line (a paced run, a limit near it, a busy CPU or device) or it is not flat."""
    if workload.rate_iops:
        return None  # a paced run is held flat by its own offered rate
    flat = flat_line(load.samples, workload.block_size_bytes)
    if flat is None:
        return None
    lowest = min(load.limits, key=lambda limit: limit.bytes_per_s, default=None)
    faster = max((p for p in peers if p.host != load.host), key=lambda p: p.bytes_per_s_per_job, default=None)
    if _explained(load, flat, lowest, faster, has_peers=any(p.host != load.host for p in peers)):
        return None
    cpu = _cpu_words(load, peers, cpu_saturated_pct)
    if cpu is None:
        return None
    return ValidityWarning(
        code="capped_outside_host",
        concerns=[f"hosts.{load.host}"],
        message=(
            f"{load.host}: capped by something {where} at "
            f"{flat.mean_bytes_per_s / 1e6:.1f} MB/s: "
            f"{_steady_words(flat)}, {_limit_words(lowest)}, {cpu}{_device_words(load.device)}"
            f"{_peer_words(load, faster)}"
        ),
    )


def _explained(load: HostLoad, flat: Flat, lowest: Limit | None, faster: HostLoad | None, *, has_peers: bool) -> bool:
    """Something ssdprof sees explains the flat line: a limit near it, the device, or no host of the
    run that went much faster through the same storage."""
    if lowest is not None and flat.median_bytes_per_s >= FAR_BELOW_FRACTION * lowest.bytes_per_s:
        return True
    if device_was_limit(load.device):
        return True
    return has_peers and (faster is None or faster.bytes_per_s_per_job < PEER_BELOW_RATIO * load.bytes_per_s_per_job)


def device_was_limit(device: DeviceQueue | None) -> bool:
    """The device's own word that it set the pace (False where it was not counted)."""
    if device is None:
        return False
    busy = device.busy_pct is not None and device.busy_pct >= DEVICE_LIMIT_BUSY_PCT
    return busy or device.mean_in_flight >= DEVICE_LIMIT_IN_FLIGHT


def _cpu_words(load: HostLoad, peers: Sequence[HostLoad], saturated_pct: float) -> str | None:
    """The CPU's part of the evidence; None when the CPU may have been the limit."""
    if load.cpu_busy_pct is None:
        return "its CPU not sampled"
    if load.cpu_busy_pct < saturated_pct:
        return f"with CPU {load.cpu_busy_pct:.0f} % busy"
    faster = [
        peer
        for peer in peers
        if peer.host != load.host
        and peer.cpu_busy_pct is not None
        and peer.cpu_busy_pct >= saturated_pct
        and peer.bytes_per_s_per_job >= PEER_RATIO_CPU_CLEARED * load.bytes_per_s_per_job > 0
    ]
    if not faster:
        return None
    peer = max(faster, key=lambda p: p.bytes_per_s_per_job)
    ratio = peer.bytes_per_s_per_job / load.bytes_per_s_per_job
    return (
        f"with CPU {load.cpu_busy_pct:.0f} % busy, yet {peer.host} moved {ratio:.0f}x the bytes "
        "per job "
        f"at {peer.cpu_busy_pct:.0f} %, so the CPU was not what held it"
    )


def _peer_words(load: HostLoad, faster: HostLoad | None) -> str:
    if faster is None or load.bytes_per_s_per_job <= 0:
        return ""
    ratio = faster.bytes_per_s_per_job / load.bytes_per_s_per_job
    return f"; {faster.host} moved {ratio:.0f}x its bytes per job in the same run"


def _steady_words(flat: Flat) -> str:
    steps = (
        f" (one I/O is {flat.io_fraction * 100:.0f} % of a second's bytes)"
        if flat.io_fraction >= 0.01
        else ""
    )
    within = max(flat.spread_fraction * 100, 1)
    return f"throughput held within {within:.0f} % every second for {flat.seconds} s{steps}"


def _limit_words(lowest: Limit | None) -> str:
    if lowest is None:
        return "with no limit ssdprof can see on this host (no NIC speed, shaping or link speed set for it: Hosts, --link-gbps)"
    return f"far below its {_rate_words(lowest.bytes_per_s)} link ({lowest.source})"


def _rate_words(bytes_per_s: float) -> str:
    bits = bytes_per_s * 8
    return f"{bits / 1e9:g} Gb/s" if bits >= 1e9 else f"{bits / 1e6:g} Mb/s"


def _device_words(device: DeviceQueue | None) -> str:
    if device is None:
        return ""
    busy = f" {device.busy_pct:.0f} % busy," if device.busy_pct is not None else ""
    return f", its disk {device.disk}{busy} holding {device.mean_in_flight:.2f} requests on average"
