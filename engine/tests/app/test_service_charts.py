"""The charts' numbers over the RPC (runs.charts, runs.bars, runs.percentiles), on the real student sweep
stored as the app stores it; and the renderer's canned answers, which must be these very answers."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import FIO_DATA
from pydantic import BaseModel

from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.welch import mean_ci
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.histogram import merge, percentile
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.interchange import import_fio_output

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "gen_chart_fixtures.py"


def fixtures_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_chart_fixtures", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Sweep:
    def __init__(self, service: EngineService, runs: list[RunResult]):
        self.service = service
        self.runs = runs

    def ids(self, pattern: str | None = None) -> list[int]:
        return [r.id for r in self.runs if r.id is not None and (pattern is None or r.workload.pattern.value == pattern)]

    def call(self, method: str, params: dict[str, Any]) -> Any:
        reply = dict(handle_message(self.service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        assert "error" not in reply, reply["error"]
        return reply["result"]


@pytest.fixture
def sweep(tmp_path: Path) -> Iterator[Sweep]:
    def ignore(method: str, payload: BaseModel) -> None:
        pass

    service = EngineService(tmp_path / "results.sqlite3", ignore, default_dir=tmp_path, spec_folders=(bundled_spec_dir(),))
    yield Sweep(service, fixtures_script().stored_student_runs(service))
    service.close()


def test_the_renderers_canned_chart_answers_are_the_engines_own() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_curves_hold_runs_that_differ_only_in_the_varied_factor(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids()})
    by_size, separately = charts["iops_by_size"]
    assert by_size["label"] == "randread QD1 T1"
    # 4 KiB QD1 reads: measured by the access-size series (run 1) and the queue-depth one (run 8);
    # the line is the access-size series, the other a point of its own, never joined by a vertical stroke
    assert [(p["x"], p["run_ids"]) for p in by_size["points"]] == [(4096, [1]), (16384, [2]), (131072, [3])]
    assert separately["label"] == "randread QD1 T1 (run 8, measured separately)"
    assert [(p["x"], p["run_ids"]) for p in separately["points"]] == [(4096, [8])]
    assert [s["label"] for s in charts["lat_ns_by_queue_depth"]] == [
        "randread 4KiB T1 mean", "randread 4KiB T1 (run 1, measured separately) mean",
        "randread 4KiB T1 p99", "randread 4KiB T1 (run 1, measured separately) p99"]
    mix, *others = charts["iops_by_read_pct"]
    assert [(p["x"], p["run_ids"]) for p in mix["points"]] == [(0, [7]), (50, [6]), (70, [5]), (100, [4])]
    assert [[p["run_ids"] for p in s["points"]] for s in others] == [[[8]], [[1]]]


def test_the_student_presets_series_measuring_one_point_are_not_averaged_as_repeats(
        sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids()})
    drawn = ("iops_by_size", "lat_ns_by_queue_depth", "lat_ns_by_iops", "iops_by_read_pct")
    every_point = [p for key in drawn for s in charts[key] for p in s["points"]]
    assert {(p["n"], p["half_width"]) for p in every_point} == {(1, None)}
    assert {p["source"] for p in every_point if p["x"] == 4096} == {"run 1", "run 8"}
    assert charts["repeats_shown"] is False and charts["pooled_same_setting"] is False
    assert [(p["label"], p["source"], p["kind"]) for p in charts["points"][:2]] == [
        ("randread 4KiB QD1 T1 (run 1)", "run 1", "single"),
        ("randread 16KiB QD1 T1", "run 2", "single")]


def test_runs_of_one_setting_pooled_on_request_say_n_and_their_sweep(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids(), "pool_same_setting": True})
    at_4k = charts["iops_by_size"][0]["points"][0]
    runs = [r for r in sweep.runs if r.workload.label == "randread 4KiB QD1 T1"]
    expected = mean_ci([r.read.iops for r in runs])
    assert (at_4k["n"], at_4k["run_ids"]) == (2, [1, 8])
    assert at_4k["source"] == "n = 2 runs pooled from sweep 1"
    assert at_4k["y"] == pytest.approx(expected.mean)
    assert at_4k["half_width"] == pytest.approx(expected.half_width)
    (pooled,) = [p for p in charts["points"] if p["kind"] == "pooled"]
    assert (pooled["label"], pooled["source"], pooled["iops"]["n"]) == (
        "randread 4KiB QD1 T1", "n = 2 runs pooled from sweep 1", 2)
    assert charts["repeats_shown"] is True and charts["pooled_same_setting"] is True


def test_a_repeated_points_interval_is_the_students_t_interval_of_its_runs(sweep: Sweep) -> None:
    repeats = fixtures_script().stored_repeats(sweep.service, sweep.runs[0], 3)
    charts = sweep.call("runs.charts", {"run_ids": [*repeats, sweep.ids()[1]]})
    at_4k = charts["iops_by_size"][0]["points"][0]
    runs = [r for r in map(sweep.service.store.run, repeats) if r is not None]
    expected = mean_ci([r.read.iops for r in runs])
    assert (at_4k["n"], at_4k["source"]) == (expected.n, "n = 3 repeats of sweep 2")
    assert at_4k["y"] == pytest.approx(expected.mean) and at_4k["half_width"] == pytest.approx(expected.half_width)
    bar = charts["repeat_iops"]["series"][0]["points"][charts["repeat_iops"]["categories"].index("randread 4KiB QD1 T1")]
    assert (bar["y"], bar["half_width"], bar["n"]) == (at_4k["y"], at_4k["half_width"], 3)
    assert bar["source"] == at_4k["source"]
    single = charts["iops_by_size"][0]["points"][1]
    assert single["n"] == 1 and single["half_width"] is None and single["source"] == "run 2"


def test_a_curves_offered_rates_are_separate_settings_in_the_results(sweep: Sweep) -> None:
    store, first = sweep.service.store, sweep.runs[0]
    rates = [2000, 4000, 8000, 12000, 16000, 20000]
    workloads = [first.workload.model_copy(update={"rate_iops": rate}) for rate in rates]
    curve = store.create_sweep(SweepSpec(name="curve", points=workloads))
    points = [first.model_copy(update={"sweep_id": curve, "workload": w}) for w in workloads]
    ids = [store.add_run(run, point_index=i).id or 0 for i, run in enumerate(points)]
    charts = sweep.call("runs.charts", {"run_ids": ids})
    assert [(p["label"], p["source"]) for p in charts["points"]] == [
        (f"randread 4KiB QD1 T1 @{rate} IOPS", f"run {run_id}")
        for rate, run_id in zip(rates, ids, strict=True)]
    assert charts["repeats_shown"] is False
    pooled = sweep.call("runs.charts", {"run_ids": ids, "pool_same_setting": True})
    assert [p["kind"] for p in pooled["points"]] == ["single"] * len(rates)


def test_latency_arrives_in_ns_as_the_mean_of_the_repeats(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids("randread")})
    qd100 = next(r for r in sweep.runs if r.workload.queue_depth == 100)
    mean_line = charts["lat_ns_by_queue_depth"][0]
    assert mean_line["points"][-1]["y"] == pytest.approx(qd100.read.lat_ns.mean)
    p99_9 = next(s for s in charts["lat_ns_by_iops"] if s["label"].endswith("p99.9"))
    assert (p99_9["points"][-1]["x"], p99_9["points"][-1]["y"]) == (pytest.approx(qd100.read.iops), qd100.read.lat_ns.p99_9)


def test_spec_figures_are_drawn_only_where_the_engine_judges_them_fair(sweep: Sweep) -> None:
    spec = "samsung-970-evo-plus-1tb"
    shallow = sweep.call("runs.charts", {"run_ids": sweep.ids("randread"), "spec_id": spec})
    references = [s for s in shallow["iops_by_size"] if s["label"].startswith("spec:")]
    # the student runs reach QD100, not the rated QD32 (more than twice as deep): only the QD1 figure
    assert [s["label"] for s in references] == ["spec: 970 EVO Plus 1TB rand read QD1"]
    assert references[0]["points"] == [{"x": 4096, "y": 19000, "half_width": None, "n": 1,
                                        "run_ids": [], "source": "spec sheet"}]
    writes = sweep.call("runs.charts", {"run_ids": sweep.ids("randrw")[-1:], "spec_id": spec})
    assert not [s for s in writes["iops_by_size"] if s["label"].startswith("spec:")]


def test_a_spec_figure_at_a_deep_queue_matches_runs_within_a_factor_of_two(sweep: Sweep) -> None:
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.report.series import spec_points

    deep = [r.model_copy(update={"engine": r.engine.model_copy(update={"effective_queue_depth": 64})})
            for r in sweep.runs if r.workload.pattern.value == "randread"]
    spec = SpecLibrary.load([bundled_spec_dir()]).get("samsung-970-evo-plus-1tb")
    assert [s.label for s in spec_points(spec, deep)] == ["spec: 970 EVO Plus 1TB rand read QD32"]


def test_earlier_runs_get_their_own_series_and_bars(sweep: Sweep) -> None:
    ids = sweep.ids()
    charts = sweep.call("runs.charts", {"run_ids": ids[7:], "compare_with": ids[:3]})
    assert [s["label"] for s in charts["iops_by_size"]] == ["randread QD1 T1 (earlier)"]
    assert [s["label"] for s in charts["repeat_iops"]["series"]] == ["earlier runs", "these runs"]
    assert charts["repeat_iops"]["categories"][:3] == ["randread 4KiB QD1 T1", "randread 4KiB QD10 T1", "randread 4KiB QD100 T1"]
    assert charts["repeats_shown"] is True
    assert [p["run_ids"] for p in charts["points"]] == [[ids[7]], [ids[8]], [ids[9]]]


def test_bars_per_group_pool_a_groups_runs_of_one_setting_only_on_request(sweep: Sweep) -> None:
    first, second = sweep.ids()[0], sweep.ids()[7]
    groups = [{"label": "A", "run_ids": [first, second]}, {"label": "B", "run_ids": [first]}]
    apart = sweep.call("runs.bars", {"groups": groups, "metric": "lat_ns_mean"})
    assert apart["categories"] == ["randread 4KiB QD1 T1 (run 1)", "randread 4KiB QD1 T1 (run 8)",
                                   "randread 4KiB QD1 T1"]
    assert [[p["source"] for p in s["points"]] for s in apart["series"]] == [
        ["run 1", "run 8", ""], ["", "", "run 1"]]
    bars = sweep.call("runs.bars", {"groups": groups, "metric": "lat_ns_mean",
                                    "pool_same_setting": True})
    assert bars["categories"] == ["randread 4KiB QD1 T1"]
    a, b = (s["points"][0] for s in bars["series"])
    expected = mean_ci([r.read.lat_ns.mean or 0.0 for r in sweep.runs if r.id in (first, second)])
    assert (a["y"], a["half_width"], a["n"]) == (pytest.approx(expected.mean), pytest.approx(expected.half_width), 2)
    assert a["source"] == "n = 2 runs pooled from sweep 1"
    assert b["n"] == 1 and b["half_width"] is None and b["source"] == "run 1"


def test_the_percentile_curve_is_the_cumulative_share_of_the_bins(sweep: Sweep) -> None:
    full = next(r for r in sweep.runs if r.read.lat_bins_ns)
    curve = sweep.call("runs.percentiles", {"run_id": full.id})
    reads = next(d["points"] for d in curve["by_direction"] if d["direction"] == "read")
    assert curve["label"] == full.workload.label
    shares = [p["percentile"] for p in reads]
    assert shares == sorted(shares) and shares[-1] == 100
    for pct in ("50", "99", "99.9"):  # fio's rule: the first bucket whose share reaches p
        first = next(p["lat_ns"] for p in reads if p["percentile"] >= float(pct))
        assert first == percentile(full.read.lat_bins_ns, Fraction(pct))


def test_a_run_of_one_direction_has_one_percentile_curve(tmp_path: Path) -> None:
    service = EngineService(tmp_path / "results.sqlite3", lambda *_: None, default_dir=tmp_path)
    run = service.store.add_run(import_fio_output(FIO_DATA / "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")[0])
    curve = Sweep(service, [run]).call("runs.percentiles", {"run_id": run.id})
    service.close()
    assert curve["direction"] == "read" and curve["by_direction"] == []
    assert next(p["lat_ns"] for p in curve["points"] if p["percentile"] >= 99) == run.read.lat_ns.p99


def test_a_mixed_runs_percentile_curve_is_of_all_its_ios_with_each_direction_beside_it(sweep: Sweep) -> None:
    mixed = next(r for r in sweep.runs if r.read.active and r.write.active)
    curve = sweep.call("runs.percentiles", {"run_id": mixed.id})
    assert curve["direction"] == "all I/Os" and [d["direction"] for d in curve["by_direction"]] == ["read", "write"]
    first = next(p["lat_ns"] for p in curve["points"] if p["percentile"] >= 99)
    assert first == mixed.mixed.lat_ns.p99 == percentile(merge([mixed.read.lat_bins_ns, mixed.write.lat_bins_ns]), 99)
    assert mixed.read.lat_ns.p99 != mixed.mixed.lat_ns.p99 != mixed.write.lat_ns.p99


def test_bandwidth_by_access_size_follows_the_iops_series_in_bytes_per_second(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids()})
    iops, bw = charts["iops_by_size"][0], charts["bw_bytes_per_s_by_size"][0]
    assert bw["statistic"] == iops["statistic"] == "" and bw["setting"] == bw["label"] == iops["label"]
    assert [p["x"] for p in bw["points"]] == [p["x"] for p in iops["points"]]
    at_16k = next(r for r in sweep.runs if r.workload.block_size_bytes == 16384)
    assert next(p["y"] for p in bw["points"] if p["x"] == 16384) == pytest.approx(at_16k.read.bw_bytes_per_s)


def test_latency_series_name_their_setting_and_statistic_so_a_chart_can_pair_them(sweep: Sweep) -> None:
    by_depth = sweep.ids("randread")[3:]  # QD1, 10, 100; earlier runs: the same ones, for the test
    charts = sweep.call("runs.charts", {"run_ids": by_depth, "compare_with": by_depth})
    by_qd = [(s["setting"], s["statistic"]) for s in charts["lat_ns_by_queue_depth"]]
    assert by_qd == [("randread 4KiB T1", "mean"), ("randread 4KiB T1", "p99"), ("randread 4KiB T1 (earlier)", "mean")]
    assert [s["statistic"] for s in charts["lat_ns_by_iops"]] == ["p50", "p99", "p99.9"]
