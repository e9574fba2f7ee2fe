"""Run-to-run spread in the summary: every run of a setting the summary read (pooled or not), their
mean ± 95 % CI, and whether a change between two settings is more than that spread.

Runs of one setting are one figure only as a sweep's repeats or pooled on request
(:mod:`ssdprof.analysis.repeats`); a summary that shows one of 30 separate runs as "the setting"
must still say that 29 more exist and what all of them give, and a change it reads between two
settings is a change only where their intervals do not overlap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdprof.analysis.metrics import metric_value, setting_key
from ssdprof.model.results import RunResult

__all__ = ["Spread", "by_setting", "spread", "spread_words", "within_spread"]

Group = Sequence[RunResult]


def by_setting(groups: Sequence[Group]) -> dict[tuple[object, ...], list[RunResult]]:
    """Every run of each setting among the groups (repeats and separate runs alike)."""
    found: dict[tuple[object, ...], list[RunResult]] = {}
    for group in groups:
        found.setdefault(setting_key(group[0]), []).extend(group)
    return found


@dataclass(frozen=True)
class Spread:
    """A metric over all runs of one setting: mean ± half the 95 % CI, of n runs."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def spread(runs: Sequence[RunResult], metric: str) -> Spread | None:
    """The runs' ``metric`` as mean ± 95 % CI; None below two runs (no spread to know)."""
    from ssdprof.analysis.welch import mean_ci  # loaded when a summary is made

    values = [v for r in runs if (v := metric_value(r, metric)) is not None]
    if len(values) < 2:
        return None
    found = mean_ci(values)
    return Spread(found.mean, found.half_width or 0.0, found.n)


def within_spread(a: Sequence[RunResult], b: Sequence[RunResult], metric: str) -> tuple[Spread, Spread] | None:
    """Both settings' spreads where their 95 % intervals overlap (the change between them is not
    measured); None where they do not, or where either has fewer than two runs."""
    first, second = spread(a, metric), spread(b, metric)
    if first is None or second is None:
        return None
    return (first, second) if first.low <= second.high and second.low <= first.high else None


def spread_words(pair: tuple[Spread, Spread], text: Callable[[float], str], unit: str = "") -> str:
    """'11,020 ± 410 (n = 30) vs 11,380 ± 520 (n = 30) IOPS, 95 % CI'."""
    unit = f" {unit}" if unit else ""
    a, b = pair
    return (f"{text(a.mean)} ± {text(a.half_width)} (n = {a.n}) vs {text(b.mean)} ± {text(b.half_width)} "
            f"(n = {b.n}){unit}, 95 % CI")
