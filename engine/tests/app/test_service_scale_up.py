"""analysis.scale_up and analysis.scale_up_report over JSON-RPC: profiling runs from the store or
figures typed in, bad fields named as the CLI names them.
"""

from __future__ import annotations

import base64
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from analysis_runs import make_run

from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.results import Environment, RunResult

TYPED = [
    {"arrays": 1, "iops": 45_000},
    {"arrays": 6, "iops": 193_000},
    {"arrays": 8, "iops": 155_000},
]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[EngineService]:
    engine = EngineService(
        tmp_path / "results.sqlite3",
        lambda method, payload: None,
        default_dir=tmp_path,
        spec_folders=(None,),
    )
    yield engine
    engine.close()


def request(service: EngineService, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return dict(
        handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    )


def profiling_run(arrays: int, iops: float, enclosures: int = 0) -> RunResult:
    run = make_run(
        rw="randwrite",
        iops=iops,
        cpu_busy_pct=20.0,
        tags={"arrays": str(arrays), "enclosures": str(enclosures)},
    )
    return run.model_copy(update={"environment": Environment(cpu_count=40)})


def test_typed_in_figures_size_the_240_ssd_array(service: EngineService) -> None:
    answer = request(
        service,
        "analysis.scale_up",
        {"points": TYPED, "target_ssds": 240, "max_pcie_slots": 3, "metric": "write_iops"},
    )["result"]
    assert answer["profile"]["chassis_iops"]["value"] == pytest.approx(174_000)
    assert answer["count"] == 42 and answer["best_uniform"]["key"] == "4-3-3"
    assert answer["label"] == "write IOPS, typed in"


def test_stored_profiling_runs_name_themselves_in_every_prediction(service: EngineService) -> None:
    runs = [
        profiling_run(1, 45_000),
        profiling_run(6, 193_000),
        profiling_run(8, 155_000),
        profiling_run(16, 156_600, enclosures=1),
    ]
    ids = [service.store.add_run(r).id for r in runs]
    answer = request(
        service, "analysis.scale_up", {"run_ids": ids, "target_ssds": 96, "metric": "write_iops"}
    )["result"]
    assert answer["profile"]["run_ids"] == ids
    assert answer["profile"]["first_drop_pct"]["value"] == pytest.approx(10)
    assert answer["profile"]["cpu_factor"] is not None  # 20 % of 40 cores in every run
    assert f"runs {ids[1]}, {ids[2]}" not in answer["daisy_chain"]["basis"]
    assert f"6 arrays (run {ids[1]})" in answer["daisy_chain"]["basis"]


def test_bad_fields_are_refused_by_name_with_the_cli_flag(service: EngineService) -> None:
    error = request(
        service, "analysis.scale_up", {"points": TYPED, "target_ssds": 250, "max_cpu_cores": 10}
    )["error"]
    assert error["code"] == -32602
    problems = {p["field"]: p for p in error["data"]["problems"]}
    assert set(problems) == {"target_ssds", "max_cpu_cores"}
    assert (
        problems["target_ssds"]["flag"] == "--target-ssds"
        and "240 or 264 do" in problems["target_ssds"]["message"]
    )
    bounds = request(
        service, "analysis.scale_up", {"points": TYPED, "target_ssds": 240, "max_pcie_slots": 0}
    )["error"]
    assert bounds["data"]["problems"][0]["field"] == "max_pcie_slots"
    assert bounds["data"]["problems"][0]["message"].startswith("0 is out of range; allowed 1–30")


def test_runs_without_profiling_tags_are_refused_on_run_ids(service: EngineService) -> None:
    run_id = service.store.add_run(make_run()).id
    error = request(service, "analysis.scale_up", {"run_ids": [run_id], "target_ssds": 240})[
        "error"
    ]
    assert error["data"]["problems"][0]["field"] == "run_ids"
    assert "arrays=" in error["message"]
    nothing = request(service, "analysis.scale_up", {"target_ssds": 240})["error"]
    assert nothing["data"]["problems"][0]["field"] == "points"


def test_the_report_is_a_pdf_of_the_sizing(service: EngineService) -> None:
    answer = request(service, "analysis.scale_up_report", {"points": TYPED, "target_ssds": 240})[
        "result"
    ]
    assert base64.b64decode(answer["pdf_base64"]).startswith(b"%PDF")
    assert answer["filename"] == "ssdprof-scale-up-240-ssds.pdf"


def test_the_renderers_recorded_answer_is_the_engines_own() -> None:
    script = Path(__file__).parents[3] / "scripts" / "gen_scale_up_fixture.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
