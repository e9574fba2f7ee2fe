"""Correlation matrices on runs whose relations are known by construction."""

import pytest
from analysis_runs import make_run

from ssdprof.analysis.correlation import correlate, correlation_by_node_count, correlation_matrix


def test_a_monotonic_but_curved_relation_has_rank_correlation_one() -> None:
    xs = [1, 2, 3, 4, 5, 6]
    ys = [x**4 for x in xs]
    assert correlate(xs, ys, "spearman") == pytest.approx(1.0)
    assert 0.8 < (correlate(xs, ys, "pearson") or 0) < 1.0


def test_a_factor_that_was_not_varied_has_no_correlation_rather_than_zero() -> None:
    assert correlate([3, 3, 3, 3], [1, 2, 3, 4]) is None
    assert correlate([1, 2], [1, 2]) is None  # too few pairs


def test_larger_accesses_raise_bandwidth_and_deeper_queues_raise_latency() -> None:
    runs = [make_run(bs=bs, qd=qd, iops=1000 * qd / (qd + 2), lat_ns=10_000 * (qd + 2)) for bs in (4096, 65536, 1 << 20)
            for qd in (1, 4, 16)]
    matrix = correlation_matrix(runs, factors=("log2_block_size", "queue_depth", "read_pct"),
                                metrics=("bw_bytes_per_s", "lat_ns_mean"))
    # Bandwidth ranks 1..9 nest inside the tied size ranks (2,2,2,5,5,5,8,8,8): r = 54 / sqrt(54 · 60).
    assert matrix.cell("log2_block_size", "bw_bytes_per_s") == pytest.approx(54 / (54 * 60) ** 0.5)
    assert matrix.cell("queue_depth", "lat_ns_mean") == pytest.approx(1.0)
    assert matrix.cell("read_pct", "bw_bytes_per_s") is None
    assert matrix.strongest(1)[0][:2] == ("queue_depth", "lat_ns_mean")
    assert "queue_depth" in matrix.format()


def test_one_matrix_per_node_count() -> None:
    runs = [make_run(bs=bs, iops=1000, tags={"nodes": str(n)}) for n in (2, 3) for bs in (4096, 65536, 1 << 20)]
    matrices = correlation_by_node_count(runs)
    assert list(matrices) == [2, 3]
    assert "nodes" not in matrices[2].factors and matrices[2].runs == 3
