"""What the CLI shows a person: a live progress line, result tables with units stated."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO, TypeVar

if TYPE_CHECKING:  # the events load with a measurement's progress, not with a table of stored runs
    from ssdprof.model.events import RunEvent, SweepFinished
    from ssdprof.model.results import DeviceQueue, DirectionStats, HostResult, ProgressSample, RunResult

__all__ = [
    "EventLines",
    "ProgressPrinter",
    "file_said",
    "format_device_queue",
    "format_iops",
    "format_latency_ns",
    "format_run",
    "format_runs_table",
    "print_stored",
    "say_written",
]

class _Model(Protocol):
    def model_dump(self, *, mode: str) -> dict[str, Any]: ...


ModelT = TypeVar("ModelT", bound=_Model)


def print_stored(items: Sequence[ModelT], line: Callable[[ModelT], str], plural: str, *, as_json: bool) -> int:
    """A listing of stored tests: with ``--json`` their models as one JSON array, else a line each and,
    where there are none, a line that says so (never a silent empty screen)."""
    if as_json:
        import json

        print(json.dumps([item.model_dump(mode="json") for item in items], indent=2))
    else:
        print("\n".join(line(item) for item in items) or f"no {plural} stored")
    return 0


def file_said(path: object, n_bytes: float | None) -> str:
    """A test file kept, as every command names it: '/ssd/ssdprof-testfile-sustain3.dat (64.00 GiB)'."""
    from ssdprof.model.quantities import format_bytes

    return f"{path} ({format_bytes(n_bytes)})"


def say_written(path: object, n_bytes: int, what: str) -> None:
    """A report file written, said one way by every command, on stderr (stdout keeps the result or --json):
    'wrote pts.pdf (52.49 KiB, PTS test 1)'."""
    from ssdprof.model.quantities import format_bytes

    print(f"wrote {path} ({format_bytes(n_bytes)}, {what})", file=sys.stderr)


def _size(n_bytes: int) -> str:
    from ssdprof.model.quantities import format_size  # its module loads pydantic: not for a table of no runs

    return format_size(n_bytes)


def _duration(seconds: float) -> str:
    from ssdprof.model.quantities import format_duration

    return format_duration(seconds)

def format_latency_ns(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 1e6:
        return f"{value / 1e6:.2f} ms"
    return f"{value / 1e3:.1f} µs"


def format_iops(value: float) -> str:
    return f"{value / 1e3:.1f}k" if value >= 10_000 else f"{value:.0f}"


class EventLines:
    """A long test's events said as lines on standard error, its progress at most every 5 s."""

    def __init__(self) -> None:
        self._last_s = -10.0

    def _due(self, elapsed_s: float) -> bool:
        """Whether a progress line is due at ``elapsed_s``: 5 s after the last (which it then is)."""
        if elapsed_s - self._last_s < 5:
            return False
        self._last_s = elapsed_s
        return True

    def _say_finished(self, status: str, took: str, reason: str | None) -> None:
        self._say(f"{status} after {took}" + (f": {reason}" if reason else ""))

    @staticmethod
    def _say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)


