"""The report's judgement sections, on runs whose every number the test chose (analysis_runs)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from analysis_runs import make_run

from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.report import ReportRequest, build_pdf

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed (setup.sh installs it)")


def pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_percent_of_spec_for_repeats_is_that_of_their_mean(tmp_path: Path) -> None:
    made = [make_run(iops=iops, qd=32, device_model="INTEL SSDPF2KE016T9", run_id=i + 1)
            for i, iops in enumerate((400_000, 600_000))]
    repeats = [run.model_copy(update={"sweep_id": 1, "repeat": i}) for i, run in enumerate(made)]
    text = pdf_text(build_pdf(ReportRequest.of_runs(repeats, spec_folders=(bundled_spec_dir(),))), tmp_path)
    assert "1,000,000 IOPS" in text
    assert re.search(r"500,000\.0 IOPS +50\b", text)  # the mean of the repeats and its %, not the first repeat's 40 %
    assert "mean of 2 repeats" in text


def test_a_sweep_over_access_size_gets_a_validated_model_and_node_counts_a_scalability_fit(tmp_path: Path) -> None:
    sizes = [4096, 16384, 65536, 262144, 1048576]
    along_size = [make_run(bs=bs, iops=200_000 / (1 + bs / 32768), run_id=i + 1) for i, bs in enumerate(sizes)]
    nodes = [make_run(qd=8, iops=50_000 * n / (1 + 0.1 * (n - 1)), tags={"nodes": str(n)}, run_id=10 + n) for n in (1, 2, 3, 4)]
    text = pdf_text(build_pdf(ReportRequest.of_runs(along_size + nodes)), tmp_path)
    assert "Models and predictions" in text
    assert "R²" in text and "polynomial of" in text and "leaving" in text
    assert "Universal Scalability Law" in text and "Predicted IOPS" in text


def test_runs_without_a_varied_factor_get_no_model_section(tmp_path: Path) -> None:
    text = pdf_text(build_pdf(ReportRequest.of_runs([make_run(run_id=1), make_run(run_id=2)])), tmp_path)
    assert "Models and predictions" not in text


def test_the_models_table_names_metrics_for_people_and_the_loo_error_first(tmp_path: Path) -> None:
    # Three access sizes, as in the student preset: a quadratic would pass through all three.
    sizes_and_bandwidth = ((4096, 40e6), (131072, 900e6), (4 << 20, 1000e6))
    runs = [make_run(bs=bs, iops=bw / bs, run_id=i + 1)
            for i, (bs, bw) in enumerate(sizes_and_bandwidth)]
    path = tmp_path / "report.pdf"
    path.write_bytes(build_pdf(ReportRequest.of_runs(runs)))
    # in reading order, cell by cell (the layout mode interleaves a table's wrapped cells)
    plain = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                           check=True).stdout
    text = " ".join(plain.split())
    section = text[text.index("Models and predictions"):]
    assert "bandwidth (MB/s)" in section and "bw_bytes_per_s" not in text
    assert "R² 1.000" not in section and "polynomial of degree 1" in section
    assert "weak check: 3 settings for 2 parameters" in section
    loo_column = section.index("Mean |error| leaving each setting out")
    assert loo_column < section.index("Fit over the runs")


def test_a_busy_cpu_is_said_once_in_the_pdf_with_every_runs_figure(tmp_path: Path) -> None:
    from ssdprof.model.results import ValidityWarning

    runs = []
    for i, (qd, busy) in enumerate(((1, 90.0), (4, 93.0), (16, 92.0), (32, 96.0))):
        run = make_run(qd=qd, iops=10_000 * (i + 1), cpu_busy_pct=busy, run_id=i + 1)
        said = ValidityWarning(code="cpu_saturated", concerns=["read.iops"],
                               message=f"the CPU was {busy:.0f} % busy: the result may be CPU-bound, not device-bound")
        runs.append(run.model_copy(update={"warnings": [said]}))
    text = " ".join(pdf_text(build_pdf(ReportRequest.of_runs(runs)), tmp_path).split())
    # one sentence with each run's figure, not '90 % busy' for all, and no run's own warning repeating it
    assert len(re.findall(r"% busy", text)) == 1, text
    assert "The CPU was 90 to 96 % busy in 4 runs (run 1: 90 %, run 2: 93 %, run 3: 92 %, run 4: 96 %)" in text
