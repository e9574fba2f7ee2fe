"""A recorded block trace as ssdprof describes it before anything runs: what it holds, per direction, over
time and over the disk, and the latency it recorded where it has any.

Sizes and offsets in bytes, times in seconds from the trace's first I/O, latency in nanoseconds with
fio's histogram bins (so a recorded p99 is read by the same rule as a replayed one).
"""

from __future__ import annotations

from pydantic import Field

from ssdprof.model.direction import LatencyStats
from ssdprof.model.labelled import Labelled
from ssdprof.model.value import Value

__all__ = ["SizeCount", "TraceError", "TraceFormat", "TraceSecond", "TraceStream", "TraceSummary"]


class TraceFormat(Labelled):
    FIO_IOLOG_V2 = "fio-iolog-v2", "fio iolog version 2"
    FIO_IOLOG_V3 = "fio-iolog-v3", "fio iolog version 3 (timestamps)"
    BLKTRACE = "blktrace", "blktrace binary (read through blkparse)"
    MSR_CSV = "msr-csv", "SNIA IOTTA MSR-Cambridge CSV"

    @property
    def position_word(self) -> str:
        """What an I/O's position in the file is called: a line of a text trace, a queue event of a blktrace."""
        return "queued I/O" if self is TraceFormat.BLKTRACE else "line"


class TraceError(ValueError):
    """A trace that cannot be read: the line (or record) named, and what is wrong with it."""

    def __init__(self, message: str, *, line: int | None = None, path: str = ""):
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{path + ': ' if path else ''}{where}{message}")
        self.line = line
        self.detail = message


class TraceStream(Value):
    """One disk of the trace: MSR's Hostname and DiskNumber, blktrace's device, fio's file name."""

    host: str = Field(default="", description="the recording host (MSR's Hostname column); '' where the format has none")
    disk: str = Field(description="MSR's DiskNumber, blktrace's major,minor, the iolog's file name")
    io_count: int


class SizeCount(Value):
    """How many reads and writes had one access size."""

    size_bytes: int
    reads: int = 0
    writes: int = 0


class TraceSecond(Value):
    """The recorded rate over one interval of the trace (``start_s`` to ``start_s + span_s``)."""

    start_s: float
    span_s: float = Field(description="the time this sample covers: one second, or more on a long trace")
    read_iops: float = 0.0
    write_iops: float = 0.0
    read_bw_bytes_per_s: float = 0.0
    write_bw_bytes_per_s: float = 0.0


class TraceSummary(Value):
    """What a trace holds, said before anything runs."""

    format: TraceFormat
    source: str = Field(description="the file read (its name)")
    io_count: int
    read_count: int
    write_count: int
    read_bytes: int
    write_bytes: int
    timed: bool = Field(description="the trace says when each I/O was issued (a v2 iolog without waits does not)")
    duration_s: float = Field(description="first to last I/O issued; 0 for an untimed trace")
    offset_min_bytes: int
    offset_end_bytes: int = Field(description="the end of the furthest I/O: the region the trace needs")
    sizes: list[SizeCount] = Field(description="reads and writes per access size, smallest first (power-of-two groups "
                                                "past 24 distinct sizes, each named by its top)")
    series: list[TraceSecond] = Field(default_factory=list, description="recorded IOPS over time (timed traces)")
    recorded_read_lat_ns: LatencyStats | None = Field(default=None, description="the trace's own latency, where recorded")
    recorded_write_lat_ns: LatencyStats | None = None
    recorded_read_bins_ns: dict[int, int] = Field(default_factory=dict, description="fio-layout bins of the recorded latency")
    recorded_write_bins_ns: dict[int, int] = Field(default_factory=dict)
    latency_recorded_for: int = Field(default=0, description="I/Os whose latency the trace records")
    peak_in_flight: int | None = Field(default=None, description="most I/Os outstanding at once as recorded (from latency)")
    streams: list[TraceStream] = Field(default_factory=list, description="the disks (and hosts) the trace holds")
    skipped: dict[str, int] = Field(default_factory=dict, description="entries not replayed, by kind: trim, sync, flush")
    notes: list[str] = Field(default_factory=list, description="what the reader changed or noticed, in words")

    @property
    def read_pct(self) -> float:
        return 100.0 * self.read_count / self.io_count if self.io_count else 0.0