class ProgressPrinter:
    """One updating line on a terminal; one line per point when output is not a terminal. With
    ``keep_file`` (the sweep keeps its test file), the end names the file laid out and its size."""

    def __init__(self, stream: TextIO, *, keep_file: bool = False):
        self.stream = stream
        self.keep_file = keep_file
        self._laid_out: list[tuple[str, int]] = []
        self.tty = stream.isatty()
        self._label = ""
        self._hosts: dict[str, ProgressSample] = {}
        self._finished = 0
        """Points finished this start, stored or kept on this machine for a shared store that was away."""

    def handle(self, event: RunEvent) -> None:
        from ssdprof.model.events import (
            Cooling,
            LayoutDone,
            PointFinished,
            PointProgress,
            PointStarted,
            SweepFinished,
            SweepStarted,
        )

        if isinstance(event, SweepStarted):
            self._line(f"engine: {event.engine} ({event.engine_reason})", final=True)
            if event.count.done:
                self._line(f"resuming sweep {event.sweep_id}: {event.count.text} done", final=True)
        elif isinstance(event, LayoutDone):
            self._laid_out.append((event.path, event.size_bytes))
            self._line(f"laid out {_size(event.size_bytes)} test file in {event.seconds:.1f} s "
                       "(not part of any measurement)", final=True)
        elif isinstance(event, PointStarted):
            count = event.count
            total = {"exact": f"{count.total}", "at_most": f"≤{count.total}", "open": "?"}[count.bound]
            self._label = f"[{event.number}/{total}] {event.workload.label}"
            self._hosts = {}
            self._line(f"{self._label}  ETA {_duration(event.eta_s)}", final=not self.tty)
        elif isinstance(event, PointProgress) and self.tty:
            self._hosts[event.sample.host] = event.sample
            fraction = min(event.point_elapsed_s / max(event.point_duration_s, 1e-9), 1.0)
            bar = "#" * int(fraction * 20) + "-" * (20 - int(fraction * 20))
            phase = " ramp" if event.sample.ramping else ""
            self._line(f"{self._label} [{bar}]{phase} {self._live_rates()} ETA {_duration(event.eta_s)}")
        elif isinstance(event, PointFinished):
            r = event.result
            self._finished += 1
            self._line(f"{self._label}  done: {_direction_brief(r, r.mixed)}", final=True)
            if len(r.hosts) > 1 or any(h.device_queue for h in r.hosts):
                for host in r.hosts:
                    queue = f"; {format_device_queue(host.device_queue)}" if host.device_queue else ""
                    clock = f"; clock {host.clock_offset_label}" if host.clock_offset_label else ""
                    brief = host.error or _direction_brief(host)
                    self._line(f"    {host.host}: {brief}{queue}{clock}", final=True)
            if r.device_queue is not None:
                self._line(f"    {format_device_queue(r.device_queue)}", final=True)
            for warning in r.warnings:
                self._line(f"    {warning.severity.value}: {warning.message}", final=True)
        elif isinstance(event, Cooling) and (event.done or self.tty):
            self._line(event.text, final=event.done)
        elif isinstance(event, SweepFinished):
            self._sweep_finished(event)

    def _sweep_finished(self, event: SweepFinished) -> None:
        kept = self._finished - len(event.run_ids)
        waiting = f" ({kept} kept on this machine until the results database answers)" if kept > 0 else ""
        self._line(f"{event.status}: {self._finished} point(s) in {_duration(event.wall_s)}{waiting}", final=True)
        for path, size in self._laid_out if self.keep_file else []:
            self._line(f"kept the test file {file_said(path, size)}", final=True)

    def _live_rates(self) -> str:
        """The last second, per host when there are several."""
        parts = []
        for host, s in sorted(self._hosts.items()):
            iops = s.read_iops + s.write_iops
            bw = s.read_bw_bytes_per_s + s.write_bw_bytes_per_s
            mixed = s.read_iops > 0 and s.write_iops > 0
            prefix = f"{host}: " if len(self._hosts) > 1 else ""
            parts.append(f"{prefix}{format_iops(iops)} IOPS {bw / 1e6:.1f} MB/s "
                         f"p99{' (all I/Os)' if mixed else ''} {format_latency_ns(s.lat_ns_p99)}")
        return " | ".join(parts)

    def _line(self, text: str, final: bool = False) -> None:
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            self.stream.write("\r\x1b[K" + text[:width] + ("\n" if final else ""))
        elif final:
            self.stream.write(text + "\n")
        self.stream.flush()


def _direction_brief(run: RunResult | HostResult, mixed: DirectionStats | None = None) -> str:
    """Each direction's figures; a run's all I/Os first (``mixed``) where it read and wrote."""
    parts = []
    sides = [("read", run.read), ("write", run.write)]
    if mixed is not None and run.read.active and run.write.active:
        sides.insert(0, ("all I/Os", mixed))
    for name, stats in sides:
        if stats.active:
            parts.append(f"{name} {format_iops(stats.iops)} IOPS {stats.bw_bytes_per_s / 1e6:.1f} MB/s "
                         f"p50 {format_latency_ns(stats.lat_ns.p50)} p99 {format_latency_ns(stats.lat_ns.p99)}")
    return "; ".join(parts) or f"no I/O ({getattr(run, 'status', 'failed')})"


LATENCY_NOTE = ("latency: total, submission to completion (fio's lat); 'all': a run's reads and writes together, "
                "percentiles from their merged histogram bins (fio's unified_rw_reporting=mixed); "
                "MB = 10^6 bytes, MiB = 2^20 bytes")
BREAKDOWN_NOTE = ("total = submission (slat) + completion (clat); '-' where the engine does not split it "
                  "(synchronous calls and the portable engine time the whole call)")
_MAIN_COLUMNS = (("IOPS", 10), ("MB/s", 9), ("MiB/s", 9), ("mean", 10), ("p50", 10), ("p99", 10), ("p99.9", 10))
_BREAKDOWN_COLUMNS = (("IOPS", 10), ("MB/s", 9), ("submit", 10), ("complete", 10), ("total", 10), ("tot p99", 10))


