"""What one direction of a run did: its counts, rate, bandwidth and latency (total, completion,
submission) with fio's histogram bins. Nanoseconds, bytes and per-second rates; the names say so.
"""

from __future__ import annotations

from pydantic import Field, computed_field

from ssdprof.model.latency_kind import latency_kind
from ssdprof.model.value import Value

__all__ = ["BIN_FIELDS", "DirectionStats", "LatencyStats", "SpanStats"]


class SpanStats(Value):
    """A timed span's moments in nanoseconds, with no percentiles (fio's ``slat_ns``)."""

    samples: int = 0
    mean: float | None = None
    stddev: float | None = None
    min: float | None = None
    max: float | None = None


class LatencyStats(SpanStats):
    """A latency in nanoseconds with its percentiles, from histogram bins where there are any."""

    p50: float | None = None
    p90: float | None = None
    p95: float | None = None
    p99: float | None = None
    p99_9: float | None = None
    p99_99: float | None = None
    from_bins: bool = Field(default=False, description="percentiles computed from histogram bins")


class DirectionStats(Value):
    """One direction (read or write) of a run, a host or a job.

    ``lat_ns`` is THE latency: total, from submission to completion (fio's ``lat``, SNIA's response
    time), the span an application waits, and the one figure that compares across engines. fio's
    asynchronous engines split it into submission (``slat_ns``) and completion (``clat_ns``, which
    starts when the submission call returns); synchronous engines and the portable engine time the
    whole call, so there ``clat_ns`` is the same span as ``lat_ns``.
    """

    io_count: int = 0
    io_bytes: int = 0
    runtime_ms: float = 0.0
    iops: float = 0.0
    bw_bytes_per_s: float = 0.0
    lat_ns: LatencyStats = Field(default=LatencyStats(), description="total latency, submission to completion")
    clat_ns: LatencyStats = Field(default=LatencyStats(), description="completion latency (after the submission call returned)")
    slat_ns: SpanStats = Field(default=SpanStats(), description="submission latency (the submission call itself)")
    lat_bins_ns: dict[int, int] = Field(default_factory=dict,
                                        description="total latency, fio-layout histogram: bucket midpoint ns -> count")
    clat_bins_ns: dict[int, int] = Field(default_factory=dict, description="completion latency, fio-layout histogram")

    @property
    def active(self) -> bool:
        return self.io_count > 0

    @computed_field(  # type: ignore[prop-decorator]  # pydantic's documented form: computed_field over property
        description="what was recorded of latency: total (with percentiles), total_mean_only (old fio output: "
                    "mean/min/max), completion_only (clat without total), none; empty without I/O")
    @property
    def latency_kind(self) -> str:
        return latency_kind(self.io_count, self.lat_ns.p50, self.lat_ns.mean, self.clat_ns.p50, self.clat_ns.mean)


BIN_FIELDS = ("lat_bins_ns", "clat_bins_ns")
"""Histogram fields of DirectionStats, left out of summaries and light listings."""
