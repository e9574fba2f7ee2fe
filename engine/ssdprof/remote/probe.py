"""What a host offers (OS, CPUs, fio and its engines, Ceph tools, NICs), as ``probe.sh`` reports it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ssdprof.remote.links import NOMINAL_SPEED_KINDS, parse_htb_classes, parse_link_kinds, parse_qdiscs

__all__ = ["HostProbe", "parse_probe", "probe_script"]


@dataclass(frozen=True)
class HostProbe:
    reachable: bool
    os: str = ""
    cpu_count: int = 0
    fio_version: str = ""
    fio_engines: tuple[str, ...] = ()
    ceph_tools: tuple[str, ...] = ()
    nics: dict[str, int] = field(default_factory=dict)
    """Interface name -> link speed in Mb/s (-1 when the OS does not say, or says only a virtual interface's
    placeholder: :data:`~ssdprof.remote.links.NOMINAL_SPEED_KINDS`)."""
    nic_kinds: dict[str, str] = field(default_factory=dict)
    """Interface name -> kind for virtual interfaces ("veth", "bond", ...); a physical NIC has none."""
    shaping: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Interface name -> (qdisc kind, egress rate limit in bytes/s), for the interfaces that are shaped."""
    error: str = ""
    hostname: str = ""
    """The host's own name (uname -n), as a Ceph cluster's map names its hosts."""


def probe_script() -> str:
    """The POSIX-sh program (``probe.sh`` beside this module) whose key=value lines :func:`parse_probe` reads."""
    return Path(__file__).with_name("probe.sh").read_text()


def parse_probe(text: str) -> HostProbe:
    values: dict[str, list[str]] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values.setdefault(key.strip(), []).append(value.strip())
    kinds = parse_link_kinds(values.get("links", [""])[0])
    nics = {}
    for entry in values.get("nic", []):
        name, _, speed = entry.partition(" ")
        nominal = kinds.get(name) in NOMINAL_SPEED_KINDS
        nics[name] = int(speed) if speed.lstrip("-").isdigit() and not nominal else -1
    shaping = {**parse_qdiscs(values.get("qdisc", [""])[0]), **parse_htb_classes(values.get("htb_class", []))}
    cpus = values.get("cpus", ["0"])[0]
    return HostProbe(reachable=True, os=values.get("os", [""])[0], cpu_count=int(cpus) if cpus.isdigit() else 0,
                     fio_version=values.get("fio", [""])[0], fio_engines=tuple(values.get("engines", [""])[0].split()),
                     ceph_tools=tuple(values.get("ceph_tool", [])), nics=nics, nic_kinds=kinds,
                     shaping=shaping, hostname=values.get("hostname", [""])[0])
