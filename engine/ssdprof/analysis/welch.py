"""A sample's mean with its Student's t interval, and Welch's t-test of whether two samples differ.

Few repeats are the norm (3 to 30), hence Student's t; Welch's test does not assume the two samples
vary equally (a SATA and a PCIe node rarely do). Effect size is Hedges' g (Cohen's d with the
small-sample correction). The standard library's statistics, exactly rounded: a command that
compares a few groups does not pay numpy's import for them.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ssdprof.analysis.student_t import t_quantile, t_tail
from ssdprof.model.quantities import format_number as number

__all__ = ["MeanCI", "WelchResult", "effect_size_label", "mean_ci", "welch_t_test"]


@dataclass(frozen=True)
class MeanCI:
    n: int
    mean: float
    stddev: float | None
    """Sample standard deviation (n-1); None for a single value."""
    half_width: float | None
    """Half the confidence interval; None when n < 2 (no spread to estimate)."""
    confidence: float
    pooled: bool = False
    """``mean`` is a latency percentile of all the n runs' I/Os together, from their added bins
    (:mod:`ssdprof.analysis.pooled`), not a mean: it has no interval."""

    @property
    def low(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width

    def format(self, scale: float = 1.0, unit: str = "") -> str:
        unit = f" {unit}" if unit else ""
        if self.pooled:
            return f"{number(self.mean / scale)}{unit} (all I/Os of the {self.n} runs together)"
        if self.half_width is None:
            return f"{number(self.mean / scale)}{unit} (n=1, no interval)"
        return f"{number(self.mean / scale)} ± {number(self.half_width / scale)}{unit} ({self.confidence:.0%} CI, n={self.n})"


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> MeanCI:
    """The mean and its Student's t interval (the sample's standard deviation, n - 1)."""
    data = [float(v) for v in values]
    if not data:
        raise ValueError("no values to summarise")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    mean = statistics.fmean(data)
    if len(data) < 2:
        return MeanCI(1, mean, None, None, confidence)
    stddev = statistics.stdev(data, mean)
    half = t_quantile(0.5 + confidence / 2, len(data) - 1) * stddev / math.sqrt(len(data))
    return MeanCI(len(data), mean, stddev, half, confidence)


def effect_size_label(g: float) -> str:
    """Cohen's conventional thresholds on |g|."""
    size = abs(g)
    return "negligible" if size < 0.2 else "small" if size < 0.5 else "medium" if size < 0.8 else "large"


@dataclass(frozen=True)
class WelchResult:
    a: MeanCI
    b: MeanCI
    diff: float
    """mean(b) - mean(a)."""
    diff_pct: float | None
    """The difference relative to mean(a), in percent."""
    t: float | None
    df: float | None
    p_value: float | None
    diff_low: float | None
    diff_high: float | None
    hedges_g: float | None
    alpha: float
    verdict: str

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < self.alpha


def _hedges_g(a: MeanCI, b: MeanCI) -> float | None:
    n1, n2 = a.n, b.n
    pooled_var = ((n1 - 1) * (a.stddev or 0.0) ** 2 + (n2 - 1) * (b.stddev or 0.0) ** 2) / (n1 + n2 - 2)
    if pooled_var == 0:
        return None
    correction = 1 - 3 / (4 * (n1 + n2) - 9)
    return (b.mean - a.mean) / math.sqrt(pooled_var) * correction


def welch_t_test(a_values: Sequence[float], b_values: Sequence[float], alpha: float = 0.05,
                 labels: tuple[str, str] = ("A", "B"), unit: str = "", *, means: str = "mean") -> WelchResult:
    """Is B different from A? Two-sided Welch test with the interval of the difference; ``means``
    names the means compared in the verdict (e.g. "mean of the runs' own p99s")."""
    ci_a, ci_b = mean_ci(a_values, 1 - alpha), mean_ci(b_values, 1 - alpha)
    diff = ci_b.mean - ci_a.mean
    diff_pct = 100 * diff / abs(ci_a.mean) if ci_a.mean else None
    if ci_a.n < 2 or ci_b.n < 2:
        verdict = (f"{_direction(labels, diff_pct, unit, ci_a, ci_b, what=means)}; significance needs at least 2 repeats on each side "
                   f"(have {ci_a.n} and {ci_b.n})")
        return WelchResult(ci_a, ci_b, diff, diff_pct, None, None, None, None, None, None, alpha, verdict)
    va, vb = (ci_a.stddev or 0.0) ** 2 / ci_a.n, (ci_b.stddev or 0.0) ** 2 / ci_b.n
    se = math.sqrt(va + vb)
    if se == 0:
        # Both groups are constant: any difference is exact, none is none.
        p, t, df, half = (1.0 if diff == 0 else 0.0), (0.0 if diff == 0 else math.copysign(math.inf, diff)), None, 0.0
    else:
        t = diff / se
        df = (va + vb) ** 2 / (va**2 / (ci_a.n - 1) + vb**2 / (ci_b.n - 1))
        p = 2 * t_tail(t, df)
        half = t_quantile(1 - alpha / 2, df) * se
    g = _hedges_g(ci_a, ci_b)
    result = WelchResult(ci_a, ci_b, diff, diff_pct, t, df, p, diff - half, diff + half, g, alpha, "")
    return dataclasses.replace(result, verdict=_verdict(result, labels, unit, means))


def _direction(labels: tuple[str, str], diff_pct: float | None, unit: str, a: MeanCI, b: MeanCI, *,
               what: str = "mean") -> str:
    unit = f" {unit}" if unit else ""
    means = f"{what} {number(b.mean)} vs {number(a.mean)}{unit}"
    if diff_pct is None:
        return f"{labels[1]} vs {labels[0]}: {means}"
    word = "higher" if diff_pct >= 0 else "lower"
    return f"{labels[1]} is {abs(diff_pct):.1f} % {word} than {labels[0]} ({means})"


def _verdict(r: WelchResult, labels: tuple[str, str], unit: str, means: str) -> str:
    head = _direction(labels, r.diff_pct, unit, r.a, r.b, what=means)
    test = f"Welch's t = {r.t:.2f}, df = {r.df:.1f}, p = {r.p_value:.3g}" if r.df is not None else "no spread within either group"
    size = "" if r.hedges_g is None else f"; effect size {effect_size_label(r.hedges_g)} (Hedges' g = {r.hedges_g:.2f})"
    if r.significant:
        return f"{head}: significant at {r.alpha:.0%} ({test}){size}"
    return f"{head}: not significant at {r.alpha:.0%} ({test}){size} — the difference may be noise"
