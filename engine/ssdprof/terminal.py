"""What the CLI shows a person: a live progress line, result tables with units stated."""

from __future__ import annotations

import shutil
from typing import TextIO

from ssdprof.events import LayoutDone, PointFinished, PointProgress, PointStarted, RunEvent, SweepFinished, SweepStarted
from ssdprof.quantities import format_duration, format_size
from ssdprof.results import DirectionStats, HostResult, ProgressSample, RunResult

__all__ = ["ProgressPrinter", "format_iops", "format_latency_ns", "format_run", "format_runs_table"]


def format_latency_ns(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 1e6:
        return f"{value / 1e6:.2f} ms"
    return f"{value / 1e3:.1f} µs"


def format_iops(value: float) -> str:
    return f"{value / 1e3:.1f}k" if value >= 10_000 else f"{value:.0f}"


class ProgressPrinter:
    """One updating line on a terminal; one line per point when output is not a terminal."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.tty = stream.isatty()
        self._label = ""
        self._hosts: dict[str, ProgressSample] = {}

    def handle(self, event: RunEvent) -> None:
        if isinstance(event, SweepStarted):
            self._line(f"engine: {event.engine} ({event.engine_reason})", final=True)
            if event.already_done:
                self._line(f"resuming sweep {event.sweep_id}: {event.already_done} of {event.total_points} points done",
                           final=True)
        elif isinstance(event, LayoutDone):
            self._line(f"laid out {format_size(event.size_bytes)} test file in {event.seconds:.1f} s "
                       "(not part of any measurement)", final=True)
        elif isinstance(event, PointStarted):
            self._label = f"[{event.number}/{event.total_points}] {event.workload.label()}"
            self._hosts = {}
            self._line(f"{self._label}  ETA {format_duration(event.eta_s)}", final=not self.tty)
        elif isinstance(event, PointProgress) and self.tty:
            self._hosts[event.sample.host] = event.sample
            fraction = min(event.point_elapsed_s / max(event.point_duration_s, 1e-9), 1.0)
            bar = "#" * int(fraction * 20) + "-" * (20 - int(fraction * 20))
            phase = " ramp" if event.sample.ramping else ""
            self._line(f"{self._label} [{bar}]{phase} {self._live_rates()} ETA {format_duration(event.eta_s)}")
        elif isinstance(event, PointFinished):
            r = event.result
            self._line(f"{self._label}  done: {_direction_brief(r)}", final=True)
            if len(r.hosts) > 1:
                for host in r.hosts:
                    self._line(f"    {host.host}: {host.error or _direction_brief(host)}", final=True)
            for warning in r.warnings:
                self._line(f"    {warning.severity.value}: {warning.message}", final=True)
        elif isinstance(event, SweepFinished):
            self._line(f"{event.status}: {len(event.run_ids)} point(s) in {format_duration(event.wall_s)}", final=True)

    def _live_rates(self) -> str:
        """The last second, per host when there are several."""
        parts = []
        for host, s in sorted(self._hosts.items()):
            iops = s.read_iops + s.write_iops
            bw = s.read_bw_bytes_per_s + s.write_bw_bytes_per_s
            p99 = max(v for v in (s.read_clat_ns_p99, s.write_clat_ns_p99, 0.0) if v is not None)
            prefix = f"{host}: " if len(self._hosts) > 1 else ""
            parts.append(f"{prefix}{format_iops(iops)} IOPS {bw / 1e6:.1f} MB/s p99 {format_latency_ns(p99 or None)}")
        return " | ".join(parts)

    def _line(self, text: str, final: bool = False) -> None:
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            self.stream.write("\r\x1b[K" + text[:width] + ("\n" if final else ""))
        elif final:
            self.stream.write(text + "\n")
        self.stream.flush()


def _direction_brief(run: RunResult | HostResult) -> str:
    parts = []
    for name, stats in (("read", run.read), ("write", run.write)):
        if stats.active:
            parts.append(f"{name} {format_iops(stats.iops)} IOPS {stats.bw_bytes_per_s / 1e6:.1f} MB/s "
                         f"p50 {format_latency_ns(stats.clat_ns.p50)} p99 {format_latency_ns(stats.clat_ns.p99)}")
    return "; ".join(parts) or f"no I/O ({getattr(run, 'status', 'failed')})"


def format_runs_table(runs: list[RunResult]) -> str:
    if not runs:
        return "no runs"
    columns = ("IOPS", "MB/s", "MiB/s", "mean", "p50", "p99", "p99.9")
    widths = (10, 9, 9, 10, 10, 10, 10)
    header = f"{'id':>5}  {'workload':28} {'dir':5} " + " ".join(f"{c:>{w}}" for c, w in zip(columns, widths, strict=True)) + "  status"
    lines = [header]
    for run in runs:
        for name, stats in (("read", run.read), ("write", run.write)):
            if stats.active:
                lines.append(_row(run, name, stats))
        if not (run.read.active or run.write.active):
            lines.append(f"{run.id or '-':>5}  {run.workload.label():28} {'-':5} {'no I/O completed':>73}  {run.status}")
    lines.append("latencies are completion latency (clat); MB = 10^6 bytes, MiB = 2^20 bytes")
    return "\n".join(lines)


def _row(run: RunResult, name: str, stats: DirectionStats) -> str:
    c = stats.clat_ns
    flag = " !" if run.warnings else ""
    return (f"{run.id or '-':>5}  {run.workload.label():28} {name:5} {stats.iops:>10.0f} {stats.bw_bytes_per_s / 1e6:>9.1f} "
            f"{stats.bw_bytes_per_s / 1048576:>9.1f} {format_latency_ns(c.mean):>10} {format_latency_ns(c.p50):>10} "
            f"{format_latency_ns(c.p99):>10} {format_latency_ns(c.p99_9):>10}  {run.status}{flag}")


def format_run(run: RunResult) -> str:
    env = run.environment
    lines = [
        f"run {run.id}  {run.started_at}  {run.status}  ({run.source})",
        f"workload: {run.workload.label()}  runtime {run.workload.runtime_s:g}s ramp {run.workload.ramp_s:g}s "
        f"size {format_size(run.workload.size_bytes)} {'direct' if run.workload.direct else 'BUFFERED'}",
        f"engine:   {run.engine.name} {run.engine.version} {run.engine.ioengine} - {run.engine.reason}",
        f"device:   {env.device or '?'} {env.device_model} {env.interface} {env.pcie_link} on {env.filesystem} {env.mount_point}",
        f"system:   {env.os}, {env.cpu_model} x{env.cpu_count}",
    ]
    if run.tags:
        lines.append("tags:     " + ", ".join(f"{k}={v}" for k, v in run.tags.items()))
    lines.append(format_runs_table([run]))
    lines += [f"{w.severity.value}: {w.message}" for w in run.warnings]
    return "\n".join(lines)
