"""The scalability curve's least squares within bounds, without SciPy: SciPy's curve_fit's answer, or a
better one (a smaller sum of squares) where curve_fit stopped short on a flat valley."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from scipy import optimize

from ssdprof.analysis.scaling import fit_usl


def usl(n: np.ndarray, lam: float, sigma: float, kappa: float) -> np.ndarray:
    return np.asarray(lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1)))


def scipy_fit(n: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The fit as ssdprof made it before (curve_fit, trf within the same bounds, the same start)."""
    start = [float(x[n == n.min()].mean() / n.min()), 0.05, 0.001]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optimize.OptimizeWarning)
        found, _ = optimize.curve_fit(usl, n, x, p0=start, bounds=([0, 0, 0], [np.inf, 1, np.inf]), maxfev=20000)
    return np.asarray(found)


def squares(n: np.ndarray, x: np.ndarray, p: np.ndarray) -> float:
    return float(np.sum((usl(n, *p) - x) ** 2))


@pytest.mark.parametrize("seed", range(40))
def test_a_noisy_cluster_gets_scipys_curve_or_one_closer_to_its_points(seed: int) -> None:
    rng = random.Random(seed)
    counts = sorted(rng.sample([1, 2, 3, 4, 5, 6, 8, 10, 12, 16], rng.choice([3, 4, 5])))
    truth = (10 ** rng.uniform(2, 10), rng.choice([0.0, rng.uniform(0, 0.5)]), rng.choice([0.0, rng.uniform(0, 0.02)]))
    n = np.array([c for c in counts for _ in range(rng.choice([1, 3, 30]))], dtype=float)
    x = usl(n, *truth) * (1 + np.array([rng.gauss(0, rng.choice([0.0, 0.01, 0.05])) for _ in n]))
    fit = fit_usl(n.tolist(), x.tolist())
    ours, theirs = np.array([fit.lam, fit.sigma, fit.kappa]), scipy_fit(n, x)
    assert squares(n, x, ours) <= squares(n, x, theirs) * (1 + 1e-9) + 1e-24 * float(np.sum(x**2))  # exact fits: 0 and noise
    assert ours == pytest.approx(theirs, rel=1e-4, abs=1e-6)  # scipy stops at relative steps of 1e-8, short of the printed digits


def test_the_bounds_hold_where_the_data_pull_past_them() -> None:
    n = np.array([2.0, 3.0, 4.0, 5.0])
    superlinear = 100.0 * n**1.2  # better than linear: contention and coherency would go negative
    fit = fit_usl(n.tolist(), superlinear.tolist())
    assert fit.sigma == 0.0 and fit.kappa == 0.0 and fit.lam > 0
