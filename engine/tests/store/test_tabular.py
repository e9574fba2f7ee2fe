"""Tabular results imported as earlier runs: header spellings, units, assumptions said, malformed files refused by row and column."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from conftest import FIO_DATA

from ssdprof.cli import main as cli
from ssdprof.cli import report as cli_report
from ssdprof.model.workload import Pattern, WorkloadError
from ssdprof.store.db import Store
from ssdprof.store.interchange import export_csv, import_fio_output
from ssdprof.store.tabular import TableImportError, import_table, parse_table

DATASHEET = """\
Block Size,Queue Depth,Direction,IOPS,MB/s,Avg Latency (µs),99.9th percentile latency (ms)
4K,1,Random Read,"14,500",59.4,68.2,0.12
4K,32,Random Read,"480,000",1966,66,0.21
128K,1,Sequential Read,,3500,
4KB,32,Random Write,130000,,
"""


def test_a_datasheet_table_becomes_one_run_per_row_in_canonical_units() -> None:
    imported = parse_table(DATASHEET, "datasheet.csv")
    qd1, qd32, seq, write = imported.runs
    assert (qd1.workload.pattern, qd1.workload.block_size_bytes, qd1.workload.queue_depth) == (Pattern.RANDREAD, 4096, 1)
    assert (qd1.read.iops, qd1.read.bw_bytes_per_s, qd1.read.lat_ns.mean, qd1.read.lat_ns.p99_9) == (14500, 59.4e6, 68200, 120000)
    assert qd32.read.iops == 480_000
    assert (seq.workload.pattern, seq.read.bw_bytes_per_s, seq.read.iops) == (Pattern.READ, 3.5e9, 3.5e9 / 131072)
    assert (write.workload.pattern, write.write.iops, write.read.active) == (Pattern.RANDWRITE, 130_000, False)
    assert all(r.source == "imported:datasheet.csv" and r.engine.name == "imported" for r in imported.runs)


def test_every_assumption_is_said_and_carried_by_each_run() -> None:
    imported = parse_table(DATASHEET, "datasheet.csv")
    said = " | ".join(imported.assumptions)
    assert "KB/MB read as KiB/MiB" in said and "runtime not given" in said and "derived from each other" in said
    assert all(r.warnings[0].code == "imported_table" and "KB/MB read as KiB/MiB" in r.warnings[0].message for r in imported.runs)


def test_units_in_cells_headers_and_european_csv_are_read() -> None:
    text = "bs;qd;rw;throughput;latency\n128 KiB;QD8;seq write;1,5 GB/s;850 us\n"
    (run,) = parse_table(text, "eu.csv").runs
    assert (run.workload.block_size_bytes, run.workload.queue_depth, run.workload.pattern) == (131072, 8, Pattern.WRITE)
    assert (run.write.bw_bytes_per_s, run.write.lat_ns.mean) == (1.5e9, 850_000)


def test_separate_read_and_write_columns_make_one_mixed_run() -> None:
    text = ("block size,queue depth,pattern,read %,read IOPS,write IOPS,read latency (us),write latency (us)\n"
            "4k,16,randrw,70,7000,3000,90,40\n")
    (run,) = parse_table(text, "mixed.csv").runs
    assert (run.workload.pattern, run.workload.read_pct) == (Pattern.RANDRW, 70)
    assert (run.read.iops, run.write.iops, run.read.lat_ns.mean, run.write.lat_ns.mean) == (7000, 3000, 90_000, 40_000)


def test_ssdprofs_own_csv_export_imports_back_to_the_same_numbers() -> None:
    runs = [r for f in ("fio-3.33_randread_qd1.jsonplus.json", "fio-3.33_randrw_70_30.jsonplus.json")
            for r in import_fio_output(FIO_DATA / f)]
    runs = [r.model_copy(update={"id": i + 1}) for i, r in enumerate(runs)]
    back = parse_table(export_csv(runs), "export.csv").runs
    assert len(back) == len(runs)
    for original, imported in zip(runs, back, strict=True):
        assert imported.workload.label == original.workload.label
        for side in ("read", "write"):
            a, b = getattr(original, side), getattr(imported, side)
            assert b.iops == pytest.approx(a.iops, rel=1e-6) and b.bw_bytes_per_s == pytest.approx(a.bw_bytes_per_s, rel=1e-6)
            assert b.clat_ns.p99 == pytest.approx(a.clat_ns.p99, abs=0.1)
            assert b.lat_ns.mean == pytest.approx(a.lat_ns.mean, abs=0.1) and b.lat_ns.p99 == a.lat_ns.p99


@pytest.mark.parametrize(("text", "message"), [
    ("bs,qd,direction,IOPS\n4k,1,read,fast\n", "row 2, column 'IOPS': 'fast' is not a non-negative number"),
    ("bs,qd,direction,IOPS\n4k,1,read,100\n4k,one,read,100\n", "row 3, column 'qd': 'one' is not a whole number"),
    ("bs,qd,direction,IOPS\n3000,1,read,100\n", "row 2, column 'bs': '3000' is not an access size"),
    ("bs,qd,direction,IOPS\n4k,1,sideways,100\n", "row 2, column 'direction': 'sideways' names no direction"),
    ("bs,qd,direction,IOPS\n4k,1,randrw,100\n", "row 2, column 'IOPS': a mixed row needs read and write columns"),
    ("bs,qd,direction,latency (fortnights)\n4k,1,read,3\n", "row 2, column 'latency (fortnights)': unknown unit"),
    ("bs,qd,direction\n4k,1,read\n", "row 1: no IOPS, bandwidth"),
    ("qd,direction,IOPS\n1,read,100\n", "row 1: no bs column"),
    ("", "empty file"),
])
def test_a_malformed_table_is_refused_naming_the_row_and_column(text: str, message: str) -> None:
    with pytest.raises(TableImportError) as caught:
        parse_table(text, "bad.csv")
    assert str(caught.value).startswith("bad.csv") and message in str(caught.value)


def _cli(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ssdprof")
    cli_report.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_import_table_stores_the_rows_as_tagged_earlier_runs(tmp_path: Path, fresh_store: Store,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "vendor.csv"
    path.write_text(DATASHEET)
    assert cli_report.handle(_cli(["import-table", str(path), "--tag", "source=vendor"]), fresh_store) == 0
    stored = fresh_store.runs()
    assert len(stored) == 4 and all(r.tags == {"source": "vendor"} and r.source == "imported:vendor.csv" for r in stored)
    assert "\n4K,32,Random Read" in fresh_store.raw_output(stored[1].id or 0)
    out = capsys.readouterr().out
    assert "imported run 1: randread 4KiB QD1 T1 from vendor.csv" in out and "assumed: " in out


def test_a_malformed_file_stores_nothing(tmp_path: Path, fresh_store: Store) -> None:
    path = tmp_path / "half.csv"
    path.write_text("bs,qd,direction,IOPS\n4k,1,read,100\n4k,1,read,lots\n")
    with pytest.raises(WorkloadError, match="row 3, column 'IOPS'"):
        cli_report.handle(_cli(["import-table", str(path)]), fresh_store)
    assert fresh_store.runs() == []


def test_a_file_that_is_not_text_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "binary.csv"
    path.write_bytes(b"\xff\xfe\x00bs")
    with pytest.raises(TableImportError, match="not UTF-8"):
        import_table(path)


MIB_LABELLED_MB = """\
bs,qd,direction,IOPS,MB/s
4k,1,randread,20000,78.1
4k,32,randread,120000,468.8
"""


def test_a_mb_per_s_column_that_is_really_mib_per_s_is_read_as_mib_and_said_so() -> None:
    imported = parse_table(MIB_LABELLED_MB, "tool.csv")
    for run, iops in zip(imported.runs, (20000, 120000), strict=True):
        assert run.read.bw_bytes_per_s == pytest.approx(iops * 4096, rel=0.001)
        (warning,) = [w for w in run.warnings if w.code == "bandwidth_unit_reinterpreted"]
        assert "labelled MB/s" in warning.message and "read as MiB/s" in warning.message and "tool.csv row" in warning.message
    assert len(imported.unit_warnings) == 2


def test_a_bandwidth_that_contradicts_its_iops_is_kept_with_both_figures_named() -> None:
    imported = parse_table("bs,qd,direction,IOPS,MB/s\n4k,1,randread,20000,40\n4k,1,randwrite,10000,41.0\n", "odd.csv")
    contradicted, fine = imported.runs
    assert contradicted.read.bw_bytes_per_s == 40e6  # kept as given, never silently changed
    (warning,) = [w for w in contradicted.warnings if w.code == "bandwidth_contradicts_iops"]
    assert "odd.csv row 2, read" in warning.message and "40.00 MB/s" in warning.message and "81.92 MB/s" in warning.message
    assert not [w for w in fine.warnings if w.code.startswith("bandwidth_")]
    assert imported.unit_warnings == [warning.message]


def test_a_table_whose_figures_agree_gets_no_unit_warning() -> None:
    assert parse_table(DATASHEET, "datasheet.csv").unit_warnings == []


def test_clat_columns_are_completion_latency_and_other_latency_columns_total() -> None:
    (run,) = parse_table("bs,qd,direction,IOPS,lat_ns_mean,clat_ns_mean,slat_ns_mean\n4k,1,randread,1000,60000,50000,10000\n").runs
    assert (run.read.lat_ns.mean, run.read.clat_ns.mean) == (60000, 50000)


def test_cli_import_table_prints_the_unit_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "tool.csv"
    table.write_text(MIB_LABELLED_MB)
    assert cli.main(["import-table", str(table), "--db", str(tmp_path / "r.db")]) == 0
    out = capsys.readouterr().out
    assert out.count("warning: tool.csv row") == 2 and "read as MiB/s" in out
