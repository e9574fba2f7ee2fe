"""The scale-up model's parts: chassis IOPS, the enclosure drops, the CPU factor."""

import pytest
from scale_up_published import write_points

from ssdprof.analysis.scale_up import build_profile, chain_factor, chassis_iops, fit_cpu_factor
from ssdprof.analysis.scale_up_inputs import ScaleUpInputs, ScaleUpPoint


def chassis(*figures: tuple[int, float]) -> list[ScaleUpPoint]:
    return [
        ScaleUpPoint(arrays=n, iops=iops, run_ids=[i]) for i, (n, iops) in enumerate(figures, 1)
    ]


def test_chassis_iops_is_the_mean_of_the_best_and_the_largest_array_count() -> None:
    found = chassis_iops(chassis((1, 45_000), (6, 193_000), (8, 155_000)))
    assert found.value == pytest.approx(174_000)
    assert found.run_ids == [2, 3]
    assert (
        "193,000 IOPS at 6 arrays (run 2)" in found.source
        and "155,000 IOPS at the most arrays, 8 (run 3)" in found.source
    )


def test_repeats_at_one_array_count_are_averaged_before_the_best_is_chosen() -> None:
    found = chassis_iops(chassis((6, 190_000), (6, 196_000), (8, 150_000), (8, 160_000)))
    assert found.value == pytest.approx((193_000 + 155_000) / 2)
    assert found.run_ids == [1, 2, 3, 4]


def test_a_chassis_still_rising_at_its_most_arrays_is_that_figure() -> None:
    found = chassis_iops(chassis((2, 80_000), (4, 150_000)))
    assert found.value == 150_000 and "the highest measured" in found.source


def test_each_enclosure_lowers_the_whole_chain_by_the_drop_for_its_place() -> None:
    profile = build_profile(ScaleUpInputs(points=chassis((8, 174_000)), target_ssds=240))
    assert [chain_factor(profile, n) for n in (1, 2, 3, 4)] == pytest.approx([1, 0.9, 0.72, 0.576])
    assert chain_factor(profile, 10) == pytest.approx(0.9 * 0.8**8)
    assert profile.farther_drop_pct.source.startswith("assumed")


def test_the_first_drop_is_profiled_from_the_chassis_and_one_enclosure() -> None:
    profile = build_profile(ScaleUpInputs(points=write_points(), target_ssds=240))
    assert profile.chassis_iops.value == pytest.approx(174_000)
    assert profile.first_drop_pct.value == pytest.approx(10)
    assert profile.first_drop_pct.source.startswith(
        "profiled"
    ) and profile.first_drop_pct.run_ids == [2, 3, 4]
    assert (
        profile.second_drop_pct.value == 20
        and profile.second_drop_pct.source == "the framework's published figure"
    )
    assert profile.arrays_per_unit.value == 8


def test_drops_given_by_the_user_win_over_profiling() -> None:
    profile = build_profile(
        ScaleUpInputs(
            points=write_points(), target_ssds=240, first_drop_pct=15, farther_drop_pct=30
        )
    )
    assert (profile.first_drop_pct.value, profile.first_drop_pct.source) == (15, "given")
    assert profile.drop_pct(5) == 30


def test_a_chain_that_gained_iops_is_taken_as_no_drop_and_says_so() -> None:
    points = [*chassis((8, 100_000)), ScaleUpPoint(arrays=16, enclosures=1, iops=104_000)]
    profile = build_profile(ScaleUpInputs(points=points, target_ssds=48))
    assert profile.first_drop_pct.value == 0 and "rose 4.0 %" in profile.first_drop_pct.source


def test_the_cpu_factor_is_a_line_over_the_number_of_arrays() -> None:
    fit = fit_cpu_factor(write_points())
    assert fit is not None
    assert fit.slope_cores_per_iops_per_array == pytest.approx(1e-6)
    assert fit.intercept_cores_per_iops == pytest.approx(5e-5)
    assert fit.at(80) == pytest.approx(1.3e-4)
    assert [s.arrays for s in fit.samples] == [1, 6, 8, 16]
    assert fit.quality.check == "weak" and "runs 1, 2, 3, 4" in fit.source


def test_two_array_counts_fit_the_cpu_line_exactly_and_say_no_check_is_possible() -> None:
    points = [ScaleUpPoint(arrays=n, iops=1e5, cpu_cores=c) for n, c in ((2, 4.0), (8, 7.0))]
    fit = fit_cpu_factor(points)
    assert fit is not None and fit.quality.check == "none" and fit.quality.r2 is None


def test_no_cpu_factor_without_cpu_figures_at_two_array_counts() -> None:
    assert fit_cpu_factor(chassis((1, 45_000), (8, 155_000))) is None
    assert fit_cpu_factor([ScaleUpPoint(arrays=8, iops=1e5, cpu_cores=3.0)]) is None
