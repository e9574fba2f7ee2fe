"""The PTS steady-state rule on series whose answers are known by hand."""

from __future__ import annotations

import pytest

from ssdprof.analysis.steady_state import first_attained, steady_state
from ssdprof.model.pts import SteadyStateRule

RULE = SteadyStateRule()


def recomputed(values: list[float], first_round: int) -> tuple[float, float, float]:
    """mean, data excursion and slope excursion by the textbook formulas, without numpy."""
    xs = [first_round + i for i in range(len(values))]
    n, mean_x, mean_y = len(values), sum(xs) / len(xs), sum(values) / len(values)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, values, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
    return mean_y, max(values) - min(values), abs(slope) * (n - 1)


def test_a_constant_series_is_steady_at_the_fifth_round() -> None:
    result = steady_state([1000.0] * 5, RULE, tracking="4KiB random 0/100 IOPS", unit="IOPS")
    assert result.attained
    assert result.window == [1, 5]
    assert result.mean == pytest.approx(1000)
    assert result.data_excursion == pytest.approx(0)
    assert result.slope_excursion == pytest.approx(0, abs=1e-6)
    assert result.data_limit == pytest.approx(200)
    assert result.slope_limit == pytest.approx(100)
    assert "steady state at rounds 1-5" in result.reason


def test_fewer_rounds_than_the_window_is_not_reached_and_says_so() -> None:
    result = steady_state([1000.0] * 3, RULE)
    assert not result.attained
    assert result.mean is None
    assert result.reason == "not reached: 3 of the 5 rounds a window needs"


def test_a_steady_trend_fails_the_slope_excursion_but_not_the_data_excursion() -> None:
    # falls 4 % of ~1000 a round: max - min = 160 (16 % < 20 %), the line changes 160 (16 % > 10 %)
    values = [1080.0, 1040.0, 1000.0, 960.0, 920.0]
    result = steady_state(values, RULE)
    assert not result.attained
    assert result.slope_per_round == pytest.approx(-40)
    assert result.data_excursion == pytest.approx(160)
    assert result.slope_excursion == pytest.approx(160)
    assert "data excursion 16.0 % <= 20 %" in result.reason
    assert "slope excursion 16.0 % > 10 %" in result.reason


def test_noise_around_a_flat_level_is_steady() -> None:
    values = [1000.0, 1080.0, 950.0, 1060.0, 990.0]
    result = steady_state(values, RULE)
    mean, data, slope = recomputed(values, 1)
    assert result.attained
    assert result.mean == pytest.approx(mean)
    assert result.data_excursion == pytest.approx(data) == 130
    assert result.slope_excursion == pytest.approx(slope)


def test_a_step_inside_the_window_fails_the_data_excursion() -> None:
    # a fresh drive's writes drop by 40 % after round 7: rounds 4-8 straddle the step
    values = [5000.0, 5000.0, 5000.0, 5000.0, 5000.0, 5000.0, 5000.0, 3000.0]
    result = steady_state(values, RULE)
    assert not result.attained
    assert result.window == [4, 8]
    assert result.data_excursion == pytest.approx(2000)
    assert "data excursion" in result.reason and "> 20 %" in result.reason
    # before the step it was steady, and after four more rounds at the new level it is again
    assert first_attained(values, RULE) == 5
    assert first_attained([*values[7:], 3000.0, 3000.0, 3000.0, 3000.0], RULE) == 5


def test_the_window_slides_to_the_last_rounds_and_matches_a_recomputation() -> None:
    values = [9000.0, 7000.0, 5200.0, 5000.0, 4900.0, 5100.0, 5050.0, 4950.0]
    result = steady_state(values, RULE)
    mean, data, slope = recomputed(values[3:], 4)
    assert result.window == [4, 8]
    assert result.attained
    assert (result.mean, result.data_excursion, result.slope_excursion) == pytest.approx((mean, data, slope))
    assert result.fit_last - result.fit_first == pytest.approx(result.slope_per_round * 4)


def test_the_maximum_rounds_is_named_when_steady_state_never_came() -> None:
    values = [1000.0 * (0.9 ** i) for i in range(25)]
    result = steady_state(values, RULE)
    assert not result.attained
    assert "not reached after 25 rounds (the maximum)" in result.reason
    assert first_attained(values, RULE) is None


def test_a_failed_round_in_the_window_is_not_steady() -> None:
    assert not steady_state([1000.0, 1000.0, None, 1000.0, 1000.0], RULE).attained


def test_settable_limits_and_window_are_applied() -> None:
    rule = SteadyStateRule(window=3, min_rounds=3, data_limit_pct=5, slope_limit_pct=2)
    assert not steady_state([1000.0, 1040.0, 1060.0], rule).attained
    assert steady_state([1000.0, 1010.0, 1000.0], rule).attained
    assert steady_state([1000.0, 1010.0, 1000.0], rule).window == [1, 3]


def test_min_rounds_holds_the_verdict_back() -> None:
    rule = SteadyStateRule(window=3, min_rounds=5)
    result = steady_state([1000.0] * 4, rule)
    assert not result.attained
    assert "4 of at least 5 rounds" in result.reason
