"""A replay's report page from a real replay: its settings, the timing in words, latency recorded beside
replayed, both charts and what the trace holds, each figure the result's own."""

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import requires_fio
from trace_files import random_ios, write_msr

from ssdprof.app.replay import ReplayRunner
from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.report.layout import fmt_us
from ssdprof.report.replay import build_replay_pdf
from ssdprof.store.db import Store

pytestmark = [requires_fio, pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")]


def test_the_page_says_the_result_in_its_own_figures(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "hm_1.csv", random_ios(120, span_s=1, seed=41, region=4 << 20))
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), lanes=4), check_target=True)
    result = ReplayRunner(fresh_store).run(job).result
    pdf = disk_dir / "replay.pdf"
    pdf.write_bytes(build_replay_pdf(result, title="Exchange trace"))
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert "Exchange trace" in text and "Trace replay: hm_1.csv as recorded, 4 in flight at most" in text
    assert result.timing_sentence[1:40] in text
    read = result.latency[0]
    assert (f"read {read.recorded_count:,} {read.replayed_count:,} {fmt_us(read.recorded_p50_ns)} "
            f"{fmt_us(read.replayed_p50_ns)}") in text
    assert "IOPS over time: replayed beside recorded" in text and "Latency as recorded beside as replayed" in text
    assert "What hm_1.csv holds (the part replayed)" in text and "Access sizes of hm_1.csv" in text
