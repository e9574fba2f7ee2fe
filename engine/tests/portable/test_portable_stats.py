from __future__ import annotations

import pickle
import statistics

import numpy as np
import pytest

from ssdprof.model import histogram
from ssdprof.portable.stats import LatencyAccumulator, fio_bucket_indices


def _edge_values() -> list[int]:
    values = list(range(300))
    for bit in range(7, 62):
        values += [(1 << bit) - 1, 1 << bit, (1 << bit) + 1, (1 << bit) + (1 << (bit - 1))]
    return values


def test_bucket_indices_match_fios_plat_val_to_idx_at_every_edge() -> None:
    values = _edge_values()
    indices = fio_bucket_indices(np.array(values, dtype=np.int64))
    assert indices.tolist() == [histogram.value_to_index(v) for v in values]


def test_bucket_indices_match_on_random_latencies_from_ns_to_minutes() -> None:
    values = np.random.default_rng(7).integers(0, 10**11, 20_000, dtype=np.int64)
    assert fio_bucket_indices(values).tolist() == [histogram.value_to_index(int(v)) for v in values]


def test_accumulator_matches_numpy_statistics_whatever_the_chunking() -> None:
    samples = np.random.default_rng(3).lognormal(11, 0.6, 10_001).astype(np.int64).tolist()
    whole, chunked = LatencyAccumulator(), LatencyAccumulator()
    whole.add(samples)
    for start in range(0, len(samples), 997):
        part = LatencyAccumulator()
        part.add(samples[start : start + 997])
        chunked.merge(part)
    for acc in (whole, chunked):
        assert acc.n == len(samples)
        assert acc.mean == pytest.approx(statistics.fmean(samples), rel=1e-12)
        assert acc.stddev == pytest.approx(statistics.stdev(samples), rel=1e-9)
        assert (acc.min_ns, acc.max_ns) == (min(samples), max(samples))
    assert np.array_equal(whole.counts, chunked.counts)


def test_bins_are_fio_midpoints_with_their_counts() -> None:
    samples = [5, 5, 130, 131, 70_000, 1_000_000]
    acc = LatencyAccumulator()
    acc.add(samples)
    expected: dict[int, int] = {}
    for value in samples:
        expected[histogram.bucket_value(value)] = expected.get(histogram.bucket_value(value), 0) + 1
    assert acc.bins_ns() == expected


def test_an_empty_accumulator_merges_as_nothing_and_has_no_stddev() -> None:
    acc = LatencyAccumulator()
    acc.add([])
    acc.merge(LatencyAccumulator())
    assert acc.n == 0
    assert acc.stddev is None
    assert acc.bins_ns() == {}


def test_merging_into_an_empty_accumulator_copies_rather_than_aliases() -> None:
    source = LatencyAccumulator()
    source.add([100, 200])
    target = LatencyAccumulator()
    target.merge(source)
    target.add([300])
    assert source.n == 2
    assert int(source.counts.sum()) == 2


def test_an_accumulator_survives_the_pipe_between_processes_exactly() -> None:
    acc = LatencyAccumulator()
    acc.add([120, 5_000, 5_001, 80_000_000])
    copy = pickle.loads(pickle.dumps(acc))
    assert np.array_equal(copy.counts, acc.counts)
    assert (copy.n, copy.mean, copy.m2, copy.min_ns, copy.max_ns) == (acc.n, acc.mean, acc.m2, acc.min_ns, acc.max_ns)
    assert len(pickle.dumps(acc)) < 1000
