"""Latency accumulation in fio's histogram layout, vectorised with numpy.

:class:`LatencyAccumulator` bins raw nanosecond latencies into fio's buckets (the same index
as :func:`ssdprof.histogram.value_to_index`) and keeps the exact count, mean, spread
(Welford / Chan merge, so chunks, lanes and seconds combine without loss), minimum and
maximum. It runs in the engine's process, on the raw latencies the workers send.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ssdprof.model.histogram import PLAT_BITS, PLAT_NR, PLAT_VAL, index_to_value

__all__ = ["LatencyAccumulator", "fio_bucket_indices"]

_BUCKET_MIDPOINTS = np.array([index_to_value(i) for i in range(PLAT_NR)], dtype=np.int64)


def fio_bucket_indices(latencies_ns: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """fio's plat_val_to_idx for every element (negative values are clamped to 0)."""
    values = np.maximum(latencies_ns.astype(np.int64, copy=False), 0)
    # frexp is exact for integers below 2**53 (~104 days in ns): its exponent is the bit length.
    _, bit_length = np.frexp(values.astype(np.float64))
    msb = np.maximum(bit_length.astype(np.int64) - 1, 0)
    error_bits = np.maximum(msb - PLAT_BITS, 0)
    grouped = ((error_bits + 1) << PLAT_BITS) + ((PLAT_VAL - 1) & (values >> error_bits))
    indices = np.where(msb <= PLAT_BITS, values, grouped)
    return np.minimum(indices, PLAT_NR - 1)


def _empty_counts() -> npt.NDArray[np.int64]:
    return np.zeros(PLAT_NR, dtype=np.int64)


@dataclass
class LatencyAccumulator:
    """Exact summary of a set of latencies: fio-layout bucket counts plus n, mean, M2, min, max."""

    counts: npt.NDArray[np.int64] = field(default_factory=_empty_counts)
    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    min_ns: int = 0
    max_ns: int = 0

    def add(self, latencies_ns: Sequence[int] | npt.NDArray[np.int64]) -> None:
        if len(latencies_ns) == 0:
            return
        values = np.asarray(latencies_ns, dtype=np.int64)
        chunk_mean = float(values.mean())
        # Plain ufuncs only: np.dot would call a multithreaded BLAS whose spinning threads
        # steal the cores the I/O threads need.
        deviations = values - chunk_mean
        chunk = LatencyAccumulator(
            counts=np.bincount(fio_bucket_indices(values), minlength=PLAT_NR).astype(np.int64),
            n=len(values), mean=chunk_mean, m2=float(np.square(deviations).sum()),
            min_ns=int(values.min()), max_ns=int(values.max()),
        )
        self.merge(chunk)

    def merge(self, other: LatencyAccumulator) -> None:
        """Chan et al.'s parallel update: exact for any split of the samples."""
        if other.n == 0:
            return
        if self.n == 0:
            self.counts = other.counts.copy()
            self.n, self.mean, self.m2, self.min_ns, self.max_ns = other.n, other.mean, other.m2, other.min_ns, other.max_ns
            return
        total = self.n + other.n
        delta = other.mean - self.mean
        self.m2 += other.m2 + delta * delta * self.n * other.n / total
        self.mean += delta * other.n / total
        self.n = total
        self.counts += other.counts
        self.min_ns = min(self.min_ns, other.min_ns)
        self.max_ns = max(self.max_ns, other.max_ns)

    @property
    def stddev(self) -> float | None:
        """The sample standard deviation, as fio reports it."""
        return float((self.m2 / (self.n - 1)) ** 0.5) if self.n > 1 else None

    def __getstate__(self) -> dict[str, Any]:
        # Pickled sparsely: a second's latencies fill a few dozen of the 1856 buckets, and
        # every lane sends one accumulator per direction per second.
        state = dict(self.__dict__)
        nonzero = np.flatnonzero(self.counts)
        state["counts"] = (nonzero, self.counts[nonzero])
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        indices, values = state.pop("counts")
        counts = _empty_counts()
        counts[indices] = values
        self.__dict__.update(state, counts=counts)

    def bins_ns(self) -> dict[int, int]:
        """The sparse histogram ``{bucket midpoint ns: count}`` that fio's json+ prints."""
        nonzero = np.flatnonzero(self.counts)
        return {int(_BUCKET_MIDPOINTS[i]): int(self.counts[i]) for i in nonzero}
