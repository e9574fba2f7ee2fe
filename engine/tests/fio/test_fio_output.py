"""The parser against real fio output of several versions (see tests/data/fio/README.md)."""

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import FIO_DATA

from ssdprof.fio.output import ALL_CLIENTS, FioOutputError, combine, parse_document, parse_report, split_documents
from ssdprof.fio.progress import DocumentStream, ProgressTracker
from ssdprof.model import histogram
from ssdprof.model.results import DirectionStats

MANIFEST: list[dict[str, Any]] = json.loads((FIO_DATA / "manifest.json").read_text())
REPORTED = {"50.000000": "p50", "90.000000": "p90", "95.000000": "p95", "99.000000": "p99",
            "99.900000": "p99_9", "99.990000": "p99_99"}


def fixture(name: str) -> str:
    return (FIO_DATA / name).read_text()


def entry_stats(entry: dict[str, Any], expected: dict[str, Any]) -> tuple[DirectionStats, DirectionStats]:
    report = parse_report(fixture(entry["file"]))
    pool = report.fio_all_clients if expected["jobname"] == ALL_CLIENTS else report.jobs
    job = next(j for j in pool if j.name == expected["jobname"])
    return job.read, job.write


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_every_real_output_parses_and_reproduces_fios_own_counts(entry: dict[str, Any]) -> None:
    expected = entry["expected"]
    for direction, stats in zip(("read", "write"), entry_stats(entry, expected), strict=True):
        want = expected[direction]
        if want["total_ios"] is not None:
            assert stats.io_count == want["total_ios"]
        assert stats.iops == pytest.approx(want["iops"], rel=1e-9)
        bw_bytes = want["bw_bytes"] if want["bw_bytes"] is not None else want["bw"] * 1024
        assert stats.bw_bytes_per_s == pytest.approx(bw_bytes, rel=1e-9)


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_percentiles_equal_fios_own_whether_from_bins_or_from_its_table(entry: dict[str, Any]) -> None:
    expected = entry["expected"]
    to_ns = 1000 if expected["clat_unit"] == "us" else 1
    for direction, stats in zip(("read", "write"), entry_stats(entry, expected), strict=True):
        table = expected[direction]["clat_percentiles"]
        if not table or not stats.active:
            continue
        for key, field in REPORTED.items():
            if key in table:
                assert getattr(stats.clat_ns, field) == table[key] * to_ns, (direction, key)


def test_json_plus_percentiles_come_from_bins() -> None:
    report = parse_report(fixture("fio-3.33_randread_qd1.jsonplus.json"))
    assert report.jobs[0].read.clat_ns.from_bins
    assert sum(report.jobs[0].read.clat_bins_ns.values()) == report.jobs[0].read.clat_ns.samples


def test_fio_2x_microseconds_and_kib_are_converted_to_ns_and_bytes() -> None:
    report = parse_report(fixture("fio-2.17_pkb_group_reporting.json"))
    raw = json.loads(fixture("fio-2.17_pkb_group_reporting.json"))["jobs"][0]["read"]
    read = report.jobs[0].read
    assert read.clat_ns.mean == pytest.approx(raw["clat"]["mean"] * 1000)
    assert read.io_bytes == raw["io_bytes"] * 1024
    assert read.bw_bytes_per_s == raw["bw"] * 1024


def test_notes_and_signal_messages_before_the_json_are_kept_as_notes() -> None:
    report = parse_report(fixture("fio-3.33_sigint.jsonplus.merged.txt"))
    assert any("terminating on signal" in note for note in report.notes)
    assert report.jobs[0].read.io_count > 0
    psync = parse_report(fixture("fio-3.33_note_psync_iodepth.merged.txt"))
    assert any("iodepth" in note for note in psync.notes)


def test_normal_output_after_the_json_does_not_confuse_the_parser() -> None:
    report = parse_report(fixture("fio-3.33_normal_and_jsonplus.txt"))
    assert report.jobs[0].read.io_count > 0


