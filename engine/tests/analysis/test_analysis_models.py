"""Models against synthetic data with known parameters."""

import math

import numpy as np
import pytest
from analysis_runs import make_run

from ssdprof.analysis.model_choice import choose_log_polynomial
from ssdprof.analysis.models import check_anomaly, fit_log_polynomial, fit_queueing, leave_one_setting_out
from ssdprof.analysis.prediction import fit_series, predict_runs, series

SIZES = [4096, 16384, 131072, 1 << 20, 4 << 20]


def power_law(x: float) -> float:
    return 2e5 * (x / 4096) ** 0.6


def test_a_power_law_is_recovered_exactly_and_predicted_at_an_untested_size() -> None:
    model = fit_log_polynomial(SIZES, [power_law(x) for x in SIZES])
    # ln y = ln 2e5 + 0.6·ln(x/4096) = (ln 2e5 - 0.6·12·ln 2) + 0.6·ln 2 · log2(x)
    assert model.params == pytest.approx([math.log(2e5) - 7.2 * math.log(2), 0.6 * math.log(2), 0.0], abs=1e-9)
    assert model.predict(512 << 10).value == pytest.approx(power_law(512 << 10), rel=1e-9)
    quality = model.quality  # five sizes for three parameters: two to spare, so a weak check
    assert quality.rmse == pytest.approx(0, abs=1e-3) and quality.r2 == pytest.approx(1)
    assert quality.check == "weak" and quality.note == "weak check: 5 settings for 3 parameters"


def test_leaving_1mib_out_still_predicts_it_from_4k_128k_and_4m() -> None:
    xs = [4096, 131072, 4 << 20, 1 << 20]
    validation = leave_one_setting_out(fit_log_polynomial, xs, [power_law(x) for x in xs])
    one_mib = next(p for p in validation.points if p.x == 1 << 20)
    assert one_mib.error_pct == pytest.approx(0, abs=1e-6)
    assert validation.r2 == pytest.approx(1) and validation.mean_abs_error_pct == pytest.approx(0, abs=1e-6)


def test_the_degree_drops_to_what_the_settings_can_support() -> None:
    assert fit_log_polynomial([4096, 8192], [1.0, 2.0], degree=2).degree == 1
    with pytest.raises(ValueError, match="two or more settings"):
        fit_log_polynomial([4096, 4096], [1.0, 2.0])


def test_the_95_percent_prediction_interval_covers_about_95_percent_of_new_runs() -> None:
    rng = np.random.default_rng(7)
    xs = [x for x in SIZES for _ in range(4)]
    covered = 0
    trials = 300
    for _ in range(trials):
        model = fit_log_polynomial(xs, [power_law(x) * math.exp(rng.normal(0, 0.05)) for x in xs])
        covered += bool(model.predict(1 << 20).contains(power_law(1 << 20) * math.exp(rng.normal(0, 0.05))))
    assert 0.91 <= covered / trials <= 0.99


def test_the_queueing_fit_recovers_the_ceiling_and_the_half_saturation_depth() -> None:
    depths = [1, 2, 4, 8, 16, 32, 64, 128]
    model = fit_queueing(depths, [500_000 * n / (n + 8) for n in depths])
    assert model.x_max == pytest.approx(500_000, rel=1e-6)
    assert model.k == pytest.approx(8, rel=1e-6)
    assert model.outstanding_for_fraction(0.5) == pytest.approx(8, rel=1e-6)
    # Little's law: at QD1 the unloaded service time is (1 + K) / X_max = 18 µs.
    assert model.latency_s_at(1) == pytest.approx(18e-6, rel=1e-6)


def test_a_run_far_from_the_model_is_anomalous_and_a_typical_one_is_not() -> None:
    rng = np.random.default_rng(3)
    xs = [x for x in SIZES for _ in range(5)]
    model = fit_log_polynomial(xs, [power_law(x) * math.exp(rng.normal(0, 0.03)) for x in xs])
    assert not check_anomaly(model, 131072, power_law(131072) * 1.02).anomalous
    slow = check_anomaly(model, 131072, power_law(131072) * 0.6)
    assert slow.anomalous and slow.deviation_pct == pytest.approx(-40, abs=3)
    assert "outside the 99% prediction interval" in slow.message


def test_without_spare_runs_there_is_no_interval_and_no_anomaly_verdict() -> None:
    model = fit_log_polynomial([4096, 131072, 4 << 20], [1.0, 5.0, 9.0])
    verdict = check_anomaly(model, 1 << 20, 100.0)
    assert not verdict.anomalous and "no prediction interval" in verdict.message


def test_runs_split_into_one_block_size_series_per_numjobs() -> None:
    runs = [make_run(bs=bs, jobs=jobs, iops=1000 * jobs) for jobs in (1, 8, 16) for bs in (4096, 131072, 4 << 20)]
    found = series(runs, "block_size", "iops")
    assert sorted(s.runs[0].workload.numjobs for s in found) == [1, 8, 16]
    assert all(s.settings == 3 for s in found)


