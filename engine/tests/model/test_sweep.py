import pytest

from ssdprof.model.presets import PRESETS
from ssdprof.model.sweep import SweepMode, SweepSpec, build_sweep, estimate_s, preset
from ssdprof.model.workload import Workload, WorkloadError, parse_workload

BASE = parse_workload({"runtime_s": 5, "ramp_s": 1})


def test_quick_preset_is_crystaldiskmarks_eight_points() -> None:
    labels = [p.label for p in preset("quick", BASE).points]
    assert labels[:4] == ["read 1MiB QD8 T1", "read 1MiB QD1 T1", "randread 4KiB QD32 T1", "randread 4KiB QD1 T1"]
    assert labels[4:] == ["write 1MiB QD8 T1", "write 1MiB QD1 T1", "randwrite 4KiB QD32 T1", "randwrite 4KiB QD1 T1"]


def test_student_preset_varies_one_factor_at_a_time() -> None:
    points = preset("student", BASE).points
    assert [p.block_size_bytes for p in points[:3]] == [4096, 16384, 131072]
    assert [p.read_pct for p in points[3:7]] == [100, 70, 50, 0]
    assert [p.queue_depth for p in points[7:]] == [1, 10, 100]


def test_cluster_study_preset_is_the_papers_full_grid() -> None:
    points = preset("cluster-study", BASE).points
    assert len(points) == 4 * 3 * 3
    assert {p.numjobs for p in points} == {1, 8, 16}
    assert {p.block_size_bytes for p in points} == {4096, 131072, 4 << 20}


def test_matrix_preset_spans_512_bytes_to_1_mib() -> None:
    sizes = {p.block_size_bytes for p in preset("matrix", BASE).points}
    assert min(sizes) == 512 and max(sizes) == 1 << 20


def test_every_preset_keeps_the_users_runtime() -> None:
    for name in PRESETS:
        assert all(p.runtime_s == 5 for p in preset(name, BASE).points)


def test_one_at_a_time_and_grid_expand_factors() -> None:
    factors: dict[str, list[object]] = {"block_size_bytes": ["4k", "16k"], "queue_depth": [1, 8, 32]}
    assert len(build_sweep(BASE, factors, SweepMode.ONE_AT_A_TIME).points) == 5  # type: ignore[arg-type]
    assert len(build_sweep(BASE, factors, SweepMode.GRID).points) == 6  # type: ignore[arg-type]


def test_a_bad_value_in_a_sweep_names_its_field() -> None:
    with pytest.raises(WorkloadError) as caught:
        build_sweep(BASE, {"queue_depth": ["1", "0"]}, SweepMode.ONE_AT_A_TIME)
    assert caught.value.problems[0].field == "queue_depth"


def test_unknown_presets_and_factors_are_named() -> None:
    with pytest.raises(WorkloadError, match="choose one of"):
        preset("fastest", BASE)
    with pytest.raises(WorkloadError, match="cannot vary"):
        build_sweep(BASE, {"color": ["red"]}, SweepMode.GRID)


def test_estimate_counts_ramp_runtime_overhead_and_repeats() -> None:
    spec = SweepSpec(name="x", points=[Workload(runtime_s=10, ramp_s=2)] * 3, repeats=2)
    assert estimate_s(spec) == pytest.approx(2 * 3 * (12 + 0.3))
