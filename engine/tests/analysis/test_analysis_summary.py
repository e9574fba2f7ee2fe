"""The student's summary on the real student sweep (src/test/student-runs.json, fio 3.33 on this
project's CI machine) and on small runs built to show one rule each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from analysis_runs import make_run

from ssdprof.analysis.spec_choice import pick_spec
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.summary import StudentSummary, summarize
from ssdprof.model.results import Environment, RunResult, ValidityWarning

ROOT = Path(__file__).resolve().parents[3]
EVO = "samsung-970-evo-plus-1tb"


@pytest.fixture(scope="module")
def student() -> dict[int, RunResult]:
    sample = json.loads((ROOT / "src" / "test" / "student-runs.json").read_text())
    return {raw["id"]: RunResult.model_validate(raw) for raw in sample["runs"]}


@pytest.fixture(scope="module")
def library() -> SpecLibrary:
    return SpecLibrary.load([bundled_spec_dir()])


def summary_of(
    runs: list[RunResult], library: SpecLibrary, spec_id: str | None = None
) -> StudentSummary:
    spec, pick = pick_spec(library, runs[0].environment, spec_id, None)
    return summarize(runs, spec, pick)


def test_the_glance_table_shows_each_cells_own_runs_figures_and_leaves_unmeasured_cells_empty(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    table = {row.label: row for row in summary_of(list(student.values()), library).table}
    assert list(table) == ["RND 4KiB QD100 T1", "RND 4KiB QD1 T1"]  # deep first, as CrystalDiskMark
    deep, qd1 = table["RND 4KiB QD100 T1"], table["RND 4KiB QD1 T1"]
    assert (
        deep.read is not None and deep.write is None
    )  # the sweep wrote at QD1 only: absent, not 0
    run = student[10]
    assert (deep.read.iops, deep.read.bw_bytes_per_s, deep.read.lat_ns_mean) == (
        run.read.iops,
        run.read.bw_bytes_per_s,
        run.read.lat_ns.mean,
    )
    assert qd1.read is not None and qd1.write is not None
    # 4 KiB QD1 reads were measured three times apart (two randread series, randrw at 100 %): one
    # stands, the others are named, none is averaged in
    assert qd1.read.run_ids == [1] and qd1.read.separate_run_ids == [4, 8] and qd1.read.n == 1
    assert qd1.read.iops == student[1].read.iops
    assert qd1.write.run_ids == [7] and qd1.write.iops == student[7].write.iops
    assert qd1.write.lat_ns_mean == student[7].write.lat_ns.mean


def test_each_factor_is_told_from_its_own_series_with_the_measured_ratios(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    found = {f.factor: f for f in summary_of(list(student.values()), library).factors}
    size, mix, depth = found["access_size"], found["read_pct"], found["queue_depth"]
    assert size.run_ids == [1, 2, 3] and mix.run_ids == [4, 5, 6, 7] and depth.run_ids == [8, 9, 10]
    fell = student[1].read.iops / student[3].read.iops
    rose = student[3].read.bw_bytes_per_s / student[1].read.bw_bytes_per_s
    assert size.sentence.startswith("From 4KiB to 128KiB (randread QD1 T1), IOPS fell ")
    assert (
        f"fell {fell:.1f}× ({student[1].read.iops:,.0f} → {student[3].read.iops:,.0f})"
        in size.sentence
    )
    assert f"while bandwidth rose {rose:.1f}×" in size.sentence
    deeper = student[10].read.iops / student[8].read.iops
    assert f"From QD1 to QD100 (randread 4KiB T1), IOPS rose {deeper:.1f}×" in depth.sentence
    assert (depth.iops_from, depth.iops_to) == (student[8].read.iops, student[10].read.iops)
    assert mix.sentence.startswith("From 100 % reads to 0 % reads (random 4KiB QD1 T1)")
    drop = 1 - student[7].write.iops / student[4].read.iops
    assert f"IOPS fell {drop * 100:.0f} %" in mix.sentence


def test_the_caveats_say_what_the_student_sweep_cannot_tell(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    caveats = {c.code: c for c in summary_of(list(student.values()), library).caveats}
    assert set(caveats) == {
        "measurement_limit",
        "short_runs",
        "one_repeat",
        "separate_measurements",
        "device_unknown",
    }
    assert caveats["measurement_limit"].run_ids == [2, 3]  # the CPU was saturated there
    assert "Every point measured for 1 s" in caveats["short_runs"].message
    assert "8 of 9 settings ran once (n = 1)" in caveats["one_repeat"].message  # 4 KiB QD1 reads: 3 separate runs
    assert caveats["separate_measurements"].run_ids == [1, 8]
    assert "12 % apart" in caveats["separate_measurements"].message  # 18,632 vs 20,907 IOPS
    assert "disk vda on vm" in caveats["device_unknown"].message


def test_without_a_spec_sheet_the_summary_says_how_to_choose_one(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    verdict = summary_of(list(student.values()), library).spec
    assert verdict.comparison is None and verdict.pick.how == "none"
    assert (
        "not recorded (a virtual disk?)" in verdict.sentence
        and "choose a spec sheet" in verdict.sentence
    )


def test_the_best_figure_against_a_chosen_sheet_is_the_highest_fair_percentage_with_its_caveat(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    verdict = summary_of(list(student.values()), library, EVO).spec
    assert verdict.comparison is not None and verdict.run_ids == [
        8
    ]  # 20,907 IOPS beats run 1's 18,632
    assert verdict.comparison.pct_of_spec == pytest.approx(100 * student[8].read.iops / 19_000)
    assert verdict.fair == 2  # runs 1 and 8 against the QD1 rating; QD10/QD100 differ from QD32
    assert "reached 110 % of the rated rand_read IOPS" in verdict.sentence
    assert "only where a run was measured the way the figure was rated" in verdict.sentence


def test_the_best_figures_name_their_runs(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    best = {b.quantity: b for b in summary_of(list(student.values()), library).best}
    assert best["iops"].run_ids == [10] and best["iops"].value == student[10].read.iops
    assert (
        best["bandwidth"].run_ids == [3]
        and best["bandwidth"].value == student[3].read.bw_bytes_per_s
    )
    assert best["latency"].run_ids == [4]


def test_sequential_rows_come_first_at_1mib_and_128kib_deep_then_qd1(library: SpecLibrary) -> None:
    runs = [
        make_run(rw=rw, bs=bs, qd=qd, iops=1000.0 * qd, lat_ns=50_000.0, run_id=i)
        for i, (rw, bs, qd) in enumerate(
            [
                ("read", 1 << 20, 8),
                ("read", 1 << 20, 1),
                ("write", 1 << 20, 8),
                ("read", 128 << 10, 32),
                ("randread", 4096, 32),
                ("randwrite", 4096, 1),
                ("read", 4096, 1),
            ],
            start=1,
        )
    ]
    rows = summary_of(runs, library).table
    assert [r.label for r in rows] == [
        "SEQ 1MiB QD8 T1",
        "SEQ 1MiB QD1 T1",
        "SEQ 128KiB QD32 T1",
        "RND 4KiB QD32 T1",
        "RND 4KiB QD1 T1",
    ]
    assert rows[0].write is not None and rows[0].write.bw_bytes_per_s == 8000.0 * (1 << 20)
    assert rows[1].write is None and rows[3].write is None and rows[4].read is None


def test_repeats_are_averaged_and_load_curve_points_are_left_out(library: SpecLibrary) -> None:
    repeats = [
        make_run(iops=iops, lat_ns=90_000.0, run_id=i).model_copy(
            update={"sweep_id": 5, "repeat": i}
        )
        for i, iops in enumerate([1000.0, 1200.0, 1400.0])
    ]
    paced = make_run(iops=500.0, lat_ns=60_000.0, run_id=9)
    paced = paced.model_copy(
        update={"workload": paced.workload.model_copy(update={"rate_iops": 500})}
    )
    found = summary_of([*repeats, paced], library)
    (row,) = found.table
    assert row.read is not None and row.read.n == 3 and row.read.iops == 1200.0
    assert found.runs == 3
    assert {c.code for c in found.caveats} >= {"offered_rate"} and "one_repeat" not in {
        c.code for c in found.caveats
    }


def test_a_cache_answering_is_the_first_caveat(library: SpecLibrary) -> None:
    warning = ValidityWarning(
        code="cache_suspected", message="median read latency 2.0 µs: a cache is answering"
    )
    run = make_run(run_id=4).model_copy(
        update={
            "warnings": [warning],
            "environment": Environment(device_model="Samsung SSD 970 EVO Plus 1TB"),
        }
    )
    first = summary_of([run], library).caveats[0]
    assert first.code == "cache_suspected" and first.run_ids == [4] and "2.0 µs" in first.message


def test_a_host_capped_outside_itself_is_a_caveat_of_its_own_not_the_measuring_machines(
    student: dict[int, RunResult], library: SpecLibrary
) -> None:
    capped = ValidityWarning(code="capped_outside_host", concerns=["hosts.c1"],
                             message="c1: capped by something outside this host (network path or QoS) at 25.1 MB/s")
    runs = [r.model_copy(update={"warnings": [*r.warnings, capped]}) if r.id == 5 else r for r in student.values()]
    caveats = {c.code: c for c in summary_of(runs, library).caveats}
    assert caveats["capped_outside"].run_ids == [5]
    assert "the path's, not the drive's" in caveats["capped_outside"].message and "25.1 MB/s" in caveats["capped_outside"].message
    assert 5 not in caveats["measurement_limit"].run_ids


def _separate_runs(qd: int, rates: list[float], first_id: int) -> list[RunResult]:
    """Runs of one setting measured separately (each its own sweep, as thirty separate sweeps are)."""
    return [make_run(qd=qd, iops=iops, lat_ns=1e9 * qd / iops, run_id=first_id + i).model_copy(
        update={"sweep_id": first_id + i}) for i, iops in enumerate(rates)]


def test_a_change_within_the_runs_spread_is_said_to_be_no_measured_change(library: SpecLibrary) -> None:
    # pool off: each setting's first run stands for it (10,000 → 12,000 IOPS reads as +20 %), but thirty
    # runs of each overlap; the sentence says so with their intervals
    shallow = _separate_runs(10, [10_000, 13_500, 9_000, 12_800, 11_000, 12_300], 100)
    deep = _separate_runs(100, [12_000, 9_500, 13_000, 10_200, 11_900, 12_400], 200)
    found = summary_of([*shallow, *deep], library)
    (finding,) = [f for f in found.factors if f.factor == "queue_depth"]
    assert "IOPS rose 20 % between the runs shown (10,000 → 12,000), within the run-to-run spread" in finding.sentence
    assert "(n = 6) vs" in finding.sentence and "not a measured change" in finding.sentence
    cell = found.table[0].read
    assert cell is not None and cell.all_runs is not None and cell.all_runs.n == 6
    assert "all 6 runs of the setting give" in cell.all_runs.sentence
    separate = [c for c in found.caveats if c.code == "separate_measurements"]
    assert separate and "6 runs:" in separate[0].message and "Pool runs of one setting" in separate[0].message
    assert "one_repeat" not in {c.code for c in found.caveats}, "no setting ran once"


def test_a_change_beyond_the_runs_spread_is_a_change(library: SpecLibrary) -> None:
    shallow = _separate_runs(1, [10_000, 10_100, 9_900], 100)
    deep = _separate_runs(32, [40_000, 40_500, 39_800], 200)
    (finding,) = [f for f in summary_of([*shallow, *deep], library).factors if f.factor == "queue_depth"]
    assert "IOPS rose 4.0× (10,000 → 40,000)" in finding.sentence and "spread" not in finding.sentence


def test_a_factor_read_from_another_run_than_the_key_figures_names_both(student: dict[int, RunResult],
                                                                          library: SpecLibrary) -> None:
    found = summary_of(list(student.values()), library)
    (depth,) = [f for f in found.factors if f.factor == "queue_depth"]
    cell = next(r.read for r in found.table if r.label == "RND 4KiB QD1 T1")
    assert cell is not None and cell.run_ids == [1]
    assert (f"QD1 here is run 8 ({student[8].read.iops:,.0f} IOPS); the key figures show run 1 of the same "
            f"setting ({student[1].read.iops:,.0f} IOPS") in depth.sentence


def test_the_cpu_caveat_gives_every_runs_figure_not_the_first(library: SpecLibrary) -> None:
    busy = [make_run(qd=qd, iops=1000.0 * qd, run_id=qd, cpu_busy_pct=pct).model_copy(update={"warnings": [
        ValidityWarning(code="cpu_saturated", message=f"the CPU was {pct:.0f} % busy: the result may be CPU-bound")]})
            for qd, pct in ((1, 90), (2, 93), (4, 92), (8, 96))]
    (limit,) = [c for c in summary_of(busy, library).caveats if c.code == "measurement_limit"]
    assert "the CPU was 90 to 96 % busy (run 1: 90 %, run 2: 93 %, run 4: 92 %, run 8: 96 %)" in limit.message
