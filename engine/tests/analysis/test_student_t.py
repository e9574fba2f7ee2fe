"""Student's t without SciPy: the same tails and quantiles as scipy.special's stdtr and stdtrit, far past
the digits any interval or p-value prints."""

from __future__ import annotations

import math

import pytest
from scipy import special

from ssdprof.analysis.student_t import t_quantile, t_tail

DEGREES = (1, 2, 3, 4, 5, 7, 9, 14, 29, 49, 99, 999, 10_000, 2.5, 3.7, 45.3, 57.5, 117.9)
"""Whole degrees of freedom (n - 1 of a confidence interval) and Welch's fractional ones."""


@pytest.mark.parametrize("df", DEGREES)
def test_quantiles_agree_with_scipy_at_every_confidence_an_interval_uses(df: float) -> None:
    for probability in (0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9995):
        assert t_quantile(probability, df) == pytest.approx(float(special.stdtrit(df, probability)), rel=1e-10)
        assert t_quantile(1 - probability, df) == pytest.approx(-t_quantile(probability, df), rel=1e-12)


@pytest.mark.parametrize("df", DEGREES)
def test_tails_agree_with_scipy_down_to_the_smallest_p_values(df: float) -> None:
    for t in (0.01, 0.3, 1.0, 2.0, 3.3, 7.17, 15.0, 40.0, 75.7, 200.0):
        expected = float(special.stdtr(df, -t))
        if expected > 1e-300:
            assert t_tail(t, df) == pytest.approx(expected, rel=1e-9)
            assert t_tail(-t, df) == t_tail(t, df)


def test_the_textbook_values_and_the_closed_forms() -> None:
    assert round(t_quantile(0.975, 9), 3) == 2.262
    assert round(t_quantile(0.975, 29), 3) == 2.045
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(math.pi * 0.475), rel=1e-15)  # Cauchy
    assert t_tail(0.0, 5) == pytest.approx(0.5, rel=1e-15) and t_tail(math.inf, 5) == 0.0
    assert t_quantile(0.5, 7) == 0.0


def test_a_quantile_outside_zero_to_one_or_without_degrees_of_freedom_is_refused() -> None:
    for probability, df in ((0.0, 5), (1.0, 5), (0.975, 0), (0.975, -1)):
        with pytest.raises(ValueError):
            t_quantile(probability, df)
