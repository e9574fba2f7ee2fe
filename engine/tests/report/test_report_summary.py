"""The report's first page: the student's summary as the engine computed it, read with poppler."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from ssdprof.analysis.spec_choice import pick_spec
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.summary import summarize
from ssdprof.model.results import RunResult
from ssdprof.report import ReportRequest, build_pdf

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils is not installed"
)
RUNS = Path(__file__).resolve().parents[3] / "src" / "test" / "student-runs.json"


def first_page(pdf: bytes, folder: Path) -> str:
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-l", "1", "-layout", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_the_summary_is_the_first_section_with_every_sentence_the_engine_wrote(
    tmp_path: Path,
) -> None:
    runs = [RunResult.model_validate(raw) for raw in json.loads(RUNS.read_text())["runs"]]
    spec, pick = pick_spec(SpecLibrary.load([bundled_spec_dir()]), runs[0].environment, None, None)
    summary = summarize(runs, spec, pick)
    page = first_page(build_pdf(ReportRequest.of_runs(runs, summary=summary)), tmp_path)
    words = " ".join(page.split())
    assert "1 Summary" in page and "Test setup" not in page
    assert [row.label for row in summary.table] == ["RND 4KiB QD100 T1", "RND 4KiB QD1 T1"]
    assert all(row.label in page for row in summary.table)
    for sentence in [
        *(f.sentence for f in summary.factors),
        *(b.sentence for b in summary.best),
        summary.spec.sentence,
        *(c.message for c in summary.caveats),
    ]:
        assert " ".join(sentence.split()) in words


def test_a_report_without_a_summary_starts_with_the_test_setup(tmp_path: Path) -> None:
    runs = [RunResult.model_validate(raw) for raw in json.loads(RUNS.read_text())["runs"][:2]]
    page = first_page(build_pdf(ReportRequest.of_runs(runs)), tmp_path)
    assert "1 Test setup" in page and "Summary" not in page
