"""Profiling points from measured runs: their arrays=, enclosures= and controller= tags and the CPU
ssdprof records with every run.
"""

import pytest
from analysis_runs import make_run

from ssdprof.analysis.scale_up_runs import profile_points
from ssdprof.model.results import Environment, RunResult


def profiling_run(
    run_id: int,
    arrays: int,
    iops: float,
    *,
    enclosures: int | None = None,
    busy_pct: float | None = 25.0,
    rw: str = "randwrite",
    **tags: str,
) -> RunResult:
    tags = {
        "arrays": str(arrays),
        **({"enclosures": str(enclosures)} if enclosures is not None else {}),
        **tags,
    }
    run = make_run(rw=rw, iops=iops, tags=tags, run_id=run_id, cpu_busy_pct=busy_pct)
    return run.model_copy(update={"environment": Environment(cpu_count=40)})


def test_tagged_runs_become_profiling_points_with_the_cores_they_kept_busy() -> None:
    runs = [
        profiling_run(1, 6, 193_000),
        profiling_run(2, 8, 155_000, enclosures=0),
        profiling_run(3, 16, 156_600, enclosures=1, busy_pct=None),
        make_run(run_id=4),
    ]
    found = profile_points(runs, "write_iops")
    assert [(p.arrays, p.enclosures, p.iops, p.cpu_cores, p.run_ids) for p in found.points] == [
        (6, 0, pytest.approx(193_000), 10.0, [1]),
        (8, 0, pytest.approx(155_000), 10.0, [2]),
        (16, 1, pytest.approx(156_600), None, [3]),
    ]
    assert found.skipped == [4]
    assert found.label == "write IOPS of random write 4KiB"


def test_runs_without_an_arrays_tag_are_refused_with_how_to_tag_them() -> None:
    with pytest.raises(ValueError, match="ssdprof runs tag 12 arrays=6 enclosures=0"):
        profile_points([make_run(run_id=1)])


def test_a_tag_that_is_not_a_count_is_named_with_its_run() -> None:
    with pytest.raises(ValueError, match="run 5's tag arrays='six' is not a count"):
        profile_points([make_run(run_id=5, tags={"arrays": "six"})])


def test_runs_of_two_controllers_or_two_workloads_make_no_profile() -> None:
    controllers = [
        profiling_run(1, 8, 1e5, controller="a"),
        profiling_run(2, 8, 1e5, controller="b"),
    ]
    with pytest.raises(ValueError, match=r"2 controllers \(a, b\).*--tag controller=a"):
        profile_points(controllers)
    workloads = [profiling_run(1, 8, 1e5), profiling_run(2, 8, 1e5, rw="randread")]
    with pytest.raises(ValueError, match="2 workloads"):
        profile_points(workloads)


def test_only_iops_metrics_are_scaled_up() -> None:
    with pytest.raises(ValueError, match="predicts IOPS"):
        profile_points([profiling_run(1, 8, 1e5)], "bw_bytes_per_s")
