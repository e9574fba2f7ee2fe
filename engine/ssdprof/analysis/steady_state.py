"""The PTS steady-state rule, a pure function of the rounds' values.

Steady state is reached at round n (n >= min_rounds) when the last ``window`` rounds' values y, at rounds x:

- data excursion: max(y) - min(y) <= data_limit_pct % of mean(y);
- slope excursion: the least-squares line through (x, y) changes by at most slope_limit_pct % of mean(y)
  across the window, i.e. |slope| x (x_last - x_first) <= slope_limit_pct % of mean(y).

"Not reached" is reported as such, with the measured and allowed excursions, never hidden.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ssdprof.model.pts import SteadyStateRule
from ssdprof.model.pts_results import SteadyState

__all__ = ["first_attained", "steady_state"]


def steady_state(values: Sequence[float | None], rule: SteadyStateRule, *, tracking: str = "", unit: str = "",
                 gating: bool = True) -> SteadyState:
    """The rule applied to the last ``rule.window`` of ``values`` (round 1 first)."""
    rounds = len(values)
    first = max(rounds - rule.window + 1, 1)
    window = list(values[first - 1:])
    common = {"tracking": tracking, "unit": unit, "gating": gating, "rounds": rounds, "window_size": rule.window,
              "data_limit_pct": rule.data_limit_pct, "slope_limit_pct": rule.slope_limit_pct,
              "window": [first, rounds] if rounds else []}
    if rounds < rule.window or any(v is None or not math.isfinite(v) for v in window):
        missing = "a round in the window has no value (its point failed)" if rounds >= rule.window else \
            f"{rounds} of the {rule.window} rounds a window needs"
        return SteadyState(attained=False, reason=f"not reached: {missing}", **common)
    y = np.array(window, dtype=float)
    x = np.arange(first, rounds + 1, dtype=float)
    slope, intercept = np.polyfit(x, y, 1)
    mean = float(y.mean())
    data_excursion = float(y.max() - y.min())
    slope_excursion = abs(float(slope)) * float(x[-1] - x[0])
    data_limit = rule.data_limit_pct / 100 * mean
    slope_limit = rule.slope_limit_pct / 100 * mean
    measured = {"mean": mean, "slope_per_round": float(slope), "fit_first": float(intercept + slope * x[0]),
                "fit_last": float(intercept + slope * x[-1]), "data_excursion": data_excursion, "data_limit": data_limit,
                "slope_excursion": slope_excursion, "slope_limit": slope_limit}
    attained, reason = _judge(rounds, first, rule, mean=mean, data=data_excursion, slope=slope_excursion)
    return SteadyState(attained=attained, reason=reason, **common, **measured)


def _judge(rounds: int, first: int, rule: SteadyStateRule, *, mean: float, data: float, slope: float) -> tuple[bool, str]:
    if mean <= 0:
        return False, "not reached: the window's mean is not above 0 (the tracked point measured nothing)"
    data_pct, slope_pct = 100 * data / mean, 100 * slope / mean
    data_ok, slope_ok = data_pct <= rule.data_limit_pct + 1e-9, slope_pct <= rule.slope_limit_pct + 1e-9
    said = (f"data excursion {data_pct:.1f} % {'<=' if data_ok else '>'} {rule.data_limit_pct:g} %, "
            f"slope excursion {slope_pct:.1f} % {'<=' if slope_ok else '>'} {rule.slope_limit_pct:g} % of the mean")
    if rounds < rule.min_rounds:
        return False, f"not reached: {rounds} of at least {rule.min_rounds} rounds ({said})"
    if data_ok and slope_ok:
        return True, f"steady state at rounds {first}-{rounds}: {said}"
    cap = f" after {rounds} rounds (the maximum)" if rounds >= rule.max_rounds else ""
    return False, f"not reached{cap}: {said}"


def first_attained(values: Sequence[float | None], rule: SteadyStateRule) -> int | None:
    """The first round (1-based) at which the rule holds, or None: where a test following the rule stops."""
    for end in range(rule.min_rounds, min(len(values), rule.max_rounds) + 1):
        if steady_state(values[:end], rule).attained:
            return end
    return None
