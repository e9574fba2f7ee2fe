"""Which runs become one figure: a sweep's repeats of one point, or runs pooled on request; never
runs that merely measured the same setting. Every pool says n and where its runs came from."""

from __future__ import annotations

from student_sweep import measured_again, student_runs

from ssdprof.analysis.repeats import Pool, pools, setting_label
from ssdprof.model.results import RunResult


def _sources(found: list[Pool]) -> list[str]:
    return [p.source for p in found]


def test_the_student_presets_series_measuring_4k_qd1_reads_are_not_pooled() -> None:
    runs = student_runs()
    found = pools(runs)
    assert [p.run_ids for p in found] == [[r.id] for r in runs]
    assert all(p.kind == "single" and p.n == 1 for p in found)
    assert _sources(found)[:2] == ["run 1", "run 2"]


def test_runs_of_one_setting_are_pooled_when_the_user_asks_and_say_so() -> None:
    found = pools(student_runs(), pool_same_setting=True)
    (qd1,) = [p for p in found if p.n > 1]
    assert (qd1.run_ids, qd1.kind) == ([1, 8], "pooled")
    assert qd1.source == "n = 2 runs pooled from sweep 1"
    assert len(found) == 9


def test_repeats_a_sweep_asked_for_are_pooled_with_their_sweep_named() -> None:
    first = student_runs()[0]
    repeats = [measured_again(first, run_id=20 + i, sweep_id=2, repeat=i) for i in range(3)]
    (pool,) = pools(repeats)
    assert (pool.n, pool.kind, pool.origin) == (3, "repeats", "runs 20, 21, 22")
    assert pool.source == "n = 3 repeats of sweep 2"


def test_a_sweep_measuring_a_setting_at_two_points_keeps_each_points_repeats_apart() -> None:
    # The student preset with 3 repeats: the runner measures repeat by repeat, points in order, so
    # 4 KiB QD1 reads are point 1 (access size) and point 8 (queue depth) of every repeat.
    runs = student_runs()
    again = [measured_again(run, run_id=100 + 10 * r + i, sweep_id=3, repeat=r)
             for r in range(3) for i, run in enumerate(runs)]
    found = [p for p in pools(again) if p.runs[0].workload.label == "randread 4KiB QD1 T1"]
    assert [p.run_ids for p in found] == [[100, 110, 120], [107, 117, 127]]
    assert _sources(found) == ["n = 3 repeats of sweep 3"] * 2
    assert all(p.kind == "repeats" for p in pools(again))


def test_the_same_point_from_two_sweeps_is_pooled_only_on_request() -> None:
    first = student_runs()[0]
    earlier = [measured_again(first, run_id=30 + i, sweep_id=3, repeat=i) for i in range(2)]
    later = [measured_again(first, run_id=40 + i, sweep_id=7, repeat=i) for i in range(3)]
    assert _sources(pools([*earlier, *later])) == ["n = 2 repeats of sweep 3",
                                                   "n = 3 repeats of sweep 7"]
    (pooled,) = pools([*earlier, *later], pool_same_setting=True)
    assert (pooled.n, pooled.source) == (5, "n = 5 runs pooled from sweeps 3, 7")


def test_runs_outside_any_sweep_stand_alone_unless_pooled() -> None:
    first = student_runs()[0]
    imported = [first.model_copy(update={"id": 50 + i, "sweep_id": None, "repeat": i})
                for i in range(2)]
    assert _sources(pools(imported)) == ["run 50", "run 51"]
    assert _sources(pools([*imported, first], pool_same_setting=True)) == [
        "n = 3 runs pooled from sweep 1 and runs 50, 51"]


def test_a_curves_offered_rates_are_points_of_their_own() -> None:
    first = student_runs()[0]
    curve = [measured_again(first, run_id=60 + i, sweep_id=9, rate_iops=rate)
             for i, rate in enumerate((2000, 4000, 8000, 12000, 16000, 20000))]
    found = pools(curve, pool_same_setting=True)
    assert [p.n for p in found] == [1] * 6
    assert [setting_label(p.runs[0]) for p in found][:2] == ["randread 4KiB QD1 T1 @2000 IOPS",
                                                             "randread 4KiB QD1 T1 @4000 IOPS"]


def test_a_pts_round_is_named_in_the_setting() -> None:
    tags = {"pts_test": "iops", "pts_round": "4"}
    tagged: RunResult = student_runs()[0].model_copy(update={"tags": tags})
    assert setting_label(tagged) == "randread 4KiB QD1 T1 PTS iops round 4"
