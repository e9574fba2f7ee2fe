"""Which factors move which metrics: a factor x metric correlation matrix, per storage-node count.

Spearman's rank correlation is the default: access size and queue depth act on bandwidth and
latency monotonically but far from linearly, and ranks are not dominated by the 4 MiB runs.
A cell is None when it cannot be estimated — fewer than three runs, or a factor that was not
varied (a constant has no correlation, rather than zero correlation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ssdprof.analysis.metrics import factor_value, metric_value
from ssdprof.model.run_summary import AnyRun, node_count

__all__ = ["DEFAULT_FACTORS", "DEFAULT_METRICS", "CorrelationMatrix", "correlate", "correlation_by_node_count",
           "correlation_matrix"]

DEFAULT_FACTORS = ("log2_block_size", "numjobs", "queue_depth", "read_pct", "random", "nodes")
DEFAULT_METRICS = ("bw_bytes_per_s", "iops", "lat_ns_mean", "lat_ns_p99")
_MIN_PAIRS = 3


def correlate(x: Sequence[float], y: Sequence[float], method: str = "spearman") -> float | None:
    """Correlation of two equally long samples, or None when undefined."""
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.size < _MIN_PAIRS or np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    if method == "spearman":  # scipy.stats.spearmanr's statistic, computed as it does, without its imports
        return float(np.corrcoef(np.column_stack([_ranks(a), _ranks(b)]), rowvar=False)[1, 0])
    if method == "pearson":
        from scipy import stats as sps  # half a second to import: only when asked for

        return float(sps.pearsonr(a, b).statistic)
    raise ValueError(f"unknown method {method!r}; use spearman or pearson")


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given their average rank (scipy.stats.rankdata's 'average')."""
    order = np.argsort(values, kind="mergesort")
    inverse = np.empty(order.size, dtype=np.intp)
    inverse[order] = np.arange(order.size, dtype=np.intp)
    ordered = values[order]
    new = np.r_[True, ordered[1:] != ordered[:-1]]
    dense = new.cumsum()[inverse]
    count = np.r_[np.nonzero(new)[0], len(new)]
    ranks: np.ndarray = 0.5 * (count[dense] + count[dense - 1] + 1)
    return ranks


@dataclass(frozen=True)
class CorrelationMatrix:
    factors: tuple[str, ...]
    metrics: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]
    """values[i][j] is the correlation of factors[i] with metrics[j]."""
    runs: int
    method: str

    def cell(self, factor: str, metric: str) -> float | None:
        return self.values[self.factors.index(factor)][self.metrics.index(metric)]

    def strongest(self, count: int = 3) -> list[tuple[str, str, float]]:
        cells = [(f, m, v) for i, f in enumerate(self.factors) for j, m in enumerate(self.metrics)
                 if (v := self.values[i][j]) is not None]
        return sorted(cells, key=lambda c: -abs(c[2]))[:count]

    def format(self) -> str:
        width = max(len(f) for f in self.factors) + 2
        lines = [" " * width + "".join(f"{m[:14]:>16}" for m in self.metrics)]
        for factor, row in zip(self.factors, self.values, strict=True):
            lines.append(f"{factor:<{width}}" + "".join(f"{'-' if v is None else f'{v:+.2f}':>16}" for v in row))
        return "\n".join(lines)


def correlation_matrix(runs: Sequence[AnyRun], factors: Sequence[str] = DEFAULT_FACTORS,
                       metrics: Sequence[str] = DEFAULT_METRICS, method: str = "spearman") -> CorrelationMatrix:
    # each run's factors and metrics read once, then paired cell by cell (a study has thousands of runs)
    factor_columns = {f: [factor_value(r, f) for r in runs] for f in factors}
    metric_columns = {m: [metric_value(r, m) for r in runs] for m in metrics}
    rows = []
    for factor in factors:
        row = []
        for metric in metrics:
            pairs = [(f, m) for f, m in zip(factor_columns[factor], metric_columns[metric], strict=True)
                     if f is not None and m is not None]
            row.append(correlate([p[0] for p in pairs], [p[1] for p in pairs], method) if pairs else None)
        rows.append(tuple(row))
    return CorrelationMatrix(tuple(factors), tuple(metrics), tuple(rows), len(runs), method)


def correlation_by_node_count(runs: Sequence[AnyRun], factors: Sequence[str] = DEFAULT_FACTORS,
                              metrics: Sequence[str] = DEFAULT_METRICS, method: str = "spearman"
                              ) -> dict[int | None, CorrelationMatrix]:
    """One matrix per ``nodes`` tag value (None: untagged runs); ``nodes`` itself is left out."""
    groups: dict[int | None, list[AnyRun]] = {}
    for run in runs:
        groups.setdefault(node_count(run), []).append(run)
    inner = [f for f in factors if f != "nodes"]
    return {nodes: correlation_matrix(members, inner, metrics, method)
            for nodes, members in sorted(groups.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))}
