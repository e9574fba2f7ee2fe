from __future__ import annotations

from array import array

import pytest

from ssdprof.model import histogram
from ssdprof.model.results import ProgressSample
from ssdprof.portable.collector import Collector, direction_stats
from ssdprof.portable.messages import Chunk, LaneDone, LaneReady, WorkerDone
from ssdprof.portable.stats import LatencyAccumulator

MS = 1_000_000


def raw(*values: int) -> bytes:
    return array("q", values).tobytes()


def chunk(lane: int, upto_ms: int, reads: tuple[int, ...] = (), writes: tuple[int, ...] = (), *,
          read_ramp: int = 0, write_ramp: int = 0) -> Chunk:
    return Chunk(lane, upto_ms * MS, raw(*reads), raw(*writes), read_ramp, write_ramp)


def collector(lanes: int = 2, *, ramp_s: float = 1.0, duration_s: float = 3.0) -> tuple[Collector, list[ProgressSample]]:
    published: list[ProgressSample] = []
    return Collector(lanes=lanes, block_size_bytes=4096, ramp_s=ramp_s, duration_s=duration_s,
                     on_progress=published.append), published


def test_a_second_is_published_once_every_lane_has_passed_it() -> None:
    c, published = collector()
    c.handle(chunk(0, 1000, (100, 200)))
    c.handle(chunk(1, 900, (300,)))
    c.publish_due(1.01)
    assert published == []
    c.handle(chunk(1, 1000))
    c.publish_due(1.02)
    assert len(published) == 1
    assert published[0].read_iops == 3
    assert published[0].read_bw_bytes_per_s == 3 * 4096
    assert published[0].read_lat_ns_mean == 200
    assert published[0].ramping


def test_a_lane_stuck_in_a_slow_io_does_not_stall_the_display() -> None:
    c, published = collector()
    c.handle(chunk(0, 1000, (100,)))
    c.handle(chunk(1, 900, (100,)))
    c.publish_due(1.4)
    assert published == []
    c.publish_due(1.6)
    assert [s.elapsed_s for s in published] == [1.0]
    c.handle(chunk(1, 1000, (900_000_000,)))  # late: shown with the next second
    c.handle(chunk(0, 2000, (100,)))
    c.handle(chunk(1, 2000, (100,)))
    c.publish_due(2.01)
    assert published[1].read_iops == 3


def test_the_last_partial_second_is_scaled_to_its_length() -> None:
    c, published = collector(lanes=1, ramp_s=0.0, duration_s=2.5)
    for upto in (1000, 2000, 2500):
        c.handle(chunk(0, upto, (100,) * 10))
    c.publish_due(2.6, final=True)
    assert [s.elapsed_s for s in published] == [1.0, 2.0, 2.5]
    assert published[-1].read_iops == 20
    assert not published[-1].ramping


def test_a_final_sliver_is_not_shown_but_still_measured() -> None:
    c, published = collector(lanes=1, ramp_s=0.0, duration_s=2.1)
    for upto in (1000, 2000, 2100):
        c.handle(chunk(0, upto, (100,)))
    c.handle(LaneDone(0, measured_ns=2_100 * MS))
    c.publish_due(2.2, final=True)
    assert [s.elapsed_s for s in published] == [1.0, 2.0]
    assert c.measured()[0].io_count == 3


def test_per_second_p99_comes_from_that_seconds_bins() -> None:
    c, published = collector(lanes=1)
    values = tuple(range(1000, 101_000, 1000))
    c.handle(chunk(0, 1000, values, (5000,)))
    c.publish_due(1.0)
    expected = LatencyAccumulator()
    expected.add(list(values))
    assert published[0].read_lat_ns_p99 == histogram.percentile(expected.bins_ns(), 99)
    assert published[0].write_lat_ns_p99 == histogram.bucket_value(5000)


def test_ramp_io_is_shown_and_counted_as_issued_but_not_measured() -> None:
    c, published = collector(lanes=1, ramp_s=0.5, duration_s=1.0)
    c.handle(chunk(0, 500, (10, 20, 30), read_ramp=3))
    c.handle(chunk(0, 1000, (40, 50, 60), read_ramp=1))
    c.handle(LaneDone(0, measured_ns=500 * MS))
    c.publish_due(1.0, final=True)
    read, _ = c.measured()
    assert published[0].read_iops == 6
    assert read.io_count == 2 and read.lat_ns.min == 50
    assert c.issued_bytes() == (6 * 4096, 0)


def test_final_statistics_merge_every_lane_exactly() -> None:
    c, _ = collector()
    c.handle(chunk(0, 1000, (100, 300)))
    c.handle(chunk(1, 1000, (200,), (1000,)))
    c.handle(LaneDone(0, measured_ns=2_000 * MS))
    c.handle(LaneDone(1, measured_ns=1_999 * MS))
    c.publish_due(3.0, final=True)
    read, write = c.measured()
    assert read.io_count == 3 and read.io_bytes == 3 * 4096
    assert read.runtime_ms == 2000
    assert read.iops == pytest.approx(1.5)
    assert read.lat_ns.mean == 200 and read.lat_ns.stddev == 100
    assert read.lat_ns.min == 100 and read.lat_ns.max == 300
    assert read.lat_ns.p50 == histogram.bucket_value(200)
    assert read.lat_ns.from_bins and read.clat_ns == read.lat_ns and sum(read.lat_bins_ns.values()) == 3
    assert write.io_count == 1


def test_readiness_cpu_and_lane_errors_are_collected() -> None:
    c, _ = collector()
    c.handle(LaneReady(0))
    c.handle(WorkerDone(0, 1.5))
    c.handle(LaneDone(1, error="read failed: Input/output error"))
    assert c.ready == {0}
    assert c.worker_cpu_s == {0: 1.5}
    assert c.errors == ["read failed: Input/output error"]


def test_a_direction_without_io_is_empty() -> None:
    assert not direction_stats(LatencyAccumulator(), 4096, 1_000_000_000).active
