"""Scale-out what-if: fit the Universal Scalability Law to a few node (or client) counts, predict more.

USL (Gunther): X(N) = λN / (1 + σ(N−1) + κN(N−1)). λ is the throughput of one unit, σ the
share serialised by contention (queues, a shared journal), κ the cost of keeping units
coherent (cross-node chatter). The curve peaks at N* = sqrt((1−σ)/κ) when κ > 0.

A cluster cannot move more data than its links carry, so each prediction is also capped by
clients × client link speed and, if given, nodes × node link speed; the smallest of the three
is the answer, and the report says which one binds.

Scale-out is not scale-up: adding disk-array enclosures to one SAS daisy chain lowers the whole
chain's IOPS, which :mod:`scale_up` predicts from a profiled chassis and enclosure.

Three parameters through three unit counts (or two through two) fit exactly: the fit's quality
is then absent, not R² = 1 (:mod:`fit_quality`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ssdprof.analysis.bounded_fit import least_squares_in_bounds
from ssdprof.analysis.fit_quality import FitQuality, fit_quality
from ssdprof.model.quantities import format_number as number

__all__ = ["ScalingPoint", "UslFit", "fit_usl", "project"]


def _usl(n: np.ndarray, lam: float, sigma: float, kappa: float) -> np.ndarray:
    return np.asarray(lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)))


@dataclass(frozen=True)
class UslFit:
    lam: float
    sigma: float
    kappa: float
    units: tuple[float, ...]
    observed: tuple[float, ...]
    quality: FitQuality

    def value_at(self, n: float) -> float:
        return float(_usl(np.array([float(n)]), self.lam, self.sigma, self.kappa)[0])

    @property
    def peak_units(self) -> float | None:
        """The unit count beyond which adding units lowers throughput.

        None without a retrograde term, or when the peak lies over 100x beyond the largest
        count measured: a κ that small is fitting noise, and that far out the curve says nothing.
        """
        if self.kappa <= 0 or self.sigma >= 1:
            return None
        peak = math.sqrt((1 - self.sigma) / self.kappa)
        return peak if peak <= 100 * max(self.units) else None

    def describe(self, scale: float = 1.0, unit: str = "") -> str:
        peak = f", peak at N ≈ {self.peak_units:.1f}" if self.peak_units else ", no peak in sight"
        per = f" {unit}" if unit else ""
        return (f"USL: λ = {number(self.lam / scale)}{per} per unit, "
                f"contention σ = {self.sigma:.3f}, coherency κ = {self.kappa:.4f}{peak}; "
                f"fit {self.quality.describe(scale, unit)}")


def fit_usl(units: Sequence[float], throughput: Sequence[float]) -> UslFit:
    """Fit λ, σ, κ ≥ 0 (σ ≤ 1) to throughput measured at several unit counts (repeats welcome): least squares
    within those bounds (``bounded_fit``; two counts cannot separate contention from coherency: κ = 0)."""
    n, x = np.asarray(units, dtype=float), np.asarray(throughput, dtype=float)
    if n.shape != x.shape or len(set(n.tolist())) < 2:
        raise ValueError("need throughput at two or more unit counts to fit a scalability curve")
    if np.any(n < 1) or np.any(x <= 0):
        raise ValueError("unit counts must be at least 1 and throughput positive")
    smallest = n == n.min()
    parameters = 2 if len(set(n.tolist())) == 2 else 3
    start = np.array([float(x[smallest].mean() / n.min()), 0.05, 0.001][:parameters])

    def curve(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        kappa = p[2] if parameters == 3 else 0.0
        return n / (1 + p[1] * (n - 1) + kappa * n * (n - 1)), n * (n - 1)

    def residuals(p: np.ndarray) -> np.ndarray:
        return np.asarray(p[0] * curve(p)[0] - x)

    def jacobian(p: np.ndarray) -> np.ndarray:
        per_unit, pairs = curve(p)
        slope = -p[0] * per_unit * per_unit / n  # d(λN/D)/dD
        columns = [per_unit, slope * (n - 1), slope * pairs][:parameters]
        return np.column_stack(columns)

    found = least_squares_in_bounds(residuals, jacobian, start, np.zeros(parameters),
                                    np.array([np.inf, 1.0, np.inf][:parameters]))
    lam, sigma, kappa = float(found[0]), float(found[1]), float(found[2]) if parameters == 3 else 0.0
    return UslFit(lam, sigma, kappa, tuple(n.tolist()), tuple(x.tolist()),
                  fit_quality(n, x, _usl(n, lam, sigma, kappa), parameters))


@dataclass(frozen=True)
class ScalingPoint:
    units: float
    usl: float
    client_network_cap: float | None
    node_network_cap: float | None
    predicted: float
    binding: str
    """'scalability' (the USL curve), 'client network' or 'node network'."""

    def sentence(self, unit_name: str = "nodes", scale: float = 1.0, unit: str = "") -> str:
        limits = {"scalability": self.usl, "client network": self.client_network_cap, "node network": self.node_network_cap}
        others = ", ".join(f"{name} {number(value / scale)}" for name, value in limits.items()
                           if value is not None and name != self.binding)
        return (f"{self.units:g} {unit_name}: {number(self.predicted / scale)} {unit} — limited by {self.binding}"
                + (f" (other limits: {others})" if others else ""))


def project(fit: UslFit, units: Sequence[float], clients: int | None = None, client_link: float | None = None,
            node_link: float | None = None) -> list[ScalingPoint]:
    """Predict throughput at ``units``; links are in the metric's own unit per second (e.g. bytes/s).

    ``clients`` × ``client_link`` caps every point; ``node_link`` caps N units at N × node_link.
    """
    points = []
    for n in units:
        usl = fit.value_at(n)
        client_cap = clients * client_link if clients and client_link else None
        node_cap = n * node_link if node_link else None
        limits = {"scalability": usl, "client network": client_cap, "node network": node_cap}
        binding = min((k for k, v in limits.items() if v is not None), key=lambda k: limits[k] or math.inf)
        points.append(ScalingPoint(float(n), usl, client_cap, node_cap, float(limits[binding] or usl), binding))
    return points