def test_queue_depth_series_use_the_queueing_model() -> None:
    runs = [make_run(qd=n, iops=300_000 * n / (n + 4)) for n in (1, 2, 4, 8, 16, 32)]
    chosen = fit_series(series(runs, "outstanding", "iops")[0])
    assert chosen.model.family.startswith("queueing")
    assert chosen.model.params[1] == pytest.approx(4, rel=1e-4)
    assert chosen.validation.mean_abs_error_pct == pytest.approx(0, abs=1e-3)


def test_predicting_from_runs_leaves_the_checked_run_out_of_the_fit() -> None:
    history = [make_run(bs=bs, iops=power_law(bs) / bs * f, run_id=i * 10 + j)
               for i, bs in enumerate(SIZES) for j, f in enumerate((0.98, 1.0, 1.02))]
    broken = make_run(bs=131072, iops=power_law(131072) / 131072 * 0.5, run_id=999)
    (report,) = predict_runs([*history, broken], "bw_bytes_per_s", at=[2 << 20], check=broken)
    assert broken not in report.series.runs
    assert report.anomaly is not None and report.anomaly.anomalous
    assert report.predictions[0].value == pytest.approx(power_law(2 << 20), rel=0.02)


THREE_SIZES = [4096, 131072, 4 << 20]
BENT = [40e6, 900e6, 1000e6]  # bandwidth that saturates: no power law, no line through all three


def test_a_degree_2_polynomial_through_three_sizes_reports_no_r2_and_says_why() -> None:
    quality = fit_log_polynomial(THREE_SIZES, BENT, degree=2).quality
    assert (quality.r2, quality.adjusted_r2, quality.rmse) == (None, None, None)
    assert quality.check == "none" and quality.parameters == 3 and quality.settings == 3
    assert quality.note == "exact fit: no check possible (3 parameters for 3 settings)"
    assert quality.describe() == ("over 3 runs at 3 settings: exact fit: no check possible "
                                  "(3 parameters for 3 settings)")


def test_repeats_do_not_make_an_exact_fit_checkable() -> None:
    xs = [x for x in THREE_SIZES for _ in (1, 2)]
    quality = fit_log_polynomial(xs, [y * f for y in BENT for f in (0.99, 1.01)]).quality
    assert quality.runs == 6 and quality.check == "none" and quality.r2 is None


def test_three_sizes_get_a_degree_1_model_that_the_third_size_checks_weakly() -> None:
    chosen = choose_log_polynomial(THREE_SIZES, BENT, max_degree=2)
    assert chosen.model.degree == 1
    assert "3 settings allow degree 1 at most" in chosen.reason
    quality = chosen.model.quality
    assert quality.check == "weak" and quality.r2 is not None and quality.r2 < 1
    assert quality.adjusted_r2 is not None and quality.adjusted_r2 < quality.r2
    # each size is predicted by the line through the other two, at the same degree
    assert all(p.predicted is not None for p in chosen.validation.points)


def test_the_degree_with_the_lowest_leave_one_out_error_is_kept() -> None:
    sizes = [4096, 16384, 65536, 262144, 1 << 20, 4 << 20, 16 << 20]
    bent = [math.exp(10 + 0.5 * math.log2(x) - 0.05 * math.log2(x) ** 2) for x in sizes]
    assert choose_log_polynomial(sizes, bent, max_degree=3).model.degree == 2
    straight = [power_law(x) for x in sizes]
    # a tie goes to the lower degree
    assert choose_log_polynomial(sizes, straight, max_degree=3).model.degree == 1


def test_two_sizes_fit_a_line_exactly_with_nothing_to_check_it() -> None:
    chosen = choose_log_polynomial([4096, 8192], [1.0, 2.0])
    assert chosen.model.quality.check == "none" and chosen.validation.mean_abs_error_pct is None
    assert chosen.reason.startswith("two settings")


def test_the_cli_description_puts_the_leave_one_out_error_before_the_fit() -> None:
    runs = [make_run(bs=bs, iops=y / bs, run_id=i + 1)
            for i, (bs, y) in enumerate(zip(THREE_SIZES, BENT, strict=True))]
    (report,) = predict_runs(runs, "bw_bytes_per_s")
    lines = report.describe(1e6, "MB/s").splitlines()
    assert "bandwidth" in lines[0] and "bw_bytes_per_s" not in lines[0]
    assert lines[1].startswith("leaving each setting out (on setting means): mean |error|")
    assert lines[-1].startswith("fit over 3 runs at 3 settings: R² ") and "weak check" in lines[-1]
    as_json = report.as_dict()
    assert list(as_json).index("loo_mean_abs_error_pct") < list(as_json).index("fit")
    assert as_json["metric_label"] == "bandwidth" and as_json["fit"]["check"] == "weak"
