"""One planner for PTS tests: the PTS matrices, the laptop profile, and messages that name the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.model.pts import PtsProfile, PtsTest
from ssdprof.model.workload import WorkloadError


def problems(**fields: object) -> dict[str, str]:
    with pytest.raises(WorkloadError) as refused:
        plan_pts(PtsRequest.model_validate(fields))
    return {p.field: f"{p.flag}: {p.message}" for p in refused.value.problems}


def test_the_iops_test_is_eight_sizes_by_seven_mixes_random_in_the_pts_order() -> None:
    spec = plan_pts(PtsRequest(test=PtsTest.IOPS))
    points = spec.points()
    assert len(points) == 56 and spec.pts_compliant
    assert [p.block_size_bytes for p in points[:8]] == [1 << 20, 128 << 10, 64 << 10, 32 << 10, 16 << 10, 8 << 10, 4096, 512]
    assert [p.read_pct for p in points[::8]] == [100, 95, 65, 50, 35, 5, 0]
    assert {p.pattern.value for p in points} == {"randread", "randrw", "randwrite"}
    assert all(p.runtime_s == 60 and p.ramp_s == 0 and p.queue_depth == 32 for p in points)
    assert spec.trackings()[0].label() == "4KiB random 0/100 IOPS"


def test_throughput_is_sequential_and_latency_is_qd1_t1_with_mean_and_max_tracked() -> None:
    throughput = plan_pts(PtsRequest(test=PtsTest.THROUGHPUT))
    assert [(p.pattern.value, p.block_size_bytes) for p in throughput.points()] == [
        ("read", 1 << 20), ("read", 128 << 10), ("write", 1 << 20), ("write", 128 << 10)]
    assert throughput.trackings()[0].label(sequential=True) == "1MiB sequential 0/100 MB/s"
    latency = plan_pts(PtsRequest(test=PtsTest.LATENCY))
    assert len(latency.points()) == 9 and all(p.queue_depth == p.numjobs == 1 for p in latency.points())
    assert [t.metric for t in latency.trackings()] == ["lat_mean", "lat_max"] and not latency.trackings()[1].gating


def test_the_laptop_profile_is_labelled_not_pts_compliant_and_so_are_changed_settings() -> None:
    laptop = plan_pts(PtsRequest(test=PtsTest.IOPS, profile=PtsProfile.LAPTOP))
    assert not laptop.pts_compliant and "NOT PTS-compliant" in laptop.compliance_note()
    assert laptop.base.runtime_s == 2 and len(laptop.points()) == 6
    changed = plan_pts(PtsRequest(test=PtsTest.IOPS, window=4))
    assert not changed.pts_compliant and "NOT PTS-compliant" in changed.compliance_note()


def test_write_saturation_runs_until_its_multiple_with_a_round_cap() -> None:
    spec = plan_pts(PtsRequest(test=PtsTest.WRITE_SATURATION, saturation_multiple=3))
    assert spec.saturation_multiple == 3 and spec.rule.max_rounds == 1440
    assert [(p.pattern.value, p.block_size_bytes) for p in spec.points()] == [("randwrite", 4096)]


def test_round_time_window_limits_and_multiples_are_checked_naming_the_field() -> None:
    found = problems(test="iops", round_time_s="0s", data_limit_pct=0, slope_limit_pct=101, saturation_multiple=-1,
                     precondition_passes=0)
    assert found["round_time_s"] == "--round-time: '0s' is out of range; allowed above 0 s and at most 3600 s, e.g. 60s"
    assert found["data_limit_pct"].startswith("--data-limit") and found["slope_limit_pct"].startswith("--slope-limit")
    assert found["saturation_multiple"].startswith("--multiple") and found["precondition_passes"].startswith("--passes")
    assert "--min-rounds: 5 is below the window (6 rounds)" in problems(test="iops", window=6, min_rounds=5)["min_rounds"]
    assert "--max-rounds: 3 is below the fewest rounds (5)" in problems(test="iops", max_rounds=3)["max_rounds"]
    assert problems(test="iops", round_time_s="soon")["round_time_s"].startswith("--round-time")


def test_the_tracking_point_must_be_in_the_matrix_and_latency_keeps_qd1() -> None:
    assert "keep 4k" in problems(test="iops", block_sizes=["8k"])["block_sizes"]
    assert "keep mix 0" in problems(test="iops", mixes=[100, 50])["mixes"]
    assert "QD1 T1" in problems(test="latency", queue_depth=8)["queue_depth"]
    assert "multiple of 512" in problems(test="iops", block_sizes=["4k", "1000"])["block_sizes"]


def test_the_workload_and_the_target_are_reported_with_the_tests_own_fields(tmp_path: Path) -> None:
    missing = tmp_path / "gone"  # never made: a path outside the test's own folder might exist on some machine
    with pytest.raises(WorkloadError) as refused:
        plan_pts(PtsRequest.model_validate({"test": "iops", "engine": "fiio", "round_time_s": "0s", "size_bytes": "4kk",
                                            "target": str(missing)}), check_target=True)
    found = {p.field: str(p) for p in refused.value.problems}
    assert set(found) == {"engine", "round_time_s", "size_bytes", "target"}
    assert found["engine"] == "engine (--engine): 'fiio' is not one of the choices; allowed auto, fio or portable, e.g. auto"
    assert f"'{missing}' does not exist" in found["target"]
