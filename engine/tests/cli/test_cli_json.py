"""The CLI's ``--json`` is the contract's own serialisation: every output read back with its model
(``app/contract/cli.py``), so the keys a script reads and the contract cannot drift apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIO_DATA, requires_fio

from ssdprof.app.contract.cli import (
    CurvePdfWritten,
    InvalidInput,
    JobFileRead,
    OneRun,
    ReportWritten,
    RunsImported,
    RunsListed,
    SweepRan,
    TableImported,
)
from ssdprof.cli.main import main
from ssdprof.model.curves import CurveSummary

SHORT = ["--runtime", "1", "--ramp", "0", "--size", "32MiB"]
TABLE = "Block Size,Queue Depth,Direction,IOPS,MB/s\n4K,1,Random Read,14500,59.4\n128K,1,Sequential Read,,3500\n"


def printed(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    assert main(list(argv)) == code, capsys.readouterr().err
    return capsys.readouterr().out


def test_bad_input_prints_every_problem_as_the_invalid_input_model(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = printed(capsys, "run", "--qd", "0", "--bs", "1000", "--json", "--db", str(tmp_path / "r.db"), code=2)
    found = InvalidInput.model_validate_json(out)
    assert found.error == "invalid input"
    assert {p.field for p in found.problems} == {"queue_depth", "block_size_bytes"}


def test_imported_runs_listed_shown_and_tagged_read_back_as_the_contract_s_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "r.db")]
    fio_file = str(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")
    imported = RunsImported.model_validate_json(printed(capsys, "import", fio_file, "--json", *db))
    (run,) = imported.runs
    assert run.id == 1 and run.workload.label == "randread 4KiB QD1 T1" and run.read.iops > 0
    listed = RunsListed.model_validate_json(printed(capsys, "runs", "list", "--json", *db))
    assert listed.total == 1 and listed.runs[0].read == run.read
    shown = printed(capsys, "runs", "show", "1", "--json", *db)
    assert OneRun.model_validate_json(shown).root.workload == run.workload
    # the stable shape a script reads: no histogram bins, no per-second progress
    assert "lat_bins_ns" not in json.loads(shown)["read"] and "progress" not in json.loads(shown)
    tagged = OneRun.model_validate_json(printed(capsys, "runs", "tag", "1", "interface=SATA", "--json", *db))
    assert tagged.root.tags == {"interface": "SATA"}


def test_an_imported_table_reads_back_with_its_assumptions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "vendor.csv"
    table.write_text(TABLE)
    out = printed(capsys, "import-table", str(table), "--json", "--db", str(tmp_path / "r.db"))
    found = TableImported.model_validate_json(out)
    assert len(found.runs) == 2 and found.assumptions
    assert set(json.loads(out)) == {"runs", "assumptions", "unit_warnings"}


def test_a_job_file_read_without_run_lists_each_job_as_its_workload(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "j.fio"
    job.write_text("[global]\ndirect=1\nruntime=5\nsize=64m\n[seq]\nrw=read\nbs=1m\niodepth=8\n")
    out = printed(capsys, "import-job", str(job), "--target", str(tmp_path), "--json", "--db", str(tmp_path / "r.db"))
    (read,) = JobFileRead.model_validate_json(out).jobs
    assert read.name == "seq" and read.workload.label == "read 1MiB QD8 T1"


def test_a_report_written_reads_back_with_its_file_size_and_runs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "r.db")]
    printed(capsys, "import", str(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json"), *db)
    pdf = tmp_path / "r.pdf"
    written = ReportWritten.model_validate_json(printed(capsys, "report", "1", "-o", str(pdf), "--json", *db))
    assert (written.output, written.bytes, written.runs) == (str(pdf), pdf.stat().st_size, 1)


@requires_fio
def test_a_run_reads_back_as_one_run_and_a_sweep_as_how_it_ended(
        disk_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(disk_dir.parent / f"{disk_dir.name}.db")]
    one = OneRun.model_validate_json(printed(capsys, "run", "--target", str(disk_dir), *SHORT, "--json", *db))
    assert one.root.status == "ok" and one.root.read.io_count > 0
    out = printed(capsys, "sweep", "--vary", "qd=1,2", "--target", str(disk_dir), *SHORT, "--json", *db)
    ran = SweepRan.model_validate_json(out)
    assert ran.status == "done" and ran.sweep_id is not None and ran.reason == ""
    assert [r.workload.queue_depth for r in ran.runs] == [1, 2]
    assert set(json.loads(out)) == {"sweep_id", "status", "reason", "runs"}


@requires_fio
def test_a_job_file_measured_reads_back_as_how_its_sweep_ended(
        disk_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    job = disk_dir / "j.fio"
    job.write_text("[global]\ndirect=1\nruntime=1\nsize=32m\n[rand]\nrw=randread\nbs=4k\niodepth=2\n")
    out = printed(capsys, "import-job", str(job), "--target", str(disk_dir), "--run", "--json",
                  "--db", str(disk_dir.parent / f"{disk_dir.name}.db"))
    ran = SweepRan.model_validate_json(out)
    assert ran.status == "done" and [r.tags["job_file"] for r in ran.runs] == ["j.fio"]


@requires_fio
def test_a_curve_and_its_page_read_back_as_the_curve_and_the_pdf_written(
        disk_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(disk_dir.parent / f"{disk_dir.name}.db")]
    out = printed(capsys, "curve", "--target", str(disk_dir), "--qd", "4", "--runtime", "0.5", "--ramp", "0",
                  "--size", "32MiB", "--points", "50", "--json", *db)
    curve = CurveSummary.model_validate_json(out)
    assert curve.status == "done" and len(curve.points) == 2 and curve.sweep_id is not None
    pdf = tmp_path / "c.pdf"
    out = printed(capsys, "curve", "--show", str(curve.sweep_id), "--format", "pdf", "-o", str(pdf), "--json", *db)
    written = CurvePdfWritten.model_validate_json(out)
    assert (written.output, written.bytes, written.points) == (str(pdf), pdf.stat().st_size, 2)
