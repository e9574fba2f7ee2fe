"""One point measured by the compiled loop (``engine/native/``): started as a child process like fio,
with the point as arguments, its JSON lines read back (the line formats are in engine/native/README.md).

Units are converted here, once: nanoseconds and bytes from the program; per-second samples as the
runner's :class:`ProgressSample`; the result as fio's parser would give it (:class:`DirectionStats`,
bins as ``{midpoint ns: count}``). A cancel sends SIGTERM (CTRL_BREAK_EVENT on Windows): the program
stops issuing, waits for every I/O in flight and prints its result; one that does not end within
:data:`KILL_AFTER_S` is killed by its PID. Its standard input is a pipe held by this process, so if the
engine dies the program sees it close and stops the same way.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdprof.fio.output import latency_from_bins
from ssdprof.model import histogram
from ssdprof.model.results import DirectionStats, ProgressSample, SpanStats
from ssdprof.model.workload import FIELD_RULES, Workload, WorkloadError
from ssdprof.target.processes import Watchdog, end_with_parent

__all__ = ["KILL_AFTER_S", "NativeOutcome", "direction_stats", "native_argv", "progress_sample", "run_native"]

KILL_AFTER_S = 10.0
OVERRUN_S = 30.0
_SHORTEST_INTERVAL_S = 0.25
_WINDOWS = sys.platform == "win32"


@dataclass
class NativeOutcome:
    start: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    refused: dict[str, Any] | None = None
    failed: dict[str, Any] | None = None  # an OS error at run time (the target vanished): the point failed, the input was fine
    samples: list[ProgressSample] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    returncode: int = 0
    stderr: str = ""
    cancelled: bool = False

    @property
    def ended_how(self) -> str:
        """Why there is no result: the exit status or the signal that ended the program."""
        code = self.returncode
        if code < 0:
            try:
                return f"killed by signal {-code} ({signal.Signals(-code).name})"
            except ValueError:
                return f"killed by signal {-code}"
        detail = self.stderr.strip().splitlines()[-1:] or ["no message"]
        return f"exit status {code}: {detail[0][:300]}"


def native_argv(binary: Path, workload: Workload, path: Path, *, seed: int, queue: str | None = None) -> list[str]:
    argv = [str(binary), "--target", str(path), "--offset", str(workload.offset_bytes), "--size", str(workload.size_bytes),
            "--bs", str(workload.block_size_bytes), "--pattern", "rand" if workload.pattern.is_random else "seq",
            "--read-pct", str(workload.read_pct), "--iodepth", str(workload.queue_depth), "--jobs", str(workload.numjobs),
            "--runtime", repr(float(workload.runtime_s)), "--ramp", repr(float(workload.ramp_s)), "--seed", str(seed),
            "--watch-stdin"]
    if workload.io_bytes_limit is not None:
        argv += ["--io-bytes", str(workload.io_bytes_limit)]
    if workload.rate_iops:
        argv += ["--rate", str(workload.rate_iops)]
    if not workload.direct:
        argv.append("--buffered")
    if queue:
        argv += ["--engine", queue]
    return argv


def progress_sample(line: dict[str, Any], *, ramp_s: float, duration_s: float) -> ProgressSample | None:
    """A per-second line as the runner's sample; None for the final sliver, too short for a rate (as fio).

    The last line also counts the I/O drained after the run's end; its interval is cut at the end (as the
    Python loop's), so a 1.3 s point's seconds end at 1.0 and 1.3."""
    begin_s = (line["elapsed_ns"] - line["interval_ns"]) / 1e9
    end_s = min(line["elapsed_ns"] / 1e9, max(duration_s, begin_s))
    interval_s = end_s - begin_s
    if interval_s < _SHORTEST_INTERVAL_S:
        return None
    read, write = line["read"], line["write"]
    return ProgressSample(elapsed_s=round(end_s, 3), interval_s=round(interval_s, 3), ramping=end_s <= ramp_s + 0.5,
                          read_iops=read["ios"] / interval_s, write_iops=write["ios"] / interval_s,
                          read_bw_bytes_per_s=read["bytes"] / interval_s, write_bw_bytes_per_s=write["bytes"] / interval_s,
                          read_lat_ns_mean=read["mean_ns"] if read["ios"] else None,
                          write_lat_ns_mean=write["mean_ns"] if write["ios"] else None,
                          read_lat_ns_p99=_p99(read), write_lat_ns_p99=_p99(write))


def _bins(summary: dict[str, Any]) -> dict[int, int]:
    return {int(value): int(count) for value, count in summary["bins"].items()}


def _p99(summary: dict[str, Any]) -> float | None:
    if not summary["ios"]:
        return None
    value = histogram.percentile(_bins(summary), histogram.REPORTED_PERCENTILES["p99"])
    return float(value) if value is not None else None


def direction_stats(summary: dict[str, Any], runtime_ns: int) -> DirectionStats:
    """One direction of the result in the fio parser's shape. Total latency is what the loop times (from
    the clock read as the I/O is queued to the reap that sees it complete), so ``clat_ns`` is that same
    span and ``slat_ns`` stays empty, as for the Python loop."""
    ios = int(summary["ios"])
    if ios == 0 or runtime_ns <= 0:
        return DirectionStats()
    bins = _bins(summary)
    stddev = math.sqrt(summary["m2"] / (ios - 1)) if ios > 1 else None
    latency = latency_from_bins(bins, SpanStats(samples=ios, mean=float(summary["mean_ns"]), stddev=stddev,
                                                min=float(summary["min_ns"]), max=float(summary["max_ns"])))
    runtime_s = runtime_ns / 1e9
    return DirectionStats(io_count=ios, io_bytes=int(summary["bytes"]), runtime_ms=runtime_ns / 1e6, iops=ios / runtime_s,
                          bw_bytes_per_s=summary["bytes"] / runtime_s, lat_ns=latency, clat_ns=latency,
                          lat_bins_ns=bins, clat_bins_ns=bins)


def refusal_error(refused: dict[str, Any], path: Path) -> WorkloadError:
    """The program's refusal against the workload field it names (a refused cache bypass: --buffered)."""
    name, message = str(refused.get("field", "target")), str(refused.get("message", "refused"))
    if name == "direct":
        message += (f"; cache numbers are not reported as device numbers: choose a folder on the SSD, or pass "
                    f"--buffered to measure the page cache, labelled as such ({path})")
    flag = FIELD_RULES[name][0] if name in FIELD_RULES else "--target"
    return WorkloadError.single(name if name in FIELD_RULES else "target", flag, message)


