"""Each host's CPU and network load during a run, from the fio wrapper's per-second ``ssdprof-mon`` lines
(a /proc/stat line and /proc/net/dev, see ``fio_wrapper.sh``), turned into rates between samples."""

from __future__ import annotations

from ssdprof.model.results import MonitorSample

__all__ = ["MonitorParser"]


class MonitorParser:
    """Turns the wrapper's per-second /proc/stat and /proc/net/dev snapshots into rates."""

    def __init__(self, host: str, t0_ns: int | None = None):
        self.host = host
        self._previous: tuple[int, list[int], dict[str, tuple[int, int]]] | None = None
        self._t0_ns = t0_ns

    def feed(self, line: str) -> MonitorSample | None:
        parts = line.split(" ", 1)
        if len(parts) < 2 or not parts[0].isdigit():
            return None
        now_ns = int(parts[0])
        cpu_text, _, net_text = parts[1].partition("|")
        cpu = [int(v) for v in cpu_text.split()[1:] if v.isdigit()]
        net = _net_counters(net_text)
        previous, self._previous = self._previous, (now_ns, cpu, net)
        self._t0_ns = self._t0_ns or now_ns
        if previous is None or len(cpu) < 4:
            return None
        then_ns, cpu0, net0 = previous
        interval_s = max((now_ns - then_ns) / 1e9, 1e-3)
        total = sum(cpu) - sum(cpu0)
        idle = (cpu[3] + (cpu[4] if len(cpu) > 4 else 0)) - (cpu0[3] + (cpu0[4] if len(cpu0) > 4 else 0))
        return MonitorSample(
            host=self.host, elapsed_s=round((now_ns - self._t0_ns) / 1e9, 3),
            cpu_busy_pct=100.0 * (1 - idle / total) if total > 0 else 0.0,
            net_rx_bytes_per_s={n: (v[0] - net0[n][0]) / interval_s for n, v in net.items() if n in net0},
            net_tx_bytes_per_s={n: (v[1] - net0[n][1]) / interval_s for n, v in net.items() if n in net0},
        )


def _net_counters(text: str) -> dict[str, tuple[int, int]]:
    counters = {}
    for entry in text.split(";"):
        name, sep, values = entry.strip().partition(":")
        fields = values.split()
        if sep and len(fields) >= 9 and fields[0].isdigit() and fields[8].isdigit():
            counters[name.strip()] = (int(fields[0]), int(fields[8]))
    return counters
