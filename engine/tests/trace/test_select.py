"""The part of a trace replayed: its disks, hosts and a time window."""

import pytest

from ssdprof.model.replay import TraceSelection
from ssdprof.model.trace import TraceError
from ssdprof.trace.msr import read_msr
from ssdprof.trace.select import select

LINES = [f"{128166372003061629 + i * 10_000_000},{host},{disk},Read,{i * 4096},4096,10"
         for i, (host, disk) in enumerate([("hm", "0"), ("hm", "1"), ("prxy", "0"), ("hm", "0"), ("hm", "1")])]
TRACE = read_msr(LINES, "t.csv")  # one I/O a second


def test_the_whole_trace_is_kept_when_nothing_is_chosen() -> None:
    assert select(TRACE, TraceSelection()) is TRACE


def test_a_disk_and_a_host_keep_only_their_ios() -> None:
    chosen = select(TRACE, TraceSelection(hosts=["hm"], disks=["1"]))
    assert chosen.offset_bytes.tolist() == [4096, 4 * 4096]
    assert chosen.time_ns.tolist() == [0, 3_000_000_000]  # counted again from the first kept I/O
    assert "only host hm disk 1 (2 of 5 I/Os)" in chosen.notes[-1]


def test_a_window_keeps_the_ios_from_its_start_to_before_its_end() -> None:
    chosen = select(TRACE, TraceSelection(start_s=1, end_s=3))
    assert chosen.offset_bytes.tolist() == [4096, 2 * 4096]
    assert chosen.time_ns.tolist() == [0, 1_000_000_000]


def test_an_unknown_disk_is_refused_with_the_disks_there_are() -> None:
    with pytest.raises(TraceError, match="no disk '7'; its disks: '0', '1'"):
        select(TRACE, TraceSelection(disks=["7"]))


def test_a_window_past_the_end_is_refused() -> None:
    with pytest.raises(TraceError, match="nothing is left of the trace's 5 I/Os"):
        select(TRACE, TraceSelection(start_s=60))


def test_a_window_that_ends_before_it_starts_is_refused() -> None:
    with pytest.raises(ValueError, match="is not after its start"):
        TraceSelection(start_s=5, end_s=2)