def test_status_interval_documents_are_all_found_and_the_last_is_the_result() -> None:
    text = fixture("fio-3.33_status_interval.jsonplus.txt")
    entry = next(e for e in MANIFEST if e["format"] == "status-interval-json+")
    documents, _ = split_documents(text)
    assert len(documents) == entry["n_documents"]
    assert parse_report(text).jobs[0].read.io_count == entry["per_document_read_total_ios"][-1]


def test_streamed_status_documents_become_per_second_samples_summing_to_the_total() -> None:
    text = fixture("fio-3.33_status_interval.jsonplus.txt")
    stream, tracker = DocumentStream(), ProgressTracker(ramp_s=0)
    samples = [s for line in text.splitlines(keepends=True) for doc in stream.feed(line) for s in tracker.update(doc)]
    assert stream.text == text
    assert len(samples) >= 3
    assert all(s.read_iops > 0 for s in samples)


def test_the_interval_across_the_end_of_the_ramp_is_not_mistaken_for_a_measured_second() -> None:
    # Real fio, rate-limited to 2000 IOPS, ramp 1 s: fio resets its counters when the ramp ends, and
    # by the next status document the new counts (1955) have already passed the old ones (1619).
    text = fixture("fio-3.33_status_interval_ramp.jsonplus.txt")
    stream, tracker = DocumentStream(), ProgressTracker(ramp_s=1)
    samples = [s for line in text.splitlines(keepends=True) for doc in stream.feed(line) for s in tracker.update(doc)]
    measured = [s for s in samples if not s.ramping]
    assert len(measured) >= 2
    assert all(s.read_iops == pytest.approx(2000, rel=0.1) for s in measured), [round(s.read_iops) for s in samples]
    assert all(s.read_iops == pytest.approx(2000, rel=0.25) for s in samples[1:]), "the reset interval is rated since the reset"


def test_several_jobs_and_groups_are_kept_apart() -> None:
    report = parse_report(fixture("fio-3.33_multi_job.jsonplus.json"))
    assert report.groups == [0, 1]
    group0 = [j for j in report.jobs if j.groupid == 0]
    assert len(group0) == 2


def test_combining_jobs_adds_bins_and_counts_and_weights_means_by_samples() -> None:
    report = parse_report(fixture("fio-3.33_multi_job.jsonplus.json"))
    pair = [j.read for j in report.jobs if j.groupid == 0]
    total = combine(pair)
    assert total.io_count == sum(p.io_count for p in pair)
    assert total.iops == pytest.approx(sum(p.iops for p in pair))
    assert total.clat_bins_ns == histogram.merge(p.clat_bins_ns for p in pair)
    assert total.clat_ns.p99 == histogram.percentile(total.clat_bins_ns, 99)
    weighted = sum(p.clat_ns.samples * (p.clat_ns.mean or 0) for p in pair) / sum(p.clat_ns.samples for p in pair)
    assert total.clat_ns.mean == pytest.approx(weighted)


def test_combining_jobs_without_bins_leaves_percentiles_out_rather_than_averaging() -> None:
    report = parse_report(fixture("fio-2.1.4_pkb_sample_result.json"))
    reads = [j.read for j in report.jobs if j.read.active]
    if len(reads) < 2:
        reads = [reads[0], reads[0]]
    assert combine(reads).clat_ns.p99 is None


@pytest.mark.parametrize("name", ["fio-3.33_cs_2clients.jsonplus.json", "fio-3.43_cs_2clients_styliteag.json"])
def test_client_server_output_gives_one_host_per_client_and_an_exact_aggregate(name: str) -> None:
    report = parse_report(fixture(name))
    assert report.client_server
    assert len(report.hosts) == 2
    fio_total = report.fio_all_clients[0]
    for direction in ("read", "write"):
        ours = combine(j.direction(direction) for j in report.jobs)
        assert ours.io_count == fio_total.direction(direction).io_count
        assert ours.bw_bytes_per_s == pytest.approx(fio_total.direction(direction).bw_bytes_per_s, rel=1e-3)


