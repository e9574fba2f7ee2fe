from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ssdprof.model import histogram


def test_every_bucket_index_round_trips_through_its_value() -> None:
    assert all(histogram.value_to_index(histogram.index_to_value(i)) == i for i in range(histogram.PLAT_NR))


def test_small_values_have_exact_buckets_and_large_ones_report_midpoints() -> None:
    assert histogram.bucket_value(100) == 100
    # 1000 ns: msb 9, 3 error bits -> bucket [1000, 1008) reported at its midpoint 1004
    assert histogram.bucket_value(1000) == 1004


@given(st.integers(min_value=0, max_value=16 * 10**9))
def test_a_sample_lands_within_its_buckets_relative_error(value: int) -> None:
    reported = histogram.bucket_value(value)
    assert abs(reported - value) <= max(value / 64, 1)


def test_samples_beyond_fios_range_land_in_the_last_bucket_like_fio() -> None:
    assert histogram.value_to_index(10**12) == histogram.PLAT_NR - 1


def test_percentile_is_first_bucket_reaching_p_of_n() -> None:
    hist = {10: 50, 20: 49, 30: 1}
    assert histogram.percentile(hist, 50) == 10
    assert histogram.percentile(hist, 99) == 20
    assert histogram.percentile(hist, Fraction("99.9")) == 30
    assert histogram.percentile({}, 50) is None


def test_merging_adds_counts_and_never_averages_percentiles() -> None:
    fast = {100: 1000}
    slow = {10_000: 10}
    merged = histogram.merge([fast, slow])
    assert merged == {100: 1000, 10_000: 10}
    # p99.5 of the union is the slow bucket; the mean of the two p99.5s (5050) would be nonsense
    assert histogram.percentile(merged, Fraction("99.5")) == 10_000


def test_subtracting_snapshots_gives_the_interval() -> None:
    assert histogram.subtract({10: 5, 20: 7}, {10: 5, 20: 2}) == {20: 5}