def format_runs_table(runs: list[RunResult], *, breakdown: bool = False) -> str:
    """One row per run and direction; ``breakdown`` shows total latency's submission and completion means."""
    if not runs:
        return "no runs"
    columns = _BREAKDOWN_COLUMNS if breakdown else _MAIN_COLUMNS
    header = f"{'id':>5}  {'workload':28} {'dir':5} " + " ".join(f"{c:>{w}}" for c, w in columns) + "  status"
    lines = [header]
    for run in runs:
        for name, stats in (("read", run.read), ("write", run.write)):
            if stats.active:
                lines.append(_row(run, name, stats, breakdown=breakdown))
        if run.read.active and run.write.active:
            lines.append(_row(run, "all", run.mixed, breakdown=breakdown))
        if not (run.read.active or run.write.active):
            width = sum(w + 1 for _, w in columns) - 1
            lines.append(f"{run.id or '-':>5}  {run.workload.label:28} {'-':5} {'no I/O completed':>{width}}  {run.status}")
    lines.append(LATENCY_NOTE)
    if breakdown:
        lines.append(BREAKDOWN_NOTE)
    lines += _kind_notes(runs)
    return "\n".join(lines)


def _kind_notes(runs: list[RunResult]) -> list[str]:
    older = sorted({str(r.id) for r in runs for d in (r.read, r.write) if d.latency_kind in ("total_mean_only", "completion_only")},
                   key=lambda text: (len(text), text))
    if not older:
        return []
    return [f"run(s) {', '.join(older)}: imported output without total-latency percentiles; their p50/p99 are left "
            "empty rather than filled from completion latency"]


def _row(run: RunResult, name: str, stats: DirectionStats, *, breakdown: bool) -> str:
    lat = stats.lat_ns
    flag = " !" if run.warnings else ""
    head = f"{run.id or '-':>5}  {run.workload.label:28} {name:5} {stats.iops:>10.0f} {stats.bw_bytes_per_s / 1e6:>9.1f} "
    if breakdown:
        split = stats.slat_ns.mean is not None
        submit = format_latency_ns(stats.slat_ns.mean) if split else "-"
        complete = format_latency_ns(stats.clat_ns.mean) if split else "-"
        return (head + f"{submit:>10} {complete:>10} {format_latency_ns(lat.mean):>10} "
                f"{format_latency_ns(lat.p99):>10}  {run.status}{flag}")
    return (head + f"{stats.bw_bytes_per_s / 1048576:>9.1f} {format_latency_ns(lat.mean):>10} {format_latency_ns(lat.p50):>10} "
            f"{format_latency_ns(lat.p99):>10} {format_latency_ns(lat.p99_9):>10}  {run.status}{flag}")


def format_device_queue(queue: DeviceQueue) -> str:
    """e.g. ``at the device (vda): 7.1 of 32 outstanding I/Os on average; block layer 48 µs per read request``."""
    parts = [f"{format_latency_ns(lat)} per {name} request" for name, lat in
             (("read", queue.read_request_lat_ns_mean), ("write", queue.write_request_lat_ns_mean)) if lat is not None]
    return (f"at the device ({queue.disk}): {queue.mean_in_flight:.1f} of {queue.requested_outstanding} outstanding I/Os "
            f"on average" + (f"; block layer {', '.join(parts)}" if parts else ""))


def format_run(run: RunResult, *, breakdown: bool = False) -> str:
    env = run.environment
    lines = [
        f"run {run.id}  {run.started_at}  {run.status}  ({run.source})",
        f"workload: {run.workload.label}  runtime {run.workload.runtime_s:g}s ramp {run.workload.ramp_s:g}s "
        f"size {_size(run.workload.size_bytes)} {'direct' if run.workload.direct else 'BUFFERED'}",
        f"engine:   {run.engine.name} {run.engine.version} {run.engine.ioengine} - {run.engine.reason}",
        f"device:   {env.device or '?'} {env.device_model} {env.interface} {env.pcie_link} on {env.filesystem} {env.mount_point}",
        f"system:   {env.os}, {env.cpu_model} x{env.cpu_count}",
    ]
    if run.tags:
        lines.append("tags:     " + ", ".join(f"{k}={v}" for k, v in run.tags.items()))
    lines.append("drive:    " + (run.drive_state.sentence() if run.drive_state else "drive state not recorded (stored before "
                                                                                  "ssdprof recorded it, or measured on hosts)"))
    if run.device_queue is not None:
        lines.append(f"queue:    {format_device_queue(run.device_queue)}")
    if run.fio_steadystate is not None:
        ss = run.fio_steadystate
        lines.append(f"fio steady state: {ss.ss} over {ss.duration_s:g} s: {'attained' if ss.attained else 'NOT attained'} "
                     f"(criterion {ss.criterion})")
    lines.append(format_runs_table([run], breakdown=breakdown))
    lines += [f"{w.severity.value}: {w.message}" for w in run.warnings]
    return "\n".join(lines)