def test_client_server_with_one_client_has_no_all_clients_entry() -> None:
    report = parse_report(fixture("fio-3.33_cs_1client.jsonplus.json"))
    assert report.hosts == ["127.0.0.1"]
    assert report.fio_all_clients == []


def test_global_options_as_a_list_are_merged() -> None:
    report = parse_report(fixture("fio-3.43_cs_2clients_styliteag.json"))
    assert report.global_options["ioengine"] == "psync"


def test_duplicate_keys_do_not_break_parsing() -> None:
    report = parse_report(fixture("fio-2.17_pkb_group_reporting.json"))
    assert report.jobs


@pytest.mark.parametrize("text", ["", "hello\n", "{\"not\": \"fio\"}\n", "fio: some error\n{broken\n"])
def test_text_that_is_not_fio_output_is_refused(text: str) -> None:
    with pytest.raises(FioOutputError, match="no fio JSON result"):
        parse_report(text)


def test_percentile_threshold_is_exact_rational_p_of_n() -> None:
    # 1000 samples: p99.9 needs 999 samples, exactly at the boundary of the second bucket
    assert histogram.percentile({1: 998, 2: 1, 3: 1}, Fraction("99.9")) == 2


def test_fixture_manifest_covers_the_formats_the_issue_names() -> None:
    formats = {e["format"] for e in MANIFEST}
    assert {"json", "json+", "status-interval-json+"} <= formats
    assert any(e["fio_version"].startswith("fio-2.") for e in MANIFEST)
    assert any(e["client_server"] and e["n_clients"] == 2 for e in MANIFEST)
    assert any(e["global_options"] == "list" for e in MANIFEST)
    assert all((FIO_DATA / e["file"]).exists() for e in MANIFEST)
    assert Path(FIO_DATA / "README.md").exists()


LAT_FIXTURES = [e for e in MANIFEST if "lat_percentiles" in e["expected"]["read"]]


def test_the_lat_fixtures_cover_async_sync_plain_json_and_status_documents() -> None:
    files = {e["file"] for e in LAT_FIXTURES}
    assert {"fio-3.33_randread_qd1_io_uring_lat.jsonplus.json", "fio-3.33_randrw_psync_lat.jsonplus.json",
            "fio-3.33_randread_qd4_libaio_lat.json", "fio-3.33_status_interval_lat.jsonplus.txt"} <= files


@pytest.mark.parametrize("entry", LAT_FIXTURES, ids=[e["file"] for e in LAT_FIXTURES])
def test_total_latency_percentiles_equal_fios_own_lat_percentiles(entry: dict[str, Any]) -> None:
    expected = entry["expected"]
    for direction, stats in zip(("read", "write"), entry_stats(entry, expected), strict=True):
        want = expected[direction]
        if not stats.active:
            continue
        assert stats.latency_kind == "total"
        assert stats.lat_ns.samples == want["lat_N"] and stats.lat_ns.mean == pytest.approx(want["lat"]["mean"])
        assert (stats.lat_ns.min, stats.lat_ns.max) == (want["lat"]["min"], want["lat"]["max"])
        assert sum(stats.lat_bins_ns.values()) == (want["lat_N"] if want["lat_bins_count"] else 0)
        for key, field in REPORTED.items():
            assert getattr(stats.lat_ns, field) == want["lat_percentiles"][key], (direction, key)
            assert getattr(stats.clat_ns, field) == want["clat_percentiles"][key], (direction, key)


def test_submission_latency_is_kept_where_fio_timed_it_and_empty_where_it_did_not() -> None:
    uring = parse_report(fixture("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")).jobs[0].read
    raw = json.loads(fixture("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json"))["jobs"][0]["read"]
    assert uring.slat_ns.mean == pytest.approx(raw["slat_ns"]["mean"]) and uring.slat_ns.samples == raw["slat_ns"]["N"]
    # total = submission + completion, mean for mean (fio times both per I/O)
    assert uring.lat_ns.mean == pytest.approx((uring.slat_ns.mean or 0) + (uring.clat_ns.mean or 0), rel=0.01)
    assert uring.lat_ns.p50 > uring.clat_ns.p50  # type: ignore[operator]
    psync = parse_report(fixture("fio-3.33_randrw_psync_lat.jsonplus.json")).jobs[0]
    assert psync.read.slat_ns.mean is None and psync.write.slat_ns.mean is None  # fio prints zeros: not timed


