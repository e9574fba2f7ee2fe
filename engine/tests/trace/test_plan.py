"""A replay planned: the lanes that issue a trace as recorded, or one deep queue as fast as possible."""

import pytest

from ssdprof.model.replay import OffsetMapping, ReplayTiming, TraceSelection
from ssdprof.trace.fio_iolog import read_iolog
from ssdprof.trace.mapping import ReplayRefused
from ssdprof.trace.msr import read_msr
from ssdprof.trace.plan import plan_replay

TRACE = read_msr([f"{128166372003061629 + i * 1000},hm,0,Read,{i * 4096},4096,{20_000}" for i in range(10)], "t.csv")


def plan(timing: ReplayTiming, depth: int, records=TRACE):  # type: ignore[no-untyped-def]
    return plan_replay(records, selection=TraceSelection(), timing=timing, queue_depth=depth, target_bytes=1 << 20,
                       mapping=OffsetMapping.EXACT, align_bytes=512)


def test_as_recorded_each_of_n_lanes_issues_every_nth_io_one_at_a_time() -> None:
    planned = plan(ReplayTiming.AS_RECORDED, 4)
    assert planned.lanes == 4
    assert planned.lane(1).tolist() == [1, 5, 9]
    assert planned.expected_s == pytest.approx(9e-4)
    assert "as-recorded: 4 lanes, each issuing every 4th I/O at its time, one at a time" in planned.notes[-2]


def test_as_recorded_warns_when_the_trace_had_more_in_flight_than_the_lanes() -> None:
    # each I/O takes 2 ms and one starts every 100 µs: 10 in flight
    assert "up to 10 I/Os in flight, more than the 4 allowed" in plan(ReplayTiming.AS_RECORDED, 4).notes[-1]


def test_lanes_never_outnumber_the_ios() -> None:
    assert plan(ReplayTiming.AS_RECORDED, 64).lanes == 10


def test_as_fast_as_possible_each_lane_issues_its_next_io_when_its_last_completes() -> None:
    planned = plan(ReplayTiming.FASTEST, 8)
    assert (planned.lanes, planned.expected_s) == (8, None)
    assert "fastest: 8 lanes, each issuing every 8th I/O as soon as the lane's last completes" in planned.notes[-1]


def test_an_untimed_trace_cannot_be_replayed_as_recorded() -> None:
    untimed = read_iolog(["fio version 2 iolog", "/f add", "/f read 0 4096"], "t.log")
    with pytest.raises(ReplayRefused, match="records no time"):
        plan(ReplayTiming.AS_RECORDED, 4, untimed)
    assert len(plan(ReplayTiming.FASTEST, 4, untimed).records) == 1
