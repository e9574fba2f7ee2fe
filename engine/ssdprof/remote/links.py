"""A host's link limit: the lowest of its NIC's speed, a rate limit on that interface's egress qdisc (tbf or
htb, from ``tc -j qdisc show`` and ``tc class show`` run by ``probe.sh``), and a speed the user set for the
host (``hosts add --link-gbps``, for VMs whose NICs misreport). Each limit says where it came from."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ssdprof.model.results import MonitorSample

__all__ = ["NOMINAL_SPEED_KINDS", "LinkLimit", "busiest_interface", "host_link_limit", "parse_htb_classes",
           "parse_link_kinds", "parse_qdiscs"]

_RATE = re.compile(r"^(\d+(?:\.\d+)?)([KkMGT]?)(bit|Bps)$")
_PREFIX = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}
NOMINAL_SPEED_KINDS = frozenset({"veth", "tun", "dummy", "netkit", "vxcan", "ifb"})
"""Virtual interfaces whose reported speed is a fixed placeholder (a veth says 10 Gb/s and carries more): their
speed is no limit. A bond or VLAN reports the speed of the NICs beneath it and is kept."""


@dataclass(frozen=True)
class LinkLimit:
    bytes_per_s: float
    source: str
    """Where the limit came from, in words: "tbf rate on eth0", "NIC speed of eth0", "set for h1 (--link-gbps)"."""
    interface: str = ""
    """The interface it applies to ("" for a speed the user set for the whole host)."""


def parse_qdiscs(text: str) -> dict[str, tuple[str, float]]:
    """``tc -j qdisc show``: interface -> (qdisc kind, rate in bytes/s) for root tbf qdiscs (htb keeps its rates in
    classes: :func:`parse_htb_classes`). Anything unreadable gives nothing: a host without tc is simply unshaped."""
    try:
        entries = json.loads(text) if text.strip() else []
    except json.JSONDecodeError:
        return {}
    shaped: dict[str, tuple[str, float]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not entry.get("root") or entry.get("kind") != "tbf":
            continue
        rate = (entry.get("options") or {}).get("rate")
        if isinstance(rate, int | float) and rate > 0 and isinstance(entry.get("dev"), str):
            shaped[entry["dev"]] = ("tbf", float(rate))  # tc's JSON gives tbf's rate in bytes/s
    return shaped


def parse_link_kinds(text: str) -> dict[str, str]:
    """``ip -j -d link show``: interface -> its kind ("veth", "bond", ...) for the interfaces that have one (a
    physical NIC has none). Anything unreadable gives nothing."""
    try:
        entries = json.loads(text) if text.strip() else []
    except json.JSONDecodeError:
        return {}
    kinds: dict[str, str] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("ifname"), str):
            kind = (entry.get("linkinfo") or {}).get("info_kind")
            if isinstance(kind, str):
                kinds[entry["ifname"]] = kind
    return kinds


def parse_htb_classes(lines: Iterable[str]) -> dict[str, tuple[str, float]]:
    """``IFACE class htb 1:1 root rate 2Gbit ceil 2Gbit ...`` lines (``tc class show dev IFACE``, prefixed with the
    interface by probe.sh): interface -> ("htb", the highest ceil of its root classes, in bytes/s)."""
    shaped: dict[str, tuple[str, float]] = {}
    for line in lines:
        words = line.split()
        if len(words) < 4 or words[1:3] != ["class", "htb"] or "root" not in words:
            continue
        values = dict(itertools.pairwise(words))
        rate = _rate_bytes_per_s(values.get("ceil") or values.get("rate") or "")
        if rate:
            shaped[words[0]] = ("htb", max(rate, shaped.get(words[0], ("htb", 0.0))[1]))
    return shaped


def _rate_bytes_per_s(text: str) -> float | None:
    """tc's rate words: ``2Gbit``, ``500Mbit``, ``200000Kbit``, ``25MBps`` (bytes) -> bytes/s."""
    match = _RATE.match(text)
    if not match:
        return None
    value = float(match[1]) * _PREFIX[match[2].lower()]
    return value if match[3] == "Bps" else value / 8


def busiest_interface(monitor: Iterable[MonitorSample]) -> str:
    """The interface (not lo) that carried the most bytes in a run's samples; "" when none did."""
    totals: dict[str, float] = {}
    for sample in monitor:
        for table in (sample.net_rx_bytes_per_s, sample.net_tx_bytes_per_s):
            for nic, rate in table.items():
                if nic != "lo":
                    totals[nic] = totals.get(nic, 0.0) + rate
    return max(totals, key=lambda nic: totals[nic]) if any(totals.values()) else ""


def host_link_limit(host: str, interface: str, nics_mbps: Mapping[str, int], shaping: Mapping[str, tuple[str, float]],
                    user_gbps: float | None) -> LinkLimit | None:
    """The lowest limit that applies to ``host``'s traffic on ``interface`` ("" when unknown: a host with one NIC
    besides lo is taken to use it), and its source; None when nothing is known."""
    if not interface:
        nics = [nic for nic in nics_mbps if nic != "lo"]
        interface = nics[0] if len(nics) == 1 else ""
    candidates = []
    if interface and nics_mbps.get(interface, -1) > 0:
        candidates.append(LinkLimit(nics_mbps[interface] * 1e6 / 8, f"NIC speed of {interface}", interface))
    if interface and interface in shaping:
        kind, rate = shaping[interface]
        candidates.append(LinkLimit(rate, f"{kind} rate on {interface}", interface))
    if user_gbps:
        candidates.append(LinkLimit(user_gbps * 1e9 / 8, f"set for {host} (--link-gbps)", interface))
    return min(candidates, key=lambda limit: limit.bytes_per_s) if candidates else None
