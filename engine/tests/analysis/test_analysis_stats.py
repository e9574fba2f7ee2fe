"""Statistics against values computed independently: t tables, a textbook Welch example, hand sums."""

import math

import pytest
from analysis_runs import make_run

from ssdprof.analysis.stats import compare_groups, summarise_repeats
from ssdprof.analysis.student_t import t_quantile
from ssdprof.analysis.welch import effect_size_label, mean_ci, welch_t_test
from ssdprof.model.results import RunResult

# Welch's t-test example 1 (Wikipedia, "Welch's t-test"): t = -2.46, df = 25.0, p = 0.021 for A1 - A2.
A1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4]
A2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4]


@pytest.mark.parametrize(("probability", "df", "table"), [(0.975, 9, 2.262), (0.975, 1, 12.706), (0.975, 29, 2.045),
                                                          (0.95, 4, 2.132), (0.995, 9, 3.250)])
def test_t_quantiles_match_the_printed_table(probability: float, df: int, table: float) -> None:
    assert t_quantile(probability, df) == pytest.approx(table, abs=5e-4)


def test_ci_of_one_to_ten_is_the_mean_plus_minus_t_times_the_standard_error() -> None:
    ci = mean_ci(range(1, 11))
    sd = math.sqrt(sum((x - 5.5) ** 2 for x in range(1, 11)) / 9)  # 3.0277
    assert ci.mean == 5.5
    assert ci.stddev == pytest.approx(sd)
    assert ci.half_width == pytest.approx(2.262157 * sd / math.sqrt(10), rel=1e-6)
    assert (ci.low, ci.high) == pytest.approx((5.5 - 2.16585, 5.5 + 2.16585), abs=1e-4)


def test_a_single_run_has_a_mean_but_no_interval() -> None:
    ci = mean_ci([42.0])
    assert (ci.n, ci.mean, ci.half_width, ci.low) == (1, 42.0, None, None)
    assert "no interval" in ci.format()


def test_welch_reproduces_the_textbook_example() -> None:
    result = welch_t_test(A2, A1)  # B - A = A1 - A2
    assert result.t == pytest.approx(-2.46, abs=0.005)
    assert result.df == pytest.approx(25.0, abs=0.05)
    assert result.p_value == pytest.approx(0.021, abs=0.0005)
    assert result.significant
    assert "significant at 5%" in result.verdict and "lower" in result.verdict


def test_welch_is_symmetric_in_its_groups() -> None:
    forward, backward = welch_t_test(A1, A2), welch_t_test(A2, A1)
    assert forward.t == pytest.approx(-backward.t)
    assert forward.p_value == pytest.approx(backward.p_value)


def test_overlapping_noisy_groups_are_called_not_significant() -> None:
    result = welch_t_test([100, 110, 90, 105, 95], [101, 112, 89, 104, 97])
    assert not result.significant
    assert "may be noise" in result.verdict


def test_the_difference_interval_excludes_zero_exactly_when_significant() -> None:
    result = welch_t_test(A1, A2)
    assert result.diff_low is not None and result.diff_high is not None
    assert (result.diff_low > 0 or result.diff_high < 0) == result.significant


def test_hedges_g_of_groups_one_pooled_sd_apart_is_one_times_the_small_sample_correction() -> None:
    # Both groups have sd 1 (values m-1, m, m+1); means differ by 1, so Cohen's d = 1.
    result = welch_t_test([9, 10, 11], [10, 11, 12])
    assert result.hedges_g == pytest.approx(1 - 3 / (4 * 6 - 9))
    assert effect_size_label(result.hedges_g or 0) == "large"


def test_constant_groups_are_exactly_equal_or_exactly_different() -> None:
    assert welch_t_test([5, 5, 5], [5, 5, 5]).p_value == 1.0
    different = welch_t_test([5, 5, 5], [6, 6, 6])
    assert different.p_value == 0.0 and different.significant


def test_one_repeat_per_side_gives_a_direction_but_no_test() -> None:
    result = welch_t_test([100], [150])
    assert result.p_value is None and not result.significant
    assert "50.0 % higher" in result.verdict and "at least 2 repeats" in result.verdict


def _repeat(run: RunResult, sweep_id: int, repeat: int) -> RunResult:
    return run.model_copy(update={"sweep_id": sweep_id, "repeat": repeat})


