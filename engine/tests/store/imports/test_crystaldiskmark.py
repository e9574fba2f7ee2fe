"""CrystalDiskMark's text exports (6, 7, 8) read as runs: figures as CrystalDiskMark means them."""

from __future__ import annotations

import pytest
from tool_outputs import CDM_DEFAULT, DiskmarkTest, crystaldiskmark6, crystaldiskmark7, crystaldiskmark8

from ssdprof.store.imports.crystaldiskmark import import_crystaldiskmark, is_crystaldiskmark
from ssdprof.store.imports.sources import ImportFailure, SourceFile


def runs_of(data: bytes, name: str = "CDM.txt"):  # type: ignore[no-untyped-def]
    source = SourceFile(name, data)
    assert is_crystaldiskmark(source)
    return import_crystaldiskmark(source, {})


def test_each_test_line_of_a_crystaldiskmark_8_export_is_a_run_with_its_access_size_queue_depth_and_threads() -> None:
    runs = runs_of(crystaldiskmark8())
    assert [r.workload.label for r in runs] == [
        "read 1MiB QD8 T1", "read 1MiB QD1 T1", "randread 4KiB QD32 T1", "randread 4KiB QD1 T1",
        "write 1MiB QD8 T1", "write 1MiB QD1 T1", "randwrite 4KiB QD32 T1", "randwrite 4KiB QD1 T1"]
    rnd = runs[2]
    assert rnd.read.bw_bytes_per_s == pytest.approx(627.462e6)
    assert rnd.read.iops == pytest.approx(153189.0)
    assert rnd.read.lat_ns.mean == pytest.approx(204370.0)
    assert rnd.read.latency_kind == "total_mean_only"
    assert rnd.read.lat_ns.p99 is None and rnd.read.clat_ns.mean is None
    assert rnd.write.io_count == 0


def test_the_drive_os_test_size_and_date_lines_become_the_runs_environment() -> None:
    run = runs_of(crystaldiskmark8(comment="Samsung 970 EVO Plus"))[0]
    assert run.environment.os == "Windows 10 Professional [10.0 Build 19042] (x64)"
    assert run.workload.target == "C:" and run.environment.mount_point == "C:"
    assert run.workload.size_bytes == 1 << 30
    assert run.workload.runtime_s == 5
    assert run.started_at == "2021-03-14T16:45:49"
    assert run.tags == {"comment": "Samsung 970 EVO Plus"}
    assert run.engine.name == "crystaldiskmark" and run.engine.version == "8.0.4 x64"


def test_provenance_says_iops_is_computed_by_crystaldiskmark_and_latency_is_diskspds_lowest_mean() -> None:
    run = runs_of(crystaldiskmark8())[2]
    assert run.imported is not None
    figures = {f.field: f for f in run.imported.figures}
    assert figures["read.iops"].source == "line 11: 'IOPS' of RND4K Q32T1"
    assert "computed by CrystalDiskMark from its MB/s" in figures["read.iops"].meaning
    assert "lowest of 5 runs' means" in figures["read.lat_ns.mean"].meaning
    assert figures["read.io_count"].derived and not figures["read.iops"].derived
    assert run.imported.tool == "CrystalDiskMark" and run.imported.part == "line 11 (RND4K Q32T1)"


def test_the_q_and_t_spacing_of_each_version_reads_the_same() -> None:
    tests = [DiskmarkTest(True, 4, 1, 1, 60.064, 68.06), DiskmarkTest(True, 4, 32, 16, 2059.413, 1017.55),
             DiskmarkTest(True, 512, 8, 8, 1000.0, 500.0)]
    eight = runs_of(crystaldiskmark8(tests, tests))
    seven = runs_of(crystaldiskmark7(tests, tests))
    assert [(r.workload.block_size_bytes, r.workload.queue_depth, r.workload.numjobs) for r in eight] == \
        [(r.workload.block_size_bytes, r.workload.queue_depth, r.workload.numjobs) for r in seven] == \
        [(4096, 1, 1), (4096, 32, 16), (512 << 10, 8, 8)] * 2
    assert b"(Q=  1, T= 1)" in crystaldiskmark8(tests, tests)


