"""The latency-target search's decisions, on depths with known IOPS and latency.

A drive here is a table of (IOPS, p99) by queue depth: the search's rules are arithmetic on measured
depths, so they are checked on the numbers a real drive gave (the issue's: IOPS peaking at QD16 while
p99 stays within 1 ms up to QD40) without running one.
"""

from __future__ import annotations

from collections.abc import Callable

from ssdprof.app.slo import Tried, deepest, most_iops, next_depth

TARGET_NS = 1_000_000

Drive = Callable[[int], Tried]


def peaked_at_16(qd: int) -> Tried:
    """IOPS rise to QD16 and fall after it; p99 crosses 1 ms between QD40 and QD48."""
    iops = 7_250 * qd if qd <= 16 else 116_000 - 1_000 * (qd - 16)
    p99_ns = 289_000 if qd <= 16 else 289_000 + (qd - 16) * 27_700
    return Tried(qd, float(iops), float(p99_ns))


def rising(qd: int) -> Tried:
    return Tried(qd, 10_000.0 * qd ** 0.5, 100_000.0 * qd)


def search(drive: Drive, max_qd: int = 256) -> list[Tried]:
    tried = [drive(1)]
    while (depth := next_depth(tried, TARGET_NS, max_qd)) is not None:
        assert depth not in {t.queue_depth for t in tried}, "the search measured a depth twice"
        tried.append(drive(depth))
    return tried


def test_search_answers_the_depth_with_most_iops_not_the_deepest_within_target() -> None:
    tried = search(peaked_at_16)
    best, edge = most_iops(tried, TARGET_NS), deepest(tried, TARGET_NS)
    assert best is not None and edge is not None
    assert best.queue_depth == 16 and best.iops == 116_000
    assert edge.queue_depth > best.queue_depth and edge.meets(TARGET_NS)
    assert not peaked_at_16(edge.queue_depth + max(1, edge.queue_depth // 8) + 1).meets(TARGET_NS)


def test_search_refines_around_the_peak_until_its_neighbours_are_within_an_eighth() -> None:
    def peak_at_12(qd: int) -> Tried:
        return Tried(qd, 100_000.0 - 2_000 * abs(qd - 12), 200_000.0)  # every depth meets the target

    tried = search(peak_at_12, max_qd=64)
    best = most_iops(tried, TARGET_NS)
    assert best is not None and best.queue_depth == 12
    depths = sorted(t.queue_depth for t in tried)
    assert depths[-1] == 64  # the edge was searched to the allowed depth first


def test_search_on_a_drive_whose_iops_grow_with_depth_answers_the_deepest_within_target() -> None:
    tried = search(rising)
    best, edge = most_iops(tried, TARGET_NS), deepest(tried, TARGET_NS)
    assert best == edge and best is not None and best.queue_depth == 10


def test_search_stops_at_qd1_when_qd1_misses_the_target() -> None:
    tried = search(lambda qd: Tried(qd, 1_000.0, 2_000_000.0))
    assert [t.queue_depth for t in tried] == [1] and most_iops(tried, TARGET_NS) is None


def test_a_depth_with_no_completed_io_never_meets_the_target() -> None:
    assert not Tried(8, 0.0, None).meets(TARGET_NS)


def test_a_search_names_every_bad_field_at_once() -> None:
    import pytest

    from ssdprof.app.planner import SweepRequest
    from ssdprof.app.slo import SloRequest, plan_slo
    from ssdprof.model.workload import WorkloadError

    with pytest.raises(WorkloadError) as caught:
        plan_slo(SloRequest(sweep=SweepRequest(base={"queue_depth": "x", "block_size_bytes": "3000"}),
                            percentile=150, latency="fast", max_qd=-3))
    fields = {p.field for p in caught.value.problems}
    assert {"percentile", "latency_ns", "max_qd", "block_size_bytes"} <= fields
