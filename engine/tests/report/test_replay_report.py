"""A replay's report page from a real replay: its settings, the timing in words, latency recorded beside
replayed, both charts and what the trace holds, each figure the result's own."""

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import requires_fio
from trace_files import random_ios, write_iolog_v3, write_msr

from ssdprof.app.replay import ReplayRunner
from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.model.replay_results import ReplayResult
from ssdprof.report.layout import fmt_us
from ssdprof.report.replay import build_replay_pdf
from ssdprof.store.db import Store

pytestmark = [requires_fio, pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")]


def replayed_page(trace: Path, store: Store, title: str) -> tuple[ReplayResult, str]:
    """The trace replayed at 4 lanes beside it, and its PDF page's text (words joined by single spaces)."""
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(trace.parent), lanes=4), check_target=True)
    result = ReplayRunner(store).run(job).result
    pdf = trace.with_suffix(".pdf")
    pdf.write_bytes(build_replay_pdf(result, title=title))
    return result, " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                           check=True).stdout.split())


def test_the_page_says_the_result_in_its_own_figures(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "hm_1.csv", random_ios(120, span_s=1, seed=41, region=4 << 20))
    result, text = replayed_page(trace, fresh_store, "Exchange trace")
    assert "Exchange trace" in text and "Trace replay: hm_1.csv as recorded, 4 in flight at most" in text
    assert result.timing_sentence[1:40] in text
    read = result.latency[0]
    assert (f"read {read.trace_count:,} {read.replayed_count:,} {fmt_us(read.recorded_p50_ns)} "
            f"{fmt_us(read.replayed_p50_ns)}") in text
    assert "IOPS over time: replayed beside recorded" in text and "Latency as recorded beside as replayed" in text
    assert "What hm_1.csv holds (the part replayed)" in text and "Access sizes of hm_1.csv" in text


def test_a_trace_without_latency_counts_its_ios_and_says_their_latency_was_not_recorded(
        disk_dir: Path, fresh_store: Store) -> None:
    trace = write_iolog_v3(disk_dir / "app.iolog", random_ios(60, span_s=1, seed=43, region=4 << 20))
    result, text = replayed_page(trace, fresh_store, "iolog")
    read = result.latency[0]
    assert read.recorded_count == 0 and read.trace_count == read.replayed_count > 0
    assert "I/Os in trace I/Os repl. p50 rec. µs" in text and f"read {read.trace_count:,} {read.replayed_count:,} –" in text
    assert f"The trace records no latency for its {read.trace_count:,} reads." in text


def test_each_host_is_said_with_the_share_of_its_ios_issued_more_than_10_ms_late(tmp_path: Path) -> None:
    """From the renderer's recorded answer of a replay split across the SSH test hosts (src/test/replay-hosts.json)."""
    recorded = Path(__file__).resolve().parents[3] / "src" / "test" / "replay-hosts.json"
    result = ReplayResult.model_validate_json(recorded.read_text())
    pdf = tmp_path / "hosts.pdf"
    pdf.write_bytes(build_replay_pdf(result, title="hosts"))
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    assert "span change > 10 ms late" in text
    for host in result.hosts:
        assert host.late_over_10ms_pct is not None
        assert f"{host.span_change_pct:+.1f} % {host.late_over_10ms_pct:.1f} %" in text, host.host
