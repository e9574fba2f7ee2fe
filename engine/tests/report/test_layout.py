"""The report's tables and headings on the page (report/layout.py): every number on one line and every
word whole within the page, at the widest values a study gives; no heading left alone at a page's foot."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIO_DATA

from ssdprof.model.results import HostResult, RunResult
from ssdprof.report import ReportRequest, RunGroup, build_pdf
from ssdprof.report.layout import FRAME_WIDTH, _longest_word, _width, fit_widths
from ssdprof.store.interchange import import_fio_output

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")

WIDE = ["randrw 70%R 128KiB QD64 T1 on 16 hosts nodes=5 (runs 1, 14, 27)", "n = 2 repeats of sweep 10",
        "186,033 ± 1,772,830", "24,383.7 ± 232,368.4", "10,190.7 ± 97,113.5", "20,521.0"]
HEADER = ["Setting", "n and source", "IOPS", "Bandwidth (MB/s)", "Mean latency (µs)", "p99 latency, all I/Os (µs)"]


def test_numbers_never_wrap_and_words_stay_whole_within_the_page() -> None:
    numeric = [False, False, True, True, True, True]
    widths, wrapped = fit_widths(HEADER, [WIDE] * 3, numeric, [4.6 * 28.35, 3.9 * 28.35, 68, 60, 60, 54])
    assert sum(widths) <= FRAME_WIDTH + 1e-6
    for i, cell in enumerate(WIDE):
        parts = cell.split(" ± ") if wrapped[i] else [cell]
        need = max(_width(p + (" ±" if wrapped[i] and j == 0 else "")) for j, p in enumerate(parts))
        assert widths[i] >= (need if numeric[i] else _longest_word(cell)) - 1e-6, (HEADER[i], widths[i])


def test_mean_plus_minus_half_wraps_after_its_plus_minus_rather_than_crushing_the_setting() -> None:
    header = ["Group", *HEADER]
    row = ["A (earlier, SATA nodes on the lab's cluster)", *WIDE]
    widths, wrapped = fit_widths(header, [row], [False, False, False, True, True, True, True], None)
    assert wrapped[3:6] == [True, True, True] and not wrapped[6], "a number without ± needs no wrap"
    assert widths[1] >= _longest_word(row[1]) and sum(widths) <= FRAME_WIDTH + 1e-6


def _study() -> list[RunGroup]:
    """Two groups of 8 settings, each 2 repeats far apart, on 16 hosts: the widest tables a study gives."""
    base = import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]
    groups = []
    run_id = 1
    for name, sweep in (("A (earlier, SATA nodes on the lab's cluster)", 10), ("B (PCIe nodes)", 11)):
        runs: list[RunResult] = []
        for qd in (1, 4, 16, 64):
            for bs in (4096, 131072):
                for repeat, factor in ((0, 1.0), (1, 9.0)):
                    read = base.read.model_copy(update={"iops": base.read.iops * factor * qd})
                    runs.append(base.model_copy(update={
                        "id": run_id, "sweep_id": sweep, "repeat": repeat, "read": read,
                        "workload": base.workload.model_copy(update={"queue_depth": qd, "block_size_bytes": bs}),
                        "hosts": [HostResult(host=f"client-{i:02d}.storage-lab.example.org") for i in range(16)],
                        "tags": {"nodes": "5"}}))
                    run_id += 1
        groups.append(RunGroup(name, tuple(runs)))
    return groups


@needs_poppler
def test_no_heading_is_left_alone_at_the_foot_of_a_page(tmp_path: Path) -> None:
    pdf = tmp_path / "study.pdf"
    pdf.write_bytes(build_pdf(ReportRequest(groups=tuple(_study()), title="A study")))
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout.split("\f")[:-1]
    for number, page in enumerate(pages, 1):
        lines = [line.strip() for line in page.splitlines() if line.strip() and "ssdprof" not in line]
        assert lines and not re.fullmatch(r"\d+ {1,2}[A-Z][\w ,'-]+", lines[-1]), f"page {number} ends with {lines[-1]!r}"
    assert len(pages) > 6