def test_old_output_keeps_fios_lat_mean_but_never_borrows_clat_percentiles() -> None:
    for name in ("fio-3.33_randread_qd1.jsonplus.json", "fio-2.17_pkb_group_reporting.json"):
        read = parse_report(fixture(name)).jobs[0].read
        assert read.latency_kind == "total_mean_only", name
        assert read.lat_ns.mean is not None and read.lat_ns.mean > (read.clat_ns.mean or 0), name
        assert (read.lat_ns.p50, read.lat_ns.p99, read.lat_bins_ns) == (None, None, {}), name
    raw = json.loads(fixture("fio-2.17_pkb_group_reporting.json"))["jobs"][0]["read"]["lat"]
    assert parse_report(fixture("fio-2.17_pkb_group_reporting.json")).jobs[0].read.lat_ns.mean == pytest.approx(raw["mean"] * 1000)


def test_combining_merges_total_latency_bins_like_completion_bins() -> None:
    report = parse_report(fixture("fio-3.33_randrw_psync_lat.jsonplus.json"))
    job = report.jobs[0]
    both = combine([job.read, job.read])
    assert both.lat_bins_ns == histogram.merge([job.read.lat_bins_ns, job.read.lat_bins_ns])
    assert both.lat_ns.p99 == job.read.lat_ns.p99 and both.lat_ns.samples == 2 * job.read.lat_ns.samples


def test_live_progress_reports_total_latency_from_the_lat_bins_of_each_second() -> None:
    text = fixture("fio-3.33_status_interval_lat.jsonplus.txt")
    stream, tracker = DocumentStream(), ProgressTracker(ramp_s=0)
    samples = [s for line in text.splitlines(keepends=True) for doc in stream.feed(line) for s in tracker.update(doc)]
    documents, _ = split_documents(text)
    first = parse_document(documents[0]).jobs[0].read
    assert samples[0].read_lat_ns_p99 == histogram.percentile(first.lat_bins_ns, 99)
    assert samples[0].read_lat_ns_mean == pytest.approx(first.lat_ns.mean)
    assert all(s.read_lat_ns_p99 is not None and s.read_lat_ns_mean is not None for s in samples)


SS_FIXTURES = [e for e in MANIFEST if "expected_steadystate" in e]


@pytest.mark.parametrize("entry", SS_FIXTURES, ids=[e["file"] for e in SS_FIXTURES])
def test_fios_own_steadystate_object_is_read_as_fio_printed_it(entry: dict[str, Any]) -> None:
    want = entry["expected_steadystate"]
    steady = parse_report(fixture(entry["file"])).jobs[0].steadystate
    assert steady is not None
    assert (steady.ss, steady.attained, steady.criterion) == (want["ss"], bool(want["attained"]), want["criterion"])
    assert (steady.duration_s, steady.ramp_s) == (float(want["duration"]), float(want["ramp"]))
    assert (steady.max_deviation, steady.slope) == (want["max_deviation"], want["slope"])
    assert steady.iops_samples == want["iops"] and steady.bw_samples == want["bw"]


def test_the_steadystate_fixtures_cover_attained_and_not_and_a_job_without_one_has_none() -> None:
    assert {bool(e["expected_steadystate"]["attained"]) for e in SS_FIXTURES} == {True, False}
    assert parse_report(fixture("fio-3.33_randread_qd1.json")).jobs[0].steadystate is None


def test_an_imported_fio_output_keeps_its_steadystate(tmp_path: Path) -> None:
    from ssdprof.store.interchange import import_fio_output

    run = import_fio_output(FIO_DATA / "fio-3.33_randwrite_ss_iops_slope.jsonplus.json")[0]
    assert run.fio_steadystate is not None and run.fio_steadystate.attained
    assert run.fio_steadystate.ss == "iops_slope:20.000000%"
