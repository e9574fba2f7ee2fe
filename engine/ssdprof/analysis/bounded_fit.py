"""Least squares within bounds for a curve of a few parameters: Levenberg-Marquardt whose steps stay inside
the box, a parameter held at its bound while the slope pushes it out.

What the scalability curve needs (``scaling.fit_usl``), without importing SciPy's optimizer for it (a
quarter of a second of a command's CPU). It converges to the least squares within the bounds far more
tightly than the figures print (relative changes below 1e-13); ``tests/analysis/test_bounded_fit.py``
holds it to SciPy's ``curve_fit`` on noisy and exact data.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["least_squares_in_bounds"]

_ITERATIONS = 500
_TOLERANCE = 1e-13


def least_squares_in_bounds(residuals: Callable[[np.ndarray], np.ndarray], jacobian: Callable[[np.ndarray], np.ndarray],
                            start: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """The parameters within [lower, upper] that minimise the sum of squared residuals, from ``start``."""
    p = np.clip(np.asarray(start, dtype=float), lower, upper)
    r = residuals(p)
    cost = float(r @ r)
    damping = 1e-3
    flat = 0  # successive steps that changed the cost by less than the tolerance
    for _ in range(_ITERATIONS):
        j = jacobian(p)
        gradient = j.T @ r
        held = ((p <= lower) & (gradient > 0)) | ((p >= upper) & (gradient < 0))
        free = ~held
        if not free.any():
            break
        normal = j[:, free].T @ j[:, free]
        scale = np.maximum(np.diag(normal), np.finfo(float).tiny)
        improved = False
        while damping < 1e16:
            step = np.zeros_like(p)
            try:
                step[free] = np.linalg.solve(normal + damping * np.diag(scale), -gradient[free])
            except np.linalg.LinAlgError:
                damping *= 10
                continue
            trial = np.clip(p + step, lower, upper)
            trial_r = residuals(trial)
            trial_cost = float(trial_r @ trial_r)
            if np.isfinite(trial_cost) and trial_cost <= cost:
                moved = np.abs(trial - p) <= _TOLERANCE * (np.abs(p) + _TOLERANCE)
                flat = flat + 1 if cost - trial_cost <= _TOLERANCE * cost else 0
                p, r, cost = trial, trial_r, trial_cost
                damping = max(damping / 3, 1e-12)
                improved = True
                if moved.all() or flat >= 3:
                    return np.asarray(p, dtype=float)
                break
            damping *= 4
        if not improved:
            break
    return np.asarray(p, dtype=float)
