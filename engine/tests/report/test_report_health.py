"""The drive's own word as rows, on snapshots parsed from the lab node's real output."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIO_DATA
from target.test_health import record  # the real outputs, answered as the tools gave them

from ssdprof.model.health_words import health_rows, health_title
from ssdprof.report import ReportRequest, build_pdf
from ssdprof.store.interchange import import_fio_output


def test_a_64_mib_write_shows_the_drives_count_beside_the_runs_and_the_temperature() -> None:
    rows = dict(health_rows(record("lab_nvme_smart_log.json", "lab_nvme_smart_log_after_64MiB.json",
                                   64 * 2**20)))
    assert rows["written, by the drive"] == ("67.6 MB (the run: 67.1 MB, ± 1 data unit of 512,000 B)")
    assert rows["temperature"] == ("49.9 °C (49.9–51.0 °C during the run); warning 69.8 °C, "
                                   "critical 99.8 °C")
    assert rows["data written, lifetime"] == "0.0 MB → 67.6 MB"
    assert rows["critical warnings"] == "none"


def test_the_title_names_the_drive_and_the_tools_that_answered() -> None:
    done = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_over_threshold.json", 0)
    assert health_title(done) == ("/dev/nvme0n1: QEMU NVMe Ctrl, firmware 7.2.22, serial "
                                  "SSDPROF-NVME-1, 1GiB, 512 B blocks (nvme-cli)")
    assert dict(health_rows(done))["critical warnings"] == (
        "none → a temperature at or over its threshold")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_the_pdf_has_the_drives_own_word_table(tmp_path: Path) -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json")[0]
    done = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_over_threshold.json", 0)
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(build_pdf(ReportRequest.of_runs([run.model_copy(update={"drive_health": done})])))
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "The drive's own word" in text and "QEMU NVMe Ctrl, firmware 7.2.22" in text
    assert "49.9 → 49.9 (51.0)" in text and "67.6 / 0.0" in text and "a temperature at" in text
