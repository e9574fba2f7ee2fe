"""The engine's side of the worker pipes: binning, per-second progress, exact final statistics.

Lanes send raw latencies every checkpoint; this process bins them (so the workers never hold
their GIL for it). Chunks are grouped by the second they end in; a second is published once
every lane has passed it (or half a second after it ended, so a lane stuck in a slow I/O
cannot stall the display; what it reports late is shown with the next second). Final
statistics do not depend on that: every measured latency goes into one exact accumulator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ssdprof.fio.output import latency_from_bins
from ssdprof.model import histogram
from ssdprof.model.results import DirectionStats, ProgressSample, SpanStats
from ssdprof.portable.messages import Chunk, LaneDone, LaneReady, WorkerDone
from ssdprof.portable.stats import LatencyAccumulator

__all__ = ["Collector", "direction_stats"]

LATE_S = 0.5
_SECOND_NS = 1_000_000_000
_SHORTEST_INTERVAL_S = 0.25

Samples = npt.NDArray[np.int64]


def direction_stats(latencies: LatencyAccumulator, block_size_bytes: int, runtime_ns: int) -> DirectionStats:
    """One direction's result in the same shape and units the fio parser produces.

    Each I/O is timed from just before it is issued to its completion: total latency, fio's
    ``lat``. There is no separate submission step to split off, so ``clat_ns`` is that same span
    (as with fio's synchronous engines) and ``slat_ns`` stays empty."""
    if latencies.n == 0 or runtime_ns <= 0:
        return DirectionStats()
    runtime_s = runtime_ns / 1e9
    bins = latencies.bins_ns()
    latency = latency_from_bins(bins, SpanStats(samples=latencies.n, mean=latencies.mean, stddev=latencies.stddev,
                                                min=float(latencies.min_ns), max=float(latencies.max_ns)))
    return DirectionStats(
        io_count=latencies.n, io_bytes=latencies.n * block_size_bytes, runtime_ms=runtime_ns / 1e6,
        iops=latencies.n / runtime_s, bw_bytes_per_s=latencies.n * block_size_bytes / runtime_s,
        lat_ns=latency, clat_ns=latency, lat_bins_ns=bins, clat_bins_ns=bins,
    )


@dataclass
class _Direction:
    """Raw samples waiting to be binned: all of them for the display, the measured ones for the result."""

    shown: list[Samples] = field(default_factory=list)
    measured: list[Samples] = field(default_factory=list)
    issued: int = 0

    def add(self, samples: Samples, ramp: int) -> None:
        self.shown.append(samples)
        self.measured.append(samples[ramp:])
        self.issued += len(samples)


def _binned(parts: list[Samples]) -> LatencyAccumulator:
    accumulator = LatencyAccumulator()
    if parts:
        accumulator.add(np.concatenate(parts))
    return accumulator


class Collector:
    def __init__(self, *, lanes: int, block_size_bytes: int, ramp_s: float, duration_s: float,
                 on_progress: Callable[[ProgressSample], None] | None):
        self.lanes = lanes
        self._block = block_size_bytes
        self._ramp_s = ramp_s
        self._duration_s = duration_s
        self._on_progress = on_progress
        self.ready: set[int] = set()
        self.done: dict[int, LaneDone] = {}
        self.worker_cpu_s: dict[int, float] = {}
        self.worker_waited_s: dict[int, float] = {}
        """Per worker keeping a full asynchronous queue: time its thread waited for completions."""
        self.samples: list[ProgressSample] = []
        self._pending: dict[int, tuple[_Direction, _Direction]] = {}
        self._lane_upto_ns: dict[int, int] = {}
        self._published = 0
        self._totals = (LatencyAccumulator(), LatencyAccumulator())
        self._issued = [0, 0]

    def handle(self, message: object) -> None:
        if isinstance(message, LaneReady):
            self.ready.add(message.lane_id)
        elif isinstance(message, Chunk):
            self._add_chunk(message)
        elif isinstance(message, LaneDone):
            self.done[message.lane_id] = message
        elif isinstance(message, WorkerDone):
            self.worker_cpu_s[message.worker_id] = message.cpu_s
            if message.waited_s is not None:
                self.worker_waited_s[message.worker_id] = message.waited_s

    @property
    def errors(self) -> list[str]:
        return sorted({d.error for d in self.done.values() if d.error})

    def _add_chunk(self, chunk: Chunk) -> None:
        ends_in = max(-(-chunk.upto_ns // _SECOND_NS), 1, self._published + 1)
        read, write = self._pending.setdefault(ends_in, (_Direction(), _Direction()))
        read.add(np.frombuffer(chunk.read_ns, dtype=np.int64), chunk.read_ramp)
        write.add(np.frombuffer(chunk.write_ns, dtype=np.int64), chunk.write_ramp)
        self._lane_upto_ns[chunk.lane_id] = max(chunk.upto_ns, self._lane_upto_ns.get(chunk.lane_id, 0))

    def _passed(self, second: int) -> bool:
        if len(self._lane_upto_ns) < self.lanes:
            return False
        return all(upto >= second * _SECOND_NS or lane in self.done for lane, upto in self._lane_upto_ns.items())

    def publish_due(self, elapsed_s: float, *, final: bool = False) -> None:
        """Publish seconds in order: those every lane has passed, late ones, and at the end all."""
        while self._pending:
            number = min(self._pending)
            if not (final or self._passed(number) or elapsed_s >= number + LATE_S):
                return
            read, write = self._pending.pop(number)
            self._published = number
            self._publish(number, _binned(read.shown), _binned(write.shown))
            self._totals[0].merge(_binned(read.measured))
            self._totals[1].merge(_binned(write.measured))
            self._issued[0] += read.issued
            self._issued[1] += write.issued

    def _publish(self, number: int, read: LatencyAccumulator, write: LatencyAccumulator) -> None:
        end_s = min(float(number), self._duration_s)
        length_s = end_s - (number - 1)
        if length_s < _SHORTEST_INTERVAL_S:
            return  # the final sliver after the last whole second, too short for a rate (as with fio)
        both = _together(read, write)
        sample = ProgressSample(elapsed_s=round(end_s, 3), interval_s=round(length_s, 3),
                                ramping=end_s <= self._ramp_s + 0.5,
                                read_iops=read.n / length_s, write_iops=write.n / length_s,
                                read_bw_bytes_per_s=read.n * self._block / length_s,
                                write_bw_bytes_per_s=write.n * self._block / length_s,
                                read_lat_ns_mean=_mean(read), write_lat_ns_mean=_mean(write),
                                read_lat_ns_p99=_p99(read), write_lat_ns_p99=_p99(write),
                                lat_ns_mean=_mean(both), lat_ns_p99=_p99(both))
        self.samples.append(sample)
        if self._on_progress is not None:
            self._on_progress(sample)

    def measured(self) -> tuple[DirectionStats, DirectionStats]:
        """Read and write over the measured window (after the ramp), all lanes merged.

        Call after ``publish_due(..., final=True)``, which bins what is still pending."""
        runtime_ns = max((d.measured_ns for d in self.done.values()), default=0)
        return (direction_stats(self._totals[0], self._block, runtime_ns),
                direction_stats(self._totals[1], self._block, runtime_ns))

    def issued_bytes(self) -> tuple[int, int]:
        """Bytes read and written, ramp included (what the device counters should show)."""
        return self._issued[0] * self._block, self._issued[1] * self._block


def _together(read: LatencyAccumulator, write: LatencyAccumulator) -> LatencyAccumulator:
    """Reads' and writes' latencies as one set: all the I/Os of a second."""
    both = LatencyAccumulator()
    both.merge(read)
    both.merge(write)
    return both


def _mean(latencies: LatencyAccumulator) -> float | None:
    return latencies.mean if latencies.n else None


def _p99(latencies: LatencyAccumulator) -> float | None:
    value = histogram.percentile(latencies.bins_ns(), histogram.REPORTED_PERCENTILES["p99"]) if latencies.n else None
    return float(value) if value is not None else None