def test_repeats_of_one_setting_are_summarised_together_and_say_where_they_came_from() -> None:
    runs = [_repeat(make_run(qd=1, iops=v, run_id=i), 1, i - 1)
            for i, v in enumerate([100, 110, 90], 1)]
    runs += [_repeat(make_run(qd=32, iops=v, run_id=i), 1, i - 4)
             for i, v in enumerate([900, 1000], 4)]
    groups = summarise_repeats(runs, "iops")
    assert [(g.workload.queue_depth, g.ci.n, g.ci.mean) for g in groups] == [(1, 3, 100.0), (32, 2, 950.0)]
    assert groups[0].run_ids == (1, 2, 3)
    assert [g.source for g in groups] == ["n = 3 repeats of sweep 1", "n = 2 repeats of sweep 1"]
    assert groups[0].as_dict()["source"] == "n = 3 repeats of sweep 1"


def test_runs_of_one_setting_from_two_sweeps_are_summarised_apart_unless_pooled() -> None:
    runs = [_repeat(make_run(iops=v, run_id=i), sweep, 0)
            for i, (v, sweep) in enumerate([(100, 3), (140, 7)], 1)]
    summaries = summarise_repeats(runs, "iops")
    assert [(g.ci.n, g.source) for g in summaries] == [(1, "run 1"), (1, "run 2")]
    (pooled,) = summarise_repeats(runs, "iops", pool_same_setting=True)
    assert (pooled.ci.n, pooled.ci.mean) == (2, 120.0)
    assert pooled.source == "n = 2 runs pooled from sweeps 3, 7"


def test_sata_and_pcie_groups_are_compared_setting_by_setting() -> None:
    sata = [make_run(qd=32, iops=v, tags={"interface": "SATA"}, device_model="A") for v in (90e3, 92e3, 91e3)]
    sata += [make_run(qd=1, iops=v, tags={"interface": "SATA"}, device_model="A") for v in (9e3, 9.5e3, 9.2e3)]
    pcie = [make_run(qd=32, iops=v, tags={"interface": "PCIe"}, device_model="B") for v in (400e3, 410e3, 395e3)]
    found = compare_groups(sata, pcie, "iops")
    assert len(found) == 1 and found[0].same_setting
    assert found[0].result.significant and found[0].result.diff_pct == pytest.approx(100 * (401666.67 / 91000 - 1), rel=1e-4)


def test_groups_taken_in_different_drive_states_are_said_to_differ() -> None:
    from ssdprof.analysis.stats import compare_groups
    from ssdprof.model.drive_state import DriveState, PreconditionRecord
    from ssdprof.model.results import DirectionStats, EngineInfo, RunResult
    from ssdprof.model.workload import Workload

    fresh = DriveState(target_identity="device:X:1", ledger_since="purge", bytes_written_since_purge=0, region_bytes=1 << 30)
    steady = fresh.model_copy(update={"steady_state": "reached", "bytes_written_since_purge": 8 << 30,
                                      "preconditioning": PreconditionRecord(region_bytes=1 << 30, passes=2, bytes_written=2 << 30,
                                                                            seconds=10, at="2026-01-01")})

    def run(iops: float, state: DriveState | None) -> RunResult:
        return RunResult(engine=EngineInfo(name="fio"), workload=Workload(pattern="randwrite", read_pct=0),
                         write=DirectionStats(io_count=1000, iops=iops), drive_state=state)

    a = [run(90000, fresh), run(91000, fresh)]
    b = [run(30000, steady), run(31000, steady)]
    found = compare_groups(a, b, "iops")[0]
    assert found.drive_state_note.startswith("different drive states: A fresh, B steady-state")
    assert "but different drive states" in found.result.verdict
    assert compare_groups(a, a, "iops")[0].drive_state_note == ""
    assert compare_groups([run(1, None)], [run(2, None)], "iops")[0].drive_state_note == ""


def test_the_median_difference_of_an_even_count_of_settings_is_the_mean_of_the_middle_two() -> None:
    from analysis_runs import make_run

    from ssdprof.analysis.stats import comparison_summary

    a = [make_run(bs=bs, iops=iops, run_id=i) for i, (bs, iops) in enumerate(((4096, 1000.0), (8192, 1000.0)), 1)]
    b = [make_run(bs=bs, iops=iops, run_id=i) for i, (bs, iops) in enumerate(((4096, 990.0), (8192, 1050.0)), 3)]
    found = compare_groups(a, b, "iops")
    assert sorted(round(c.result.diff_pct or 0, 6) for c in found) == [-1.0, 5.0]
    assert comparison_summary(found, ("SATA", "PCIe")).endswith("median difference +2.0 %")  # was +5.0: the upper middle
