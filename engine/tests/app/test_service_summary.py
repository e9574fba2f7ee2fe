"""The student's summary over the RPC (runs.summary), the spec sheet remembered per device
(specs.remember) and applied next time by specs.compare, runs.summary and report.pdf, on the real
student sweep stored as the app stores it."""

from __future__ import annotations

import base64
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ssdprof.analysis.spec_choice import pick_spec
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.summary import summarize
from ssdprof.app.contract.errors import ERROR_CODES
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.results import RunResult

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
SCRIPT = SCRIPTS / "gen_chart_fixtures.py"
EVO = "samsung-970-evo-plus-1tb"


def _ignore(method: str, payload: BaseModel) -> None:
    pass


def service_on(db: Path) -> EngineService:
    return EngineService(db, _ignore, default_dir=db.parent, spec_folders=(bundled_spec_dir(),))


def stored_student_runs(service: EngineService) -> list[RunResult]:
    spec = importlib.util.spec_from_file_location("gen_chart_fixtures", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runs: list[RunResult] = module.stored_student_runs(service)
    return runs


def reply(service: EngineService, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return dict(
        handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    )


def call(service: EngineService, method: str, params: dict[str, Any]) -> Any:
    answer = reply(service, method, params)
    assert "error" not in answer, answer["error"]
    return answer["result"]


def test_the_renderers_canned_summary_answers_are_the_engines_own() -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / "gen_summary_fixture.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "results.sqlite3"


def test_the_summary_over_the_rpc_is_the_analysis_modules_own(db: Path) -> None:
    service = service_on(db)
    runs = stored_student_runs(service)
    answer = call(service, "runs.summary", {"sweep_id": runs[0].sweep_id})
    spec, pick = pick_spec(SpecLibrary.load([bundled_spec_dir()]), runs[0].environment, None, None)
    assert answer == summarize(runs, spec, pick).model_dump(mode="json")
    assert answer["runs"] == 10 and answer["spec"]["pick"]["how"] == "none"
    service.close()


def test_a_sheet_chosen_for_a_virtual_disk_is_applied_the_next_time(db: Path) -> None:
    service = service_on(db)
    ids = [r.id for r in stored_student_runs(service)]
    assert call(service, "specs.remember", {"run_id": ids[0], "spec_id": EVO}) == {
        "device": "disk vda on vm",
        "spec_id": EVO,
    }
    service.close()

    again = service_on(db)  # the app restarted: the choice lives in the engine's store
    summary = call(again, "runs.summary", {"run_ids": ids})
    assert summary["spec"]["pick"] == {
        "spec_id": EVO,
        "title": "Samsung 970 EVO Plus 1TB",
        "how": "remembered",
        "note": "chosen earlier for disk vda on vm",
        "device": "disk vda on vm",
    }
    assert summary["spec"]["comparison"]["pct_of_spec"] is not None
    compared = call(again, "specs.compare", {"run_ids": ids})
    assert {c["spec_id"] for c in compared["comparisons"]} == {EVO}
    assert "not recorded" not in " ".join(
        compared["unmatched"].values()
    )  # only randrw: no rated mix
    assert compared["comparisons"][0]["how"] == "chosen earlier for disk vda on vm"
    call(again, "specs.remember", {"run_id": ids[0], "spec_id": None})
    assert call(again, "runs.summary", {"run_ids": ids})["spec"]["pick"]["how"] == "none"
    again.close()


def test_a_sheet_that_does_not_exist_is_not_remembered(db: Path) -> None:
    service = service_on(db)
    ids = [r.id for r in stored_student_runs(service)]
    error = reply(service, "specs.remember", {"run_id": ids[0], "spec_id": "no-such-sheet"})[
        "error"
    ]
    assert error["code"] == ERROR_CODES["not_found"] and "no-such-sheet" in error["message"]
    assert call(service, "runs.summary", {"run_ids": ids})["spec"]["pick"]["how"] == "none"
    service.close()


def test_a_summary_of_nothing_is_refused_naming_the_field(db: Path) -> None:
    service = service_on(db)
    error = reply(service, "runs.summary", {"run_ids": []})["error"]
    assert (
        error["code"] == ERROR_CODES["invalid_params"]
        and error["data"]["problems"][0]["field"] == "run_ids"
    )
    service.close()


@pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="poppler-utils is not installed (setup.sh installs it)",
)
def test_the_pdf_opens_with_the_summary_against_the_remembered_sheet(
    db: Path, tmp_path: Path
) -> None:
    service = service_on(db)
    runs = stored_student_runs(service)
    ids = [r.id for r in runs]
    call(service, "specs.remember", {"run_id": ids[0], "spec_id": EVO})
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(base64.b64decode(call(service, "report.pdf", {"run_ids": ids})["pdf_base64"]))
    service.close()
    first = subprocess.run(
        ["pdftotext", "-l", "1", "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "1 Summary" in first and "2 Test setup" not in first  # the summary's page is its own
    qd100 = next(r for r in runs if r.workload.queue_depth == 100)
    row = next(line for line in first.splitlines() if line.strip().startswith("RND 4KiB QD100 T1"))
    assert row.split()[4:] == [
        f"{qd100.read.bw_bytes_per_s / 1e6:,.1f}",
        f"{qd100.read.iops:,.0f}",
        f"{qd100.read.lat_ns.mean / 1e3:,.0f}",
    ]
    words = " ".join(first.split())
    assert (
        "Against the Samsung 970 EVO Plus 1TB spec sheet (chosen earlier for disk vda on vm)"
        in words
    )
    assert (
        "How each factor moved the figures" in words and "What these figures cannot tell" in words
    )
    rest = " ".join(
        subprocess.run(
            ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert (
        "Comparison with the vendor specification" in rest
    )  # the % of spec table uses the same sheet
