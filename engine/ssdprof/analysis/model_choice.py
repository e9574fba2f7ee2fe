"""Which model to fit: the polynomial degree that best predicts settings it was not fitted to.

A degree chosen by its fit over the runs always goes as high as allowed, up to a curve through
every setting (R² = 1, checking nothing). Here each degree predicts every setting from the others
(:func:`models.leave_one_setting_out`, at that same degree) and the lowest error wins, among
degrees that leave at least one setting beyond their parameters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

from ssdprof.analysis.models import Fit, Validation, fit_log_polynomial, leave_one_setting_out

__all__ = ["Chosen", "choose_log_polynomial"]

_CLEARLY_BETTER = (1.1, 0.1)
"""A lower degree is kept while its mean |error| leaving each setting out is within 10 % (relative)
plus 0.1 percentage points of the best degree's: a curve that bends more also follows noise."""


@dataclass(frozen=True)
class Chosen:
    """A model picked among candidates, its leave-one-setting-out validation, and why."""

    model: Fit
    validation: Validation
    reason: str
    """e.g. '3 settings allow degree 1 at most, leaving settings to check it'; empty: no
    choice was made."""


def choose_log_polynomial(xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray,
                          max_degree: int = 2) -> Chosen:
    """The degree from 1 to ``max_degree`` whose fit best predicts each setting left out.

    Never a degree that passes through every setting (settings - 1) while a lower one leaves a
    setting to check it. A left-out refit keeps the degree under test (it is not lowered).
    """
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    settings = len(set(x.tolist()))
    if settings < 2:
        raise ValueError("need runs at two or more settings to fit a trend")
    top = max(1, min(max_degree, settings - 2))
    tried = [(d, leave_one_setting_out(partial(fit_log_polynomial, degree=d), x, y,
                                       min_settings=d + 1)) for d in range(1, top + 1)]
    best = min(_score(v) for _, v in tried)
    slack, margin = _CLEARLY_BETTER
    degree, validation = next((d, v) for d, v in tried if _score(v) <= best * slack + margin)
    reason = _reason(degree, top, max_degree, settings)
    return Chosen(fit_log_polynomial(x, y, degree), validation, reason)


def _score(validation: Validation) -> float:
    error = validation.mean_abs_error_pct
    return math.inf if error is None else error


def _reason(degree: int, top: int, max_degree: int, settings: int) -> str:
    if settings == 2:
        return "two settings: a line through both, with nothing left to check it"
    lowest = f"degree {degree} of 1–{top}: the lowest error leaving each setting out"
    if top < max_degree:
        capped = f"{settings} settings allow degree {top} at most, leaving settings to check it"
        return capped if top == 1 else f"{lowest}; {capped}"
    return lowest if top > 1 else ""
