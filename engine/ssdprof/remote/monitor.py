"""Each host's CPU, network and disk load during a run, from per-second ``ssdprof-mon`` lines turned
into rates between samples: a /proc/stat line, /proc/net/dev and, from a watched host
(``watch.sh``), /proc/diskstats, as ``NS CPU_LINE | NET_ENTRY;... | DISK_LINE;...`` (the fio
wrapper's lines have no disk part)."""

from __future__ import annotations

import re

from ssdprof.model.results import MonitorSample

__all__ = ["MonitorParser", "disk_busy_pct"]

_PARTITION = re.compile(
    r"^(?:(?:[shv]|xv)d[a-z]+\d+|(?:nvme\d+n\d+|mmcblk\d+|loop\d+|nbd\d+)p\d+)$"
)
"""A partition's name: its disk is counted already (a partition's busy time is part of its disk's).
"""
_IO_TICKS_FIELD = 12
"""/proc/diskstats: major, minor, name, then 17 counters; the tenth, io_ticks, is the ms the disk
had I/O in flight."""


class MonitorParser:
    """Turns per-second /proc/stat, /proc/net/dev and /proc/diskstats snapshots into rates."""

    def __init__(self, host: str, t0_ns: int | None = None):
        self.host = host
        self._previous: tuple[int, list[int], dict[str, tuple[int, int]], dict[str, int]] | None = (
            None
        )
        self._t0_ns = t0_ns

    def feed(self, line: str) -> MonitorSample | None:
        parts = line.split(" ", 1)
        if len(parts) < 2 or not parts[0].isdigit():
            return None
        now_ns = int(parts[0])
        cpu_text, _, rest = parts[1].partition("|")
        net_text, _, disk_text = rest.partition("|")
        cpu = [int(v) for v in cpu_text.split()[1:] if v.isdigit()]
        net = _net_counters(net_text)
        disks = _io_ticks_ms(disk_text)
        previous, self._previous = self._previous, (now_ns, cpu, net, disks)
        self._t0_ns = self._t0_ns or now_ns
        if previous is None or len(cpu) < 4:
            return None
        then_ns, cpu0, net0, disks0 = previous
        interval_s = max((now_ns - then_ns) / 1e9, 1e-3)
        total = sum(cpu) - sum(cpu0)
        idle = (cpu[3] + (cpu[4] if len(cpu) > 4 else 0)) - (
            cpu0[3] + (cpu0[4] if len(cpu0) > 4 else 0)
        )
        return MonitorSample(
            host=self.host,
            elapsed_s=round((now_ns - self._t0_ns) / 1e9, 3),
            cpu_busy_pct=100.0 * (1 - idle / total) if total > 0 else 0.0,
            net_rx_bytes_per_s={
                n: (v[0] - net0[n][0]) / interval_s for n, v in net.items() if n in net0
            },
            net_tx_bytes_per_s={
                n: (v[1] - net0[n][1]) / interval_s for n, v in net.items() if n in net0
            },
            disk_busy_pct=disk_busy_pct(disks0, disks, interval_s),
        )


def disk_busy_pct(
    before_ms: dict[str, int], after_ms: dict[str, int], interval_s: float
) -> dict[str, float]:
    """Per disk, the share of ``interval_s`` it had I/O in flight (io_ticks' growth), at most 100 %.
    """
    return {
        name: min(100.0, 100.0 * (ticks - before_ms[name]) / (interval_s * 1000))
        for name, ticks in after_ms.items()
        if name in before_ms and ticks >= before_ms[name]
    }


def _io_ticks_ms(text: str) -> dict[str, int]:
    """/proc/diskstats lines (';'-joined): whole disk -> io_ticks, for the disks that have done any
    I/O (a never-used loop or ram slot is no disk of the run's)."""
    ticks = {}
    for entry in text.split(";"):
        fields = entry.split()
        if (
            len(fields) <= _IO_TICKS_FIELD
            or _PARTITION.match(fields[2])
            or not fields[_IO_TICKS_FIELD].isdigit()
        ):
            continue
        ios = [int(fields[i]) for i in (3, 7) if fields[i].isdigit()]
        if sum(ios):
            ticks[fields[2]] = int(fields[_IO_TICKS_FIELD])
    return ticks


def _net_counters(text: str) -> dict[str, tuple[int, int]]:
    counters = {}
    for entry in text.split(";"):
        name, sep, values = entry.strip().partition(":")
        fields = values.split()
        if sep and len(fields) >= 9 and fields[0].isdigit() and fields[8].isdigit():
            counters[name.strip()] = (int(fields[0]), int(fields[8]))
    return counters
