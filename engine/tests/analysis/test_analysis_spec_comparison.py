"""% of spec: given only where the run was measured as the figure was rated, MB and MiB kept apart."""

import pytest
from analysis_runs import make_run

from ssdprof.analysis.spec_comparison import Status, best_comparisons, compare_run
from ssdprof.analysis.specs import Access, Figure, Interface, Source, Spec

SPEC = Spec(id="test-drive", vendor="Test", model="Drive 1TB", interface=Interface.SATA, sources=[Source(title="sheet")],
            figures=[Figure(metric=Access.SEQ_READ, value=560, unit="MB/s"),
                     Figure(metric=Access.RAND_READ, value=13_000, unit="IOPS", block_size_bytes=4096, queue_depth=1),
                     Figure(metric=Access.RAND_READ, value=98_000, unit="IOPS", block_size_bytes=4096, queue_depth=32),
                     Figure(metric=Access.RAND_WRITE, value=88_000, unit="IOPS", block_size_bytes=4096),
                     Figure(metric=Access.RAND_READ, value=85, unit="us", statistic="typical")])


def by_value(comparisons: list) -> dict[float, object]:
    return {c.figure.value: c for c in comparisons}


def test_a_4k_qd32_run_is_compared_with_the_qd32_rating_only() -> None:
    found = by_value(compare_run(SPEC, make_run(qd=32, iops=49_000, lat_ns=600_000)))
    assert found[98_000].status is Status.UNSTATED  # threads not stated
    assert found[98_000].pct_of_spec == pytest.approx(50.0)
    assert found[13_000].pct_of_spec is None and "rated at QD1x1 = 1 outstanding" in found[13_000].notes[0]
    assert found[85].pct_of_spec is None and "unloaded drive" in found[85].notes[0]


def test_deep_queues_within_a_factor_of_two_are_comparable_but_shallow_ones_must_be_equal() -> None:
    assert by_value(compare_run(SPEC, make_run(qd=16, iops=49_000)))[98_000].pct_of_spec is not None
    assert by_value(compare_run(SPEC, make_run(qd=8, jobs=4, iops=49_000)))[98_000].pct_of_spec is not None
    assert by_value(compare_run(SPEC, make_run(qd=8, iops=49_000)))[98_000].pct_of_spec is None
    assert by_value(compare_run(SPEC, make_run(qd=2, iops=20_000)))[13_000].pct_of_spec is None


def test_another_access_size_is_never_compared_with_a_4k_rating() -> None:
    found = by_value(compare_run(SPEC, make_run(bs=8192, qd=32, iops=49_000)))
    assert found[98_000].pct_of_spec is None and "rated at 4 KiB accesses, this run used 8 KiB" in found[98_000].notes


def test_bandwidth_in_mib_per_s_is_compared_with_decimal_mb_per_s() -> None:
    # 534.06 MiB/s is 560 MB/s: 100 %, not the 95.4 % a MiB/MB mix-up would give.
    run = make_run(rw="read", bs=1 << 20, qd=32, iops=534.0577)
    (seq,) = compare_run(SPEC, run)
    assert seq.measured == pytest.approx(560e6, rel=1e-6)
    assert seq.pct_of_spec == pytest.approx(100.0, abs=0.01)
    assert Figure(metric=Access.SEQ_READ, value=1, unit="MiB/s").canonical_value == 1 << 20
    assert Figure(metric=Access.SEQ_READ, value=3.2, unit="GB/s").canonical_value == pytest.approx(3.2e9)


def test_sequential_ratings_are_not_compared_with_small_accesses() -> None:
    (seq,) = compare_run(SPEC, make_run(rw="read", bs=4096, iops=100_000))
    assert seq.pct_of_spec is None and "≥128 KiB" in seq.notes[0]


def test_unstated_conditions_give_an_indicative_percentage_that_says_so() -> None:
    (write,) = compare_run(SPEC, make_run(rw="randwrite", qd=32, iops=44_000))
    assert write.status is Status.UNSTATED and write.pct_of_spec == pytest.approx(50.0)
    assert "queue depth not stated" in write.notes[0]
    assert write.sentence().startswith("reached 50 % of the rated rand_write IOPS (88000 IOPS) (indicative")


def test_qd1_latency_is_compared_with_the_typical_latency() -> None:
    found = by_value(compare_run(SPEC, make_run(qd=1, iops=11_000, lat_ns=90_000)))
    assert found[85].pct_of_spec == pytest.approx(100 * 90 / 85)
    assert "below 100 % is better" in found[85].notes[-1]
    assert found[13_000].status is Status.UNSTATED and found[13_000].pct_of_spec == pytest.approx(100 * 11 / 13)


def test_buffered_multi_host_and_failed_runs_are_never_given_a_percentage() -> None:
    for run in (make_run(qd=32, iops=1e6, direct=False), make_run(qd=32, iops=1e6, hosts=3),
                make_run(qd=32, iops=1e6, status="failed")):
        assert all(c.pct_of_spec is None for c in compare_run(SPEC, run))


def test_mixed_runs_only_meet_mixed_ratings_and_matches_come_first() -> None:
    assert compare_run(SPEC, make_run(rw="randrw", read_pct=70, qd=32)) == []
    ordered = best_comparisons(compare_run(SPEC, make_run(qd=32, iops=49_000, lat_ns=1.0)))
    assert ordered[0].figure.value == 98_000 and ordered[-1].status is Status.MISMATCH
