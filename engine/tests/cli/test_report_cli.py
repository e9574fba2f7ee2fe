"""``ssdprof report``, ``import-table`` and ``import-job`` as a user types them (wired the way cli.py wires cli_hosts)."""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIO_DATA

from ssdprof.cli import report as cli_report
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed (setup.sh installs it)")


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="ssdprof")
    cli_report.register(root.add_subparsers(dest="command"))
    return root


def run(argv: list[str], store: Store) -> int:
    return cli_report.handle(parser().parse_args(argv), store)


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def imported(fresh_store: Store) -> list[int]:
    files = ("fio-3.33_randread_qd1.jsonplus.json", "fio-3.33_randrw_70_30.jsonplus.json", "fio-2.17_pkb_group_reporting.json")
    return [fresh_store.add_run(r).id or 0 for f in files for r in import_fio_output(FIO_DATA / f)]


@pytest.mark.parametrize("command", cli_report.COMMANDS)
def test_every_command_has_help_with_a_runnable_example(command: str) -> None:
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    description = sub.choices[command].description or ""
    assert "example:\n  ssdprof " + command in description


@needs_poppler
def test_report_of_run_ids_writes_a_pdf_with_those_runs(imported: list[int], fresh_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "r.pdf"
    assert run(["report", *map(str, imported[:2]), "-o", str(out), "--title", "Lab 3 results"], fresh_store) == 0
    text = pdf_text(out)
    assert out.read_bytes().startswith(b"%PDF") and "Lab 3 results" in text
    assert "randread 4KiB QD1 T1" in text and "randrw 70%R 4KiB" in text


@needs_poppler
def test_report_of_groups_compares_them(imported: list[int], fresh_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "c.pdf"
    assert run(["report", "--group", f"SATA={imported[0]}", "--group", f"PCIe={imported[1]}", "-o", str(out)], fresh_store) == 0
    assert "Comparison of SATA (1 runs) vs PCIe (1 runs)" in " ".join(pdf_text(out).split())


def test_report_without_runs_or_with_a_bad_group_is_bad_input(fresh_store: Store, tmp_path: Path) -> None:
    with pytest.raises(WorkloadError, match="name run ids"):
        run(["report", "-o", str(tmp_path / "x.pdf")], fresh_store)
    with pytest.raises(WorkloadError, match="LABEL=ID"):
        run(["report", "--group", "SATA", "-o", str(tmp_path / "x.pdf")], fresh_store)
    with pytest.raises(KeyError, match="run 99 does not exist"):
        run(["report", "99", "-o", str(tmp_path / "x.pdf")], fresh_store)
    assert not (tmp_path / "x.pdf").exists()


@needs_poppler
def test_export_pdf_is_the_same_report(imported: list[int], fresh_store: Store, tmp_path: Path) -> None:
    out = tmp_path / "e.pdf"
    runs = [fresh_store.run(i) for i in imported[:1]]
    assert cli_report.export_pdf([r for r in runs if r], out) == 0
    assert "Results" in pdf_text(out)


def test_import_job_without_run_lists_the_workloads_and_measures_nothing(tmp_path: Path, fresh_store: Store,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    job = tmp_path / "j.fio"
    job.write_text("[global]\ndirect=1\nruntime=5\nsize=64m\n[seq]\nrw=read\nbs=1m\niodepth=8\n")
    assert run(["import-job", str(job), "--target", str(tmp_path)], fresh_store) == 0
    out = capsys.readouterr().out
    assert "[seq] read 1MiB QD8 T1, 5 s, direct" in out and "--run" in out
    assert fresh_store.runs() == []
