"""Latency histograms in fio's own bucket layout, so bins from fio and from the portable
engine merge and compare exactly.

fio (stat.h) keeps 64 buckets per power of two: values below 128 get one bucket each; above,
a bucket spans 2^(msb-6) values and is reported by its midpoint. json+ output lists the
non-empty buckets as ``{midpoint_ns: count}`` (fio 3.x) or ``{index: count}`` plus the
``FIO_IO_U_PLAT_*`` constants (fio 2.x, microseconds).

Percentiles follow fio exactly: the p-th percentile is the value of the first bucket whose
cumulative count reaches p/100 * N. Merging histograms adds counts; percentiles are never
averaged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

__all__ = [
    "PLAT_BITS",
    "PLAT_GROUP_NR",
    "PLAT_NR",
    "PLAT_VAL",
    "REPORTED_PERCENTILES",
    "bucket_value",
    "cumulative",
    "index_to_value",
    "merge",
    "percentile",
    "percentiles",
    "subtract",
    "value_to_index",
]

PLAT_BITS = 6
PLAT_VAL = 1 << PLAT_BITS
PLAT_GROUP_NR = 29  # fio 3.x; fio 2.x used 19 groups (a smaller range, same layout)
PLAT_NR = PLAT_GROUP_NR * PLAT_VAL

# The percentiles every result carries: field suffix -> percentage (exact decimal).
REPORTED_PERCENTILES: dict[str, Fraction] = {
    "p50": Fraction(50),
    "p90": Fraction(90),
    "p95": Fraction(95),
    "p99": Fraction(99),
    "p99_9": Fraction("99.9"),
    "p99_99": Fraction("99.99"),
}

Histogram = dict[int, int]
"""Bucket midpoint (in the histogram's unit, ns here) -> number of samples."""


def index_to_value(index: int) -> int:
    """fio's plat_idx_to_val: the midpoint of bucket ``index``."""
    if not 0 <= index < PLAT_NR:
        raise ValueError(f"bucket index {index} outside 0..{PLAT_NR - 1}")
    if index < (PLAT_VAL << 1):
        return index
    error_bits = (index >> PLAT_BITS) - 1
    base = 1 << (error_bits + PLAT_BITS)
    k = index % PLAT_VAL
    return base + ((2 * k + 1) << error_bits) // 2


def value_to_index(value: int) -> int:
    """fio's plat_val_to_idx: the bucket a sample of ``value`` falls in."""
    if value < 0:
        raise ValueError("latency cannot be negative")
    msb = value.bit_length() - 1 if value else 0
    if msb <= PLAT_BITS:
        return value
    error_bits = msb - PLAT_BITS
    base = (error_bits + 1) << PLAT_BITS
    offset = (PLAT_VAL - 1) & (value >> error_bits)
    return min(base + offset, PLAT_NR - 1)


def bucket_value(value: int) -> int:
    """Where fio would report a sample of ``value``: its bucket's midpoint."""
    return index_to_value(value_to_index(value))


def merge(histograms: Iterable[Mapping[int, int]]) -> Histogram:
    total: Histogram = {}
    for hist in histograms:
        for value, count in hist.items():
            if count:
                total[value] = total.get(value, 0) + count
    return total


def subtract(later: Mapping[int, int], earlier: Mapping[int, int]) -> Histogram:
    """Samples recorded between two cumulative snapshots (for per-second latency)."""
    diff = {v: c - earlier.get(v, 0) for v, c in later.items()}
    return {v: c for v, c in diff.items() if c > 0}


def cumulative(hist: Mapping[int, int]) -> list[tuple[int, int]]:
    """(bucket value, samples at or below it) for every non-empty bucket, smallest first: the
    distribution that the percentiles are read from (the p-th is the first whose count reaches p/100·N)."""
    steps: list[tuple[int, int]] = []
    seen = 0
    for value in sorted(v for v, c in hist.items() if c > 0):
        seen += hist[value]
        steps.append((value, seen))
    return steps


def percentile(hist: Mapping[int, int], pct: Fraction | float) -> int | None:
    return percentiles(hist, [Fraction(pct)])[0]


def percentiles(hist: Mapping[int, int], pcts: list[Fraction]) -> list[int | None]:
    """fio's calc_clat_percentiles over a sparse histogram; ``None`` when it is empty."""
    total = sum(hist.values())
    if total == 0:
        return [None] * len(pcts)
    order = sorted(range(len(pcts)), key=lambda i: pcts[i])
    result: list[int | None] = [None] * len(pcts)
    cumulative = 0
    position = 0
    for value in sorted(hist):
        cumulative += hist[value]
        while position < len(order) and cumulative * 100 >= pcts[order[position]] * total:
            result[order[position]] = value
            position += 1
        if position == len(order):
            break
    return result