def test_a_crystaldiskmark_7_export_saved_as_utf16_reads_and_assumes_its_5_s_measure() -> None:
    runs = runs_of(crystaldiskmark7())
    assert runs[0].workload.label == "read 1MiB QD8 T1" and runs[0].read.iops == pytest.approx(3387.5, abs=0.05)
    assert runs[0].workload.runtime_s == 5
    assert runs[0].imported is not None and any("5 s assumed" in n for n in runs[0].imported.notes)


def test_a_crystaldiskmark_6_export_has_128_kib_sequential_blocks_and_no_latency() -> None:
    runs = runs_of(crystaldiskmark6())
    assert [r.workload.label for r in runs] == ["read 128KiB QD32 T1", "write 128KiB QD32 T1", "randread 4KiB QD8 T8",
                                                "randwrite 4KiB QD8 T8"]
    seq = runs[0]
    assert seq.read.latency_kind == "none"
    assert seq.imported is not None and seq.imported.latency == "none in the export"
    iops = next(f for f in seq.imported.figures if f.field == "read.iops")
    assert iops.derived and iops.meaning == "bandwidth ÷ access size"
    assert any("128 KiB blocks" in n for n in seq.imported.notes)


def test_mix_lines_are_said_and_not_imported() -> None:
    runs = runs_of(crystaldiskmark8(mix=CDM_DEFAULT))
    assert len(runs) == 8
    assert runs[0].imported is not None and any("[Mix] Read 70%/Write 30% lines" in n for n in runs[0].imported.notes)


def test_a_truncated_export_is_refused_naming_the_line() -> None:
    cut = crystaldiskmark8().split(b"\r\n")
    text = b"\r\n".join(cut[:10]) + b"\r\n" + cut[10][:36]
    with pytest.raises(ImportFailure, match=r"CDM.txt line 11: 'RND    4KiB \(Q= 32, T= 1\):   627.4' does not read"):
        runs_of(text)


def test_an_export_cut_before_its_footer_is_refused() -> None:
    text = crystaldiskmark8().split(b"Profile:")[0]
    with pytest.raises(ImportFailure, match=r"ends before its 'Test:' line"):
        runs_of(text)


def test_the_students_summary_leaves_an_imported_crystaldiskmark_run_out_and_says_so() -> None:
    """A friend's CrystalDiskMark export overlaid on the student's own runs is drawn beside them, but
    the summary's key and best figures are the student's measurements only (it once read 'Most IOPS:
    153,189 (CrystalDiskMark)')."""
    import json
    from pathlib import Path

    from ssdprof.analysis.spec_choice import pick_spec
    from ssdprof.analysis.spec_folders import bundled_spec_dir
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.analysis.summary import summarize
    from ssdprof.model.results import RunResult

    sample = json.loads((Path(__file__).resolve().parents[4] / "src" / "test" / "student-runs.json").read_text())
    own = [RunResult.model_validate(raw) for raw in sample["runs"]]
    imported = [r.model_copy(update={"id": 900 + i}) for i, r in enumerate(runs_of(crystaldiskmark8()))]
    spec, pick = pick_spec(SpecLibrary.load([bundled_spec_dir()]), own[0].environment, None, None)
    alone, together = summarize(own, spec, pick), summarize([*own, *imported], spec, pick)
    assert together.table == alone.table and together.best == alone.best and together.runs == alone.runs
    assert "CrystalDiskMark" not in json.dumps([b.model_dump() for b in together.best])
    [caveat] = [c for c in together.caveats if c.code == "other_tool"]
    assert caveat.run_ids == list(range(900, 908))
    assert "measured by CrystalDiskMark and imported, left out here" in caveat.message
    assert [c for c in together.caveats if c.code != "other_tool"] == alone.caveats