def run_native(argv: list[str], workload: Workload, *, on_progress: Callable[[ProgressSample], None] | None,
               cancel: threading.Event) -> NativeOutcome:
    """Run the program to its end (or cancel), passing each per-second sample on as it comes."""
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
        preexec_fn=end_with_parent(),  # noqa: PLW1509 - one prctl system call, no locks taken
        creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
    outcome = NativeOutcome()
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.append(process.stderr.read() if process.stderr else ""), daemon=True)
    reader.start()
    watchdog = _Watchdog(process, cancel, workload.duration_s() + OVERRUN_S)
    watchdog.start()
    try:
        assert process.stdout is not None
        for text in process.stdout:
            _take(outcome, text, workload, on_progress)
        outcome.returncode = process.wait()
    finally:
        watchdog.finish()
        if process.stdin is not None:
            process.stdin.close()
        if process.poll() is None:  # an exception on our side: never leave the loop running
            process.kill()
            process.wait()
    reader.join(timeout=5)
    outcome.stderr = "".join(stderr)
    outcome.cancelled = watchdog.cancelled
    return outcome


def _take(outcome: NativeOutcome, text: str, workload: Workload, on_progress: Callable[[ProgressSample], None] | None) -> None:
    outcome.lines.append(text.rstrip("\n"))
    try:
        line = json.loads(text)
    except ValueError:
        return  # kept in the raw output; only the program's own lines carry figures
    kind = line.get("type")
    if kind == "start":
        outcome.start = line
    elif kind == "refused":
        outcome.refused = line
    elif kind == "failed":
        outcome.failed = line
    elif kind == "result":
        outcome.result = line
    elif kind == "progress":
        sample = progress_sample(line, ramp_s=workload.ramp_s, duration_s=workload.duration_s())
        if sample is not None:
            outcome.samples.append(sample)
            if on_progress is not None:
                on_progress(sample)


class _Watchdog(Watchdog):
    """Stops the program on cancel, or when it overruns its time by far: SIGTERM (CTRL_BREAK_EVENT on
    Windows) first, which drains the queue and still prints the result; a kill by PID if it does not end."""

    def run(self) -> None:
        stopped_at: float | None = None
        while not self._done.wait(0.05):
            now = time.monotonic()
            if stopped_at is None and self._due(now):
                self._send(signal.CTRL_BREAK_EVENT if _WINDOWS else signal.SIGTERM)  # type: ignore[attr-defined,unused-ignore]
                stopped_at = now
            elif stopped_at is not None and now - stopped_at > KILL_AFTER_S:
                self._process.kill()
                return

    def _send(self, sig: int) -> None:
        if self._process.poll() is None:
            with contextlib.suppress(OSError):  # it ended meanwhile
                self._process.send_signal(sig)
