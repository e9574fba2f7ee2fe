"""PDF reports from real fio runs, read back with poppler: the text a person would select, and the pages they would see."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import FIO_DATA, _disk_dir, requires_fio
from PIL import Image

from ssdprof.app.runner import Runner
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepMode, build_sweep
from ssdprof.model.workload import parse_workload
from ssdprof.remote.monitor import MonitorParser
from ssdprof.remote.probe import HostProbe
from ssdprof.remote.watch_verdicts import describe_watched, watched_warnings
from ssdprof.report import ReportError, ReportRequest, RunGroup, build_pdf
from ssdprof.report.layout import fmt_count, fmt_us
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output
from ssdprof.store.tabular import parse_table

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed (setup.sh installs it)")
pytestmark = [requires_fio, needs_poppler]


@pytest.fixture(scope="module")
def sweep_runs() -> Iterator[list[RunResult]]:
    """A real 1-second-per-point sweep: access size 4k/16k and queue depth 1/4, every point twice."""
    target = Path(tempfile.mkdtemp(prefix="ssdprof-report-", dir=_disk_dir()))
    store = Store(":memory:")
    try:
        base = parse_workload({"target": str(target), "runtime_s": 1, "ramp_s": 0, "size_bytes": "32MiB"})
        spec = build_sweep(base, {"block_size_bytes": ["4k", "16k"], "queue_depth": [1, 4]}, SweepMode.ONE_AT_A_TIME, repeats=2)  # type: ignore[dict-item]
        yield Runner(store).run_sweep(spec).results
    finally:
        store.close()
        shutil.rmtree(target, ignore_errors=True)


@pytest.fixture(scope="module")
def sweep_pdf(sweep_runs: list[RunResult], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "sweep.pdf"
    path.write_bytes(build_pdf(ReportRequest.of_runs(sweep_runs)))
    return path


def page_texts(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return text.split("\f")[:-1]


def page_images(pdf: Path, out: Path) -> list[np.ndarray]:
    subprocess.run(["pdftoppm", "-r", "40", "-gray", "-png", str(pdf), str(out / "page")], check=True)
    return [np.asarray(Image.open(p).convert("L"), dtype=float) for p in sorted(out.glob("page-*.png"))]


def test_the_report_names_the_workload_the_device_and_every_number_of_the_results_table(
        sweep_runs: list[RunResult], sweep_pdf: Path) -> None:
    text = "\n".join(page_texts(sweep_pdf))
    assert "randread 4KiB QD1 T1" in text and "randread 16KiB QD1 T1" in text and "randread 4KiB QD4 T1" in text
    env = sweep_runs[0].environment
    assert (env.device_model or env.device) in text
    for run in sweep_runs:
        row = next(line for line in text.splitlines() if re.match(rf"\s*{run.id}\s+randread", line))
        for number in (fmt_count(run.read.iops), fmt_us(run.read.lat_ns.mean), fmt_us(run.read.lat_ns.p99)):
            assert number in row
    header = text[text.index("Results"):]
    for word in ("IOPS", "MB/s", "MiB/s", "Mean", "p50", "p99", "p99.9", "(µs)"):  # a header cell may wrap its unit
        assert word in header


def test_the_report_gives_the_devices_side_of_each_runs_queue(sweep_runs: list[RunResult], sweep_pdf: Path) -> None:
    text = "\n".join(page_texts(sweep_pdf))
    section = text[text.index("At the device"):text.index("the device's side of the queue")]
    counted = [run for run in sweep_runs if run.device_queue is not None]
    assert len(counted) == len(sweep_runs), "every local direct-I/O run on a counted disk records its device queue"
    queued = [run for run in counted if run.workload.queue_depth > 1]
    assert queued and len(queued) < len(counted)
    for run in queued:
        assert run.device_queue is not None
        queue = run.device_queue
        assert re.search(rf"^\s*{run.id}\s+{queue.disk}\s+{queue.requested_outstanding}\s+{queue.mean_in_flight:.1f}\s",
                         section, re.MULTILINE), f"run {run.id}'s device queue row"
    for run in counted:
        if run.workload.queue_depth == 1:  # one I/O outstanding: no queue to speak of, left out
            assert not re.search(rf"^\s*{run.id}\s+\S+\s+1\s", section, re.MULTILINE)


def test_the_report_carries_the_fio_job_that_reproduces_the_measurement(sweep_pdf: Path) -> None:
    text = "\n".join(page_texts(sweep_pdf))
    assert "[global]" in text and "rw=randread" in text and "time_based=1" in text
    assert f"ssdprof export {1} --format fio" in text or "--format fio" in text


def test_repeats_are_reported_as_mean_plus_minus_a_95_percent_interval(sweep_pdf: Path) -> None:
    text = "\n".join(page_texts(sweep_pdf))
    assert "95 % confidence interval" in text and "±" in text
    assert "n = 2 repeats of sweep" in text, "a figure of several runs says n and where from"


def test_every_chart_stays_whole_on_one_page_with_its_caption(sweep_pdf: Path) -> None:
    pages = page_texts(sweep_pdf)
    titles = {"IOPS vs access size": "Figure 1:", "Latency vs queue depth": "Figure 2:", "Latency–IOPS curve": "Figure 3:",
              "IOPS per setting": "Figure 4:", "Latency percentiles (total, submission to completion)": "Figure 5:",
              "IOPS each second": "Figure 6:"}
    for title, caption in titles.items():
        page = next(i for i, text in enumerate(pages) if caption in text)
        assert title in pages[page], f"{title!r} is not on the page of its caption {caption!r}"


def test_chart_pages_are_not_blank(sweep_pdf: Path, tmp_path: Path) -> None:
    pages = page_texts(sweep_pdf)
    images = page_images(sweep_pdf, tmp_path)
    assert len(images) == len(pages)
    chart_pages = [img for img, text in zip(images, pages, strict=True) if "Figure" in text]
    assert chart_pages
    for image in chart_pages:
        assert image.std() > 12  # a blank page is ~0; a page of charts and captions well above
        assert (image < 250).mean() > 0.03  # ink on more than 3 % of the page


def test_charts_are_vector_drawings_not_pictures(sweep_pdf: Path) -> None:
    listing = subprocess.run(["pdfimages", "-list", str(sweep_pdf)], capture_output=True, text=True, check=True).stdout
    assert len(listing.strip().splitlines()) == 2  # only the header lines: no raster image anywhere


def test_a_comparison_names_both_groups_and_compares_them(sweep_runs: list[RunResult], tmp_path: Path) -> None:
    groups = (RunGroup("first pass", tuple(r for r in sweep_runs if r.repeat == 0)),
              RunGroup("second pass", tuple(r for r in sweep_runs if r.repeat == 1)))
    pdf = tmp_path / "compare.pdf"
    pdf.write_bytes(build_pdf(ReportRequest(groups=groups, title="First vs second pass")))
    text = "\n".join(page_texts(pdf))
    assert "First vs second pass" in text
    assert "Comparison of first pass (4 runs) vs second pass (4 runs)" in text
    assert "first pass: randread QD1 T1" in text or "first pass" in text.split("Charts")[1]


def _monitor_from_this_machine(host: str, seconds: int = 2) -> list:  # type: ignore[type-arg]
    """Real /proc/stat and /proc/net/dev snapshots, fed through the parser remote hosts use."""
    import time

    parser = MonitorParser(host)
    samples = []
    for _ in range(seconds + 1):
        cpu = Path("/proc/stat").read_text().splitlines()[0]
        net = ";".join(Path("/proc/net/dev").read_text().splitlines()[2:])
        sample = parser.feed(f"{time.time_ns()} {cpu}|{net}")
        if sample is not None:
            samples.append(sample)
        time.sleep(0.2)
    return samples


def test_a_multi_host_run_gets_per_host_results_and_its_cpu_and_network(sweep_runs: list[RunResult], tmp_path: Path) -> None:
    run = import_fio_output(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json")[0]
    hosts = [h.host for h in run.hosts]
    monitor = [s for host in hosts for s in _monitor_from_this_machine(host, seconds=1)]
    # An imported run carries no device queue: each host gets the one a real local QD4 run recorded.
    queue = next(r.device_queue for r in sweep_runs if r.workload.queue_depth == 4 and r.device_queue is not None)
    clock = {"clock_offset_ns": 2_503_000_000, "clock_offset_bound_ns": 4_000_000}  # a host 2.5 s ahead
    run = run.model_copy(update={"id": 7, "monitor": monitor,
                                 "hosts": [h.model_copy(update={"device_queue": queue, **clock}) for h in run.hosts]})
    pdf = tmp_path / "cluster.pdf"
    pdf.write_bytes(build_pdf(ReportRequest.of_runs([run])))
    text = "\n".join(page_texts(pdf))
    assert "Per-host results, network and CPU" in text
    for host in run.hosts:
        assert host.host in text and fmt_count(host.read.iops + host.write.iops) in text
    assert "IOPS per host" in text and "CPU busy" in text
    assert f"run 7 {hosts[0]}: +2.503 s ± 4 ms" in " ".join(text.split()), "each host's clock offset and its bound"
    section = text[text.index("At the device"):text.index("the device's side of the queue")]
    # One row per host; the disk cell ("host: disk") wraps onto the lines around the row's numbers.
    rows = re.findall(rf"^\s*7\s+4\s+{queue.mean_in_flight:.1f}\s", section, re.MULTILINE)
    assert len(rows) == len(hosts), section
    for host in hosts:
        assert re.search(rf"{re.escape(host)}:\s", section), host
    assert section.count(queue.disk) == len(hosts), section


def test_a_run_that_watched_a_storage_node_shows_it_in_the_host_tables(tmp_path: Path) -> None:
    """One client and a monitor-only host, its seconds from this machine's real counters fed through
    the parser a watched host's lines go through."""
    run = import_fio_output(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json")[0]
    seconds = _monitor_from_this_machine("osd1", seconds=2)
    watched = describe_watched("osd1", HostProbe(reachable=True, nics={"lo": -1}), seconds, None)
    run = run.model_copy(update={"id": 8, "hosts": run.hosts[:1], "watched": [watched],
                                 "monitor": seconds, "warnings": watched_warnings([watched])})
    pdf = tmp_path / "watched.pdf"
    pdf.write_bytes(build_pdf(ReportRequest.of_runs([run])))
    text = " ".join(" ".join(page_texts(pdf)).split())
    assert "Per-host results, network and CPU" in text and "Watched host" in text
    assert re.search(r"\b8 osd1 2 \d+ ", text), text
    assert "storage nodes watched during the run without running its I/O" in text


def test_imported_tables_report_their_assumptions_as_warnings(tmp_path: Path) -> None:
    table = parse_table("block size,queue depth,direction,IOPS,latency\n4K,1,random read,14500,68\n4K,32,random read,480000,66\n",
                        "datasheet.csv")
    pdf = tmp_path / "table.pdf"
    pdf.write_bytes(build_pdf(ReportRequest.of_runs(table.runs)))
    text = " ".join(" ".join(page_texts(pdf)).split())
    assert "INFO: imported from the table datasheet.csv" in text and "latency without a unit read as µs" in text
    assert "480,000" in text


def test_a_report_of_nothing_is_refused() -> None:
    with pytest.raises(ReportError, match="at least one run"):
        build_pdf(ReportRequest.of_runs([]))
