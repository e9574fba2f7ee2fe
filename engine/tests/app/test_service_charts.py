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
from pydantic import BaseModel

from ssdprof.analysis.specs import bundled_spec_dir
from ssdprof.analysis.stats import mean_ci
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.histogram import percentile
from ssdprof.model.results import RunResult

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
    [by_size] = charts["iops_by_size"]
    assert by_size["label"] == "randread QD1 T1"
    assert [p["x"] for p in by_size["points"]] == [4096, 16384, 131072]
    assert [s["label"] for s in charts["lat_ns_by_queue_depth"]] == ["randread 4KiB T1 mean", "randread 4KiB T1 p99"]
    assert [s["label"] for s in charts["iops_by_read_pct"]] == ["random 4KiB QD1 T1"]
    assert [p["x"] for p in charts["iops_by_read_pct"][0]["points"]] == [0, 50, 70, 100]


def test_a_repeated_points_interval_is_the_students_t_interval_of_its_runs(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids()})
    at_4k = charts["iops_by_size"][0]["points"][0]
    repeats = [r for r in sweep.runs if r.workload.label == "randread 4KiB QD1 T1"]
    expected = mean_ci([r.read.iops for r in repeats])
    assert at_4k["n"] == expected.n == 2
    assert at_4k["y"] == pytest.approx(expected.mean) and at_4k["half_width"] == pytest.approx(expected.half_width)
    bar = charts["repeat_iops"]["series"][0]["points"][charts["repeat_iops"]["categories"].index("randread 4KiB QD1 T1")]
    assert (bar["y"], bar["half_width"], bar["n"]) == (at_4k["y"], at_4k["half_width"], 2)
    single = charts["iops_by_size"][0]["points"][1]
    assert single["n"] == 1 and single["half_width"] is None


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
    assert references[0]["points"] == [{"x": 4096, "y": 19000, "half_width": None, "n": 1}]
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


def test_bars_per_group_are_the_mean_and_interval_of_each_groups_repeats(sweep: Sweep) -> None:
    first, second = sweep.ids()[0], sweep.ids()[7]
    bars = sweep.call("runs.bars", {"groups": [{"label": "A", "run_ids": [first, second]}, {"label": "B", "run_ids": [first]}],
                                    "metric": "lat_ns_mean"})
    assert bars["categories"] == ["randread 4KiB QD1 T1"]
    a, b = (s["points"][0] for s in bars["series"])
    expected = mean_ci([r.read.lat_ns.mean or 0.0 for r in sweep.runs if r.id in (first, second)])
    assert (a["y"], a["half_width"], a["n"]) == (pytest.approx(expected.mean), pytest.approx(expected.half_width), 2)
    assert b["n"] == 1 and b["half_width"] is None


def test_the_percentile_curve_is_the_cumulative_share_of_the_bins(sweep: Sweep) -> None:
    full = next(r for r in sweep.runs if r.read.lat_bins_ns)
    curve = sweep.call("runs.percentiles", {"run_id": full.id})
    assert curve["direction"] == "read" and curve["label"] == full.workload.label
    shares = [p["percentile"] for p in curve["points"]]
    assert shares == sorted(shares) and shares[-1] == 100
    for pct in ("50", "99", "99.9"):  # fio's rule: the first bucket whose share reaches p
        first = next(p["lat_ns"] for p in curve["points"] if p["percentile"] >= float(pct))
        assert first == percentile(full.read.lat_bins_ns, Fraction(pct))


def test_bandwidth_by_access_size_follows_the_iops_series_in_bytes_per_second(sweep: Sweep) -> None:
    charts = sweep.call("runs.charts", {"run_ids": sweep.ids()})
    [iops], [bw] = charts["iops_by_size"], charts["bw_bytes_per_s_by_size"]
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
