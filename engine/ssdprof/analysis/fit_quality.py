"""How far a model's fit to its own runs can be trusted, counted against the model's parameters.

A model with as many parameters as the settings it was fitted to passes through every setting's
mean whatever the drive did: its R² is 1 (or only measures the scatter of repeats) and checks
nothing. So goodness of fit is reported only when settings outnumber parameters, with R²
adjusted for the parameters, and called a weak check while few settings are to spare. The
error of predicting each setting from the others (leave one out, :mod:`models`) is the better
guide to a prediction, and every face shows it first.

Settings, not runs, are what the count is against: repeats of one setting tell how much the
drive scatters, not whether the model's shape is right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from ssdprof.model.quantities import format_number as number

__all__ = ["WEAK_CHECK_SPARE_SETTINGS", "FitCheck", "FitQuality", "fit_quality"]

FitCheck = Literal["none", "weak", "ok"]
"""none: an exact fit, nothing to check; weak: few settings beyond the parameters; ok: enough."""

WEAK_CHECK_SPARE_SETTINGS = 2
"""Up to this many settings beyond the parameters, a good fit says little: a curve bends to them."""


@dataclass(frozen=True)
class FitQuality:
    """Goodness of fit over the runs a model was fitted to; R², adjusted R² and RMSE are absent
    (None) for an exact fit, and ``note`` says why, or why the check is weak."""

    runs: int
    settings: int
    parameters: int
    check: FitCheck
    note: str
    r2: float | None
    adjusted_r2: float | None
    """1 - (1 - R²)·(runs - 1)/(runs - parameters): R² with the parameters' freedom taken back."""
    rmse: float | None
    """In the metric's own unit."""

    def summary(self) -> str:
        """'R² 0.998, adjusted 0.997; weak check: 3 settings for 2 parameters', or why no R²."""
        if self.rmse is None:
            return self.note
        return self._r2_text() + (f"; {self.note}" if self.note else "")

    def describe(self, scale: float = 1.0, unit: str = "") -> str:
        """One line: 'over 6 runs at 3 settings: R² 0.998, adjusted 0.997, RMSE 12.3 MB/s; …'."""
        where = f"over {self.runs} runs at {self.settings} settings"
        if self.rmse is None:
            return f"{where}: {self.note}"
        note = f"; {self.note}" if self.note else ""
        rmse = number(self.rmse / scale) + (f" {unit}" if unit else "")
        return f"{where}: {self._r2_text()}, RMSE {rmse}{note}"

    def _r2_text(self) -> str:
        if self.r2 is None:
            return "R² n/a (every run measured the same)"
        adjusted = "" if self.adjusted_r2 is None else f", adjusted {self.adjusted_r2:.3f}"
        return f"R² {self.r2:.3f}{adjusted}"


def fit_quality(xs: np.ndarray, ys: np.ndarray, fitted: np.ndarray, parameters: int) -> FitQuality:
    """Goodness of fit of ``fitted`` (the model at ``xs``) to ``ys``, given its ``parameters``."""
    runs, settings = len(xs), len(set(np.asarray(xs).tolist()))
    spare = settings - parameters
    if spare <= 0:
        note = f"exact fit: no check possible ({parameters} parameters for {settings} settings)"
        return FitQuality(runs, settings, parameters, "none", note, None, None, None)
    residuals = np.asarray(ys, dtype=float) - np.asarray(fitted, dtype=float)
    rss = float(residuals @ residuals)
    total = float(np.sum((ys - np.mean(ys)) ** 2))
    r2 = None if total == 0 else 1 - rss / total
    adjusted = None if r2 is None else 1 - (1 - r2) * (runs - 1) / (runs - parameters)
    weak = spare <= WEAK_CHECK_SPARE_SETTINGS
    note = f"weak check: {settings} settings for {parameters} parameters" if weak else ""
    return FitQuality(runs, settings, parameters, "weak" if weak else "ok", note, r2, adjusted,
                      float(np.sqrt(rss / runs)))
