"""Fit a metric against a swept factor, validate by leaving a setting out, predict with an interval.

Two model families, chosen for how SSDs behave:

* **Access size** — a polynomial (degree 2 at most by default) in log2(access size), fitted to
  log(metric). Bandwidth and IOPS change by orders of magnitude between 4 KiB and 4 MiB and bend
  as a bus or the network saturates; a quadratic in log-log space follows that bend with three
  parameters, and its intervals are multiplicative, as run-to-run scatter is. The degree is the
  one that best predicts each setting left out (:mod:`model_choice`), and never one that passes
  through every setting: three access sizes get a power law (a line in log-log), whose third
  size checks it.
* **Queue depth** — the closed-queue saturation law IOPS(n) = X_max · n / (n + K) for n
  outstanding I/Os. X_max is the drive's throughput ceiling; K/X_max is the unloaded service
  time, so by Little's law latency is (n + K) / X_max — linear in n once the drive is saturated.
  Latency metrics along queue depth are still fitted with the polynomial in log n (see
  ``prediction.fit_series``): a drive's internal parallelism and the host's CPU bend the
  measured latency away from that straight line, and the polynomial follows the bend.

Every run is one point, so repeats make the prediction interval reflect run-to-run scatter.
Leave-one-setting-out removes *all* runs at one setting (e.g. 1 MiB), refits, and predicts them;
goodness of fit over the runs is counted against the parameters (:mod:`fit_quality`).
Functions here take plain arrays; :mod:`ssdprof.analysis.prediction` applies them to runs.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ssdprof.analysis.fit_quality import FitQuality, fit_quality
from ssdprof.analysis.student_t import t_quantile

__all__ = ["Anomaly", "Fit", "LooPoint", "Prediction", "Validation", "check_anomaly",
           "fit_log_polynomial", "fit_queueing", "leave_one_setting_out"]


@dataclass(frozen=True)
class Prediction:
    x: float
    value: float
    low: float | None
    high: float | None
    confidence: float

    def contains(self, observed: float) -> bool | None:
        return None if self.low is None or self.high is None else self.low <= observed <= self.high


@dataclass(frozen=True)
class LooPoint:
    x: float
    actual: float
    """Mean of the runs at this setting."""
    predicted: float | None
    """None when too few settings remain to fit without it."""

    @property
    def error_pct(self) -> float | None:
        return None if self.predicted is None or self.actual == 0 else 100 * (self.predicted - self.actual) / self.actual


@dataclass(frozen=True)
class Validation:
    points: tuple[LooPoint, ...]
    rmse: float | None
    r2: float | None
    """1 - PRESS / total sum of squares over setting means; can be negative for a poor model."""
    mean_abs_error_pct: float | None


class Fit:
    """A fitted model: parameters, goodness of fit in the metric's own unit, and predictions."""

    family: str
    xs: np.ndarray
    ys: np.ndarray
    params: np.ndarray
    dof: int

    def value_at(self, x: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def predict(self, x: float, confidence: float = 0.95) -> Prediction:
        raise NotImplementedError

    @property
    def quality(self) -> FitQuality:
        """R², adjusted R² and RMSE over the fitted runs, or why there are none (an exact fit)."""
        return fit_quality(self.xs, self.ys, self.value_at(self.xs), len(self.params))

    def describe(self) -> str:
        return f"{self.family}: {self.quality.describe()}"


class LogPolynomialFit(Fit):
    """log(y) = Σ β_k · log2(x)^k; requires positive x and y."""

    def __init__(self, xs: np.ndarray, ys: np.ndarray, degree: int):
        self.xs, self.ys = xs, ys
        self.degree = degree
        self.family = f"polynomial of degree {degree} in log2(x), fitted to log(y)"
        design = self._design(xs)
        self.params, *_ = np.linalg.lstsq(design, np.log(ys), rcond=None)
        self.dof = len(xs) - (degree + 1)
        residuals = np.log(ys) - design @ self.params
        self._s2 = float(residuals @ residuals / self.dof) if self.dof > 0 else None
        self._xtx_inv = np.linalg.pinv(design.T @ design)

    def _design(self, xs: np.ndarray) -> np.ndarray:
        return np.vander(np.log2(xs), self.degree + 1, increasing=True)

    def value_at(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(np.exp(self._design(np.asarray(x, dtype=float)) @ self.params))

    def predict(self, x: float, confidence: float = 0.95) -> Prediction:
        row = self._design(np.array([float(x)]))[0]
        center = float(row @ self.params)
        if self._s2 is None:
            return Prediction(x, math.exp(center), None, None, confidence)
        half = t_quantile(0.5 + confidence / 2, self.dof) * math.sqrt(self._s2 * (1 + row @ self._xtx_inv @ row))
        return Prediction(x, math.exp(center), math.exp(center - half), math.exp(center + half), confidence)


class QueueingFit(Fit):
    """IOPS(n) = x_max · n / (n + k) for n outstanding I/Os."""

    family = "queueing saturation X_max·n/(n+K)"

    def __init__(self, xs: np.ndarray, ys: np.ndarray):
        from scipy import optimize  # a third of a second to import: only when a saturation law is fitted

        self.xs, self.ys = xs, ys
        guess = [float(ys.max()) * 1.2, float(np.median(xs))]
        with warnings.catch_warnings():
            # Two queue depths fit exactly and leave no covariance: predictions then carry no interval.
            warnings.simplefilter("ignore", optimize.OptimizeWarning)
            params, cov = optimize.curve_fit(_saturation, xs, ys, p0=guess, bounds=([0.0, 0.0], [np.inf, np.inf]), maxfev=20000)
        self.params, self._cov = np.asarray(params), np.asarray(cov)
        self.dof = len(xs) - 2
        residuals = ys - _saturation(xs, *self.params)
        self._s2 = float(residuals @ residuals / self.dof) if self.dof > 0 else None

    @property
    def x_max(self) -> float:
        return float(self.params[0])

    @property
    def k(self) -> float:
        return float(self.params[1])

    def latency_s_at(self, outstanding: float) -> float:
        """Mean latency implied by Little's law at ``outstanding`` I/Os in flight."""
        return (outstanding + self.k) / self.x_max

    def outstanding_for_fraction(self, fraction: float) -> float:
        """Where throughput reaches ``fraction`` of its ceiling: n = K·f/(1-f)."""
        return self.k * fraction / (1 - fraction)

    def value_at(self, x: np.ndarray) -> np.ndarray:
        return _saturation(np.asarray(x, dtype=float), *self.params)

    def predict(self, x: float, confidence: float = 0.95) -> Prediction:
        value = float(_saturation(np.array([float(x)]), *self.params)[0])
        if self._s2 is None or not np.all(np.isfinite(self._cov)):
            return Prediction(x, value, None, None, confidence)
        grad = np.array([x / (x + self.k), -self.x_max * x / (x + self.k) ** 2])
        half = t_quantile(0.5 + confidence / 2, self.dof) * math.sqrt(self._s2 + grad @ self._cov @ grad)
        return Prediction(x, value, max(value - half, 0.0), value + half, confidence)


def _saturation(n: np.ndarray, x_max: float, k: float) -> np.ndarray:
    return np.asarray(x_max * n / (n + k))


def _arrays(xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if x.shape != y.shape or x.size == 0:
        raise ValueError("xs and ys must be non-empty and of equal length")
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValueError("these models need positive settings and metric values")
    return x, y


def fit_log_polynomial(xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray,
                       degree: int = 2) -> LogPolynomialFit:
    """Degree is lowered to (distinct settings - 1) so the fit is never underdetermined; to choose a
    degree that leaves settings to check the fit, use :func:`model_choice.choose_log_polynomial`."""
    x, y = _arrays(xs, ys)
    settings = len(set(x.tolist()))
    if settings < 2:
        raise ValueError("need runs at two or more settings to fit a trend")
    return LogPolynomialFit(x, y, min(degree, settings - 1))


def fit_queueing(xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray) -> QueueingFit:
    x, y = _arrays(xs, ys)
    if len(set(x.tolist())) < 2:
        raise ValueError("need runs at two or more queue depths to fit the saturation curve")
    return QueueingFit(x, y)


def leave_one_setting_out(fit: Callable[[np.ndarray, np.ndarray], Fit],
                          xs: Sequence[float] | np.ndarray, ys: Sequence[float] | np.ndarray,
                          min_settings: int = 2) -> Validation:
    """Refit without each setting in turn and predict the mean of the runs at it."""
    x, y = _arrays(xs, ys)
    points = []
    for setting in sorted(set(x.tolist())):
        held = x == setting
        actual = float(y[held].mean())
        predicted = None
        if len(set(x[~held].tolist())) >= min_settings:
            predicted = float(fit(x[~held], y[~held]).value_at(np.array([setting]))[0])
        points.append(LooPoint(setting, actual, predicted))
    scored = [p for p in points if p.predicted is not None]
    if not scored:
        return Validation(tuple(points), None, None, None)
    actuals = np.array([p.actual for p in scored])
    errors = np.array([p.predicted for p in scored], dtype=float) - actuals
    total = float(np.sum((actuals - actuals.mean()) ** 2))
    r2 = None if total == 0 or len(scored) < 2 else 1 - float(errors @ errors) / total
    mape = float(np.mean(np.abs(errors / actuals))) * 100
    return Validation(tuple(points), float(np.sqrt(np.mean(errors**2))), r2, mape)


@dataclass(frozen=True)
class Anomaly:
    anomalous: bool
    observed: float
    prediction: Prediction
    message: str

    @property
    def deviation_pct(self) -> float:
        return 100 * (self.observed - self.prediction.value) / self.prediction.value


def check_anomaly(model: Fit, x: float, observed: float, confidence: float = 0.99) -> Anomaly:
    """A run is anomalous when it falls outside the model's prediction interval at its setting."""
    prediction = model.predict(x, confidence)
    inside = prediction.contains(observed)
    deviation = 100 * (observed - prediction.value) / prediction.value
    if inside is None:
        return Anomaly(False, observed, prediction, "no prediction interval: the model has as many parameters as runs; "
                       "add repeats of the earlier settings to enable anomaly detection")
    if inside:
        return Anomaly(False, observed, prediction, f"within the {confidence:.0%} prediction interval ({deviation:+.1f} % "
                       "from the model)")
    return Anomaly(True, observed, prediction, f"outside the {confidence:.0%} prediction interval "
                   f"[{prediction.low:,.4g}, {prediction.high:,.4g}]: {deviation:+.1f} % from the model — check the "
                   "hardware, the network and the run's warnings")
