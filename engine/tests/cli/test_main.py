"""``ssdprof`` starts with the module of the command it runs and no other: a study's ``compare``,
``correlate`` and ``predict`` on a big store answer within a second (issue 28)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIO_DATA

from ssdprof.cli.main import main
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output

HEAVY = ("ssdprof.app.runner", "ssdprof.fio", "ssdprof.remote", "ssdprof.portable", "ssdprof.report",
         "matplotlib", "ssdprof.cli.measure", "ssdprof.cli.report", "ssdprof.cli.hosts")

LOADED = """
import json, sys
from ssdprof.cli.main import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:  # --help
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def loaded(*argv: str) -> tuple[int, set[str]]:
    """The exit code of ``ssdprof ARGV`` in a fresh interpreter, and every module it had loaded."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True,
                          timeout=120, check=False)
    answer = json.loads(done.stderr.strip().splitlines()[-1])
    return answer["code"], set(answer["modules"])


@pytest.fixture
def two_runs(tmp_path: Path) -> str:
    db = tmp_path / "r.db"
    store = Store(db)
    try:
        for name in ("fio-3.33_randread_qd1.jsonplus.json", "fio-3.33_randrw_70_30.jsonplus.json"):
            for run in import_fio_output(FIO_DATA / name):
                store.add_run(run)
    finally:
        store.close()
    return str(db)


@pytest.mark.parametrize("argv", [["compare", "1", "--with", "2"], ["correlate", "1", "2"],
                                  ["predict", "1", "2", "--metric", "iops"]])
def test_a_study_command_loads_no_runner_fio_hosts_or_pdf_code(two_runs: str, argv: list[str]) -> None:
    code, modules = loaded(*argv, "--db", two_runs)
    assert code in (0, 1)  # predict on two unlike runs may find nothing to fit: still no heavy module
    heavy = sorted(m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY))
    assert heavy == []


def test_help_for_one_command_loads_only_its_module() -> None:
    code, modules = loaded("compare", "--help")
    assert code == 0 and "ssdprof.cli.analysis" in modules
    assert {"ssdprof.cli.curve", "ssdprof.cli.runs", "ssdprof.cli.pts", "ssdprof.cli.sustain"}.isdisjoint(modules)


def test_no_command_prints_the_whole_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out = capsys.readouterr().out
    assert all(f"    {name}" in out for name in ("run", "compare", "sustain", "serve"))


def test_an_unknown_command_is_refused_with_every_command_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["comapre", "1"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'comapre'" in err and "'compare'" in err and "'sustain'" in err


def test_a_missing_run_exits_1_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["runs", "show", "9", "--db", str(tmp_path / "r.db")]) == 1
    assert "run 9 does not exist" in capsys.readouterr().err


def test_a_file_no_tool_wrote_exits_2_saying_what_import_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["import", str(notes), "--db", str(tmp_path / "r.db")]) == 2
    err = capsys.readouterr().err
    assert "not a result file ssdprof recognises by its content" in err and "CrystalDiskMark text export" in err


def test_output_piped_to_a_reader_that_went_away_ends_quietly_with_141(tmp_path: Path) -> None:
    """``ssdprof runs list --json | head``: head exits after its lines; ssdprof stops as a shell tool does."""
    listing = subprocess.Popen([sys.executable, "-m", "ssdprof", "sweeps", "list", "--json", "--db", str(tmp_path / "r.db")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert listing.stdout is not None and listing.stderr is not None
    listing.stdout.close()  # the reader is gone before a line is written
    said = listing.stderr.read()
    assert listing.wait(timeout=120) == 141
    assert "Traceback" not in said and "BrokenPipeError" not in said, said


def test_a_broken_pipe_of_its_own_is_not_taken_for_the_reader_going_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake for a fault not caused here for real: a child's or a host's pipe broke while stdout is fine."""
    import ssdprof.cli.main as cli_main

    def broken(_: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli_main, "_dispatch", broken)
    r, w = os.pipe()  # standard output: a pipe whose reader is still there
    monkeypatch.setattr(sys, "stdout", os.fdopen(w, "w"))
    try:
        with pytest.raises(BrokenPipeError):
            main(["sweeps", "list", "--db", str(tmp_path / "r.db")])
    finally:
        sys.stdout.close()
        os.close(r)
