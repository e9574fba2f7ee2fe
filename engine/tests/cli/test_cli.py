"""The CLI as a user runs it: a real process, real fio, a real database file."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import FIO_DATA, requires_fio

from ssdprof.cli.parser import build_parser

SHORT = ["--runtime", "1", "--ramp", "0", "--size", "32MiB"]


def ssdprof(*args: str, db: Path, check: bool = False, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "ssdprof", *args, "--db", str(db)], capture_output=True, text=True,
                          timeout=300, check=False, **kwargs)
    if check and done.returncode != 0:
        raise AssertionError(done.stderr)
    return done


def subcommands(parser: Any) -> list[tuple[str, Any]]:
    action = next((a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"), None)
    found = []
    for name, sub in (action.choices.items() if action else []):
        found.append((name, sub))
        found += [(f"{name} {n}", s) for n, s in subcommands(sub)]
    return found


def test_every_command_has_help_with_a_runnable_example() -> None:
    commands = subcommands(build_parser())
    assert {"run", "sweep", "runs", "runs list", "export", "import", "presets"} <= {n for n, _ in commands}
    for name, parser in commands:
        assert "example:" in parser.format_help(), name
        assert "ssdprof " in parser.format_help().split("example:")[1], name


def test_ssdprof_help_exits_0_and_lists_every_command() -> None:
    # as a newcomer types it: a child process, so a crash in argparse's formatting is a failure here
    done = subprocess.run([sys.executable, "-m", "ssdprof", "--help"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "compare" in done.stdout and "95 % CI" in done.stdout


def test_every_command_and_subcommand_help_exits_0_with_its_example(capsys: pytest.CaptureFixture[str]) -> None:
    from ssdprof.cli.main import main

    for name, _ in [("", None), *subcommands(build_parser())]:
        with pytest.raises(SystemExit) as exited:
            main([*name.split(), "--help"])
        printed = capsys.readouterr().out
        assert exited.value.code == 0, name
        assert "example:" in printed and "ssdprof " in printed.split("example:")[1], name


@pytest.mark.parametrize(("args", "field_words"), [
    (["--bs", "1000"], "access size (--bs): 1000 bytes is not a multiple of 512 bytes"),
    (["--qd", "0"], "queue depth (--qd): 0 is out of range; allowed 1–4096, e.g. 32"),
    (["--rw", "randrw", "--read-pct", "120"], "read share (--read-pct): 120 is out of range"),
    (["--runtime", "0"], "runtime (--runtime): 0 is out of range"),
    (["--rw", "sideways"], "pattern (--rw): 'sideways' is not one of the choices"),
    (["--size", "100000000GiB"], "test size (--size)"),
    (["--target", "/proc/self"], "target (--target)"),
])
def test_bad_input_exits_2_with_a_message_naming_the_field_and_runs_nothing(tmp_path: Path, args: list[str], field_words: str) -> None:
    done = ssdprof("run", *args, db=tmp_path / "r.db")
    assert done.returncode == 2
    assert field_words in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_input_with_json_prints_the_problems_as_json(tmp_path: Path) -> None:
    done = ssdprof("run", "--qd", "0", "--json", db=tmp_path / "r.db")
    problems = json.loads(done.stdout)["problems"]
    assert problems[0]["field"] == "queue_depth" and problems[0]["message"] == "0 is out of range; allowed 1–4096, e.g. 32"


def test_presets_are_listed_with_their_point_counts(tmp_path: Path) -> None:
    presets = json.loads(ssdprof("presets", "--json", db=tmp_path / "r.db", check=True).stdout)["presets"]
    assert {p["name"]: p["points"] for p in presets}["student"] == 10


def test_sweep_estimate_prints_points_and_duration_without_running(tmp_path: Path) -> None:
    done = ssdprof("sweep", "--preset", "student", "--runtime", "5", "--ramp", "1", "--estimate", db=tmp_path / "r.db", check=True)
    assert "10 point(s)" in done.stdout and "estimated 1m0" in done.stdout  # 10 x (6 s + overhead) + layout


@requires_fio
def test_run_json_has_the_documented_stable_fields(disk_dir: Path) -> None:
    db = disk_dir.parent / f"{disk_dir.name}.db"
    done = ssdprof("run", "--target", str(disk_dir), *SHORT, "--json", "--tag", "interface=virtio", db=db, check=True)
    run = json.loads(done.stdout)
    assert {"engine", "workload", "environment", "warnings", "hosts", "read", "write", "tags"} <= set(run)
    assert set(run["read"]) >= {"io_count", "iops", "bw_bytes_per_s", "lat_ns", "clat_ns", "slat_ns", "latency_kind"}
    for latency in ("lat_ns", "clat_ns"):
        assert set(run["read"][latency]) >= {"samples", "mean", "stddev", "min", "max", "p50", "p90", "p95", "p99", "p99_9",
                                             "p99_99", "from_bins"}
    assert set(run["read"]["slat_ns"]) >= {"samples", "mean", "stddev", "min", "max"}
    assert run["read"]["latency_kind"] == "total" and run["read"]["lat_ns"]["from_bins"]
    assert run["hosts"][0]["host"] == "local" and run["tags"] == {"interface": "virtio"}
    assert "lat_bins_ns" not in run["read"] and "clat_bins_ns" not in run["read"]
    (disk_dir.parent / f"{disk_dir.name}.db").unlink()


@requires_fio
def test_ssdprof_reports_exactly_what_fio_measured(disk_dir: Path) -> None:
    """The wrapper adds nothing but truth: its numbers are fio's own, from the raw output it stored.
    (Side by side against a separate plain fio run, within 5 %: bench/fio_agreement.py.)"""
    db = disk_dir.parent / f"{disk_dir.name}.db"
    run = json.loads(ssdprof("run", "--engine", "fio", "--target", str(disk_dir), *SHORT, "--qd", "4", "--json", db=db, check=True).stdout)
    raw = ssdprof("runs", "show", str(run["id"]), "--raw", db=db, check=True).stdout
    documents = [json.loads("{" + part) for part in ("\n" + raw).split("\n{")[1:]]
    fio_read = documents[-1]["jobs"][0]["read"]
    db.unlink()
    assert run["read"]["io_count"] == fio_read["total_ios"]
    assert run["read"]["iops"] == fio_read["iops"]
    assert run["read"]["bw_bytes_per_s"] == fio_read["bw_bytes"]
    for latency in ("lat_ns", "clat_ns"):
        assert run["read"][latency]["p50"] == fio_read[latency]["percentile"]["50.000000"]
        assert run["read"][latency]["p99_9"] == fio_read[latency]["percentile"]["99.900000"]
        assert run["read"][latency]["mean"] == pytest.approx(fio_read[latency]["mean"])
    assert run["read"]["slat_ns"]["mean"] == pytest.approx(fio_read["slat_ns"]["mean"])


def running_fio_on(directory: Path) -> list[psutil.Process]:
    """fio processes (not zombies) whose job file names a test file in ``directory``."""
    found = []
    for process in psutil.process_iter(["name"]):
        try:
            if process.info["name"] == "fio" and process.status() != psutil.STATUS_ZOMBIE:
                job = next((Path(a) for a in process.cmdline() if a.endswith("job.fio")), None)
                if job and job.exists() and str(directory) in job.read_text():
                    found.append(process)
        except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
            continue
    return found


@requires_fio
def test_ctrl_c_stops_fio_keeps_finished_points_and_removes_the_test_file(disk_dir: Path) -> None:
    db = disk_dir.parent / f"{disk_dir.name}.db"
    process = subprocess.Popen([sys.executable, "-m", "ssdprof", "sweep", "--vary", "qd=1,2,4,8", "--target", str(disk_dir),
                                "--runtime", "2", "--ramp", "0", "--size", "32MiB", "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_runs(db, 1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "--resume" in out
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM runs").fetchone()[0] >= 1
    assert [p.name for p in disk_dir.iterdir()] == []
    assert not running_fio_on(disk_dir)
    db.unlink()


def wait_for_runs(db: Path, count: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if sqlite3.connect(db).execute("SELECT COUNT(*) FROM runs").fetchone()[0] >= count:
                return
        except sqlite3.OperationalError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"fewer than {count} runs stored in {timeout_s} s")


@requires_fio
def test_a_killed_sweep_resumes_without_losing_or_repeating_finished_points(disk_dir: Path) -> None:
    db = disk_dir.parent / f"{disk_dir.name}.db"
    args = ["sweep", "--vary", "qd=1,2,4", "--target", str(disk_dir), "--runtime", "1", "--ramp", "0", "--size", "32MiB"]
    process = subprocess.Popen([sys.executable, "-m", "ssdprof", *args, "--db", str(db)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_runs(db, 1)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    before = sqlite3.connect(db).execute("SELECT id, point_index FROM runs ORDER BY id").fetchall()
    deadline = time.monotonic() + 5  # fio learns of its parent's death (Linux: PR_SET_PDEATHSIG) and stops
    while running_fio_on(disk_dir) and time.monotonic() < deadline:
        time.sleep(0.1)
    # ... except when fio 3.33 deadlocks in its own SIGTERM handler (seen once in CI): then the next run ends it by PID
    hung = running_fio_on(disk_dir)
    done = ssdprof("sweep", "--resume", "--json", db=db, check=True)
    assert not [p for p in hung if p.is_running() and p.status() != psutil.STATUS_ZOMBIE], hung
    resumed = json.loads(done.stdout)
    after = sqlite3.connect(db).execute("SELECT id, point_index FROM runs ORDER BY id").fetchall()
    assert after[: len(before)] == before
    assert sorted(p for _, p in after) == [0, 1, 2]
    assert resumed["status"] == "done"
    assert [p.name for p in disk_dir.iterdir()] == []  # the killed run's test file was cleaned up too
    assert not list(Path(tempfile.gettempdir()).glob(f"ssdprof-job-{process.pid}-*"))  # and its fio job folder
    db.unlink()


@requires_fio
@pytest.mark.parametrize("engine", ["fio", "portable"])
def test_a_target_typed_relative_to_the_folder_the_command_runs_in_is_measured_there(disk_dir: Path, engine: str,
                                                                                     tmp_path: Path) -> None:
    """fio runs in a scratch folder of its own: a relative --target failed every point ('file creation disallowed')."""
    done = ssdprof("run", "--target", disk_dir.name, "--engine", engine, *SHORT, "--json", db=tmp_path / "runs.db",
                   check=True, cwd=disk_dir.parent)
    assert json.loads(done.stdout)["status"] == "ok"


@requires_fio
def test_runs_list_show_tag_and_export_round_trip(disk_dir: Path) -> None:
    db = disk_dir.parent / f"{disk_dir.name}.db"
    ssdprof("run", "--target", str(disk_dir), *SHORT, db=db, check=True)
    listed = json.loads(ssdprof("runs", "list", "--json", db=db, check=True).stdout)["runs"]
    run_id = str(listed[0]["id"])
    ssdprof("runs", "tag", run_id, "interface=SATA", db=db, check=True)
    assert json.loads(ssdprof("runs", "list", "--tag", "interface=SATA", "--json", db=db, check=True).stdout)["runs"]
    assert "randread 4KiB QD1 T1" in ssdprof("runs", "show", run_id, db=db, check=True).stdout
    assert ssdprof("runs", "show", run_id, "--raw", db=db, check=True).stdout.lstrip().startswith("{")
    csv_text = ssdprof("export", run_id, "--format", "csv", db=db, check=True).stdout
    assert csv_text.splitlines()[0].startswith("run_id,") and "bw_MB_per_s" in csv_text and len(csv_text.splitlines()) == 2
    job = disk_dir / "repro.fio"
    ssdprof("export", run_id, "--format", "fio", "-o", str(job), db=db, check=True)
    replay = subprocess.run(["fio", "--output-format=json", str(job)], capture_output=True, text=True, check=True, cwd=disk_dir)
    assert json.loads(replay.stdout)["jobs"][0]["read"]["iops"] > 0
    assert "does not exist" in ssdprof("runs", "show", "9999", db=db).stderr
    db.unlink()


def test_import_takes_fio_output_of_any_version_and_refuses_anything_else(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    done = ssdprof("import", str(FIO_DATA / "fio-2.17_pkb_group_reporting.json"), str(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json"),
                   "--json", db=db, check=True)
    runs = json.loads(done.stdout)["runs"]
    assert runs and all(r["source"].startswith("imported:") for r in runs)
    assert any(len(r["hosts"]) == 2 for r in runs)
    bogus = tmp_path / "notes.txt"
    bogus.write_text("these are my notes\n")
    refused = ssdprof("import", str(bogus), db=db)
    assert refused.returncode == 2 and "not a result file ssdprof recognises by its content" in refused.stderr


def test_import_recognises_other_tools_files_by_content_stores_each_once_and_nothing_from_a_bad_batch(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "store" / "imports"))
    from tool_outputs import DiskspdThread, crystaldiskmark8, diskspd_xml, kdiskmark3

    db = tmp_path / "r.db"
    cdm, kdm, xml = tmp_path / "friend.log", tmp_path / "kdm.txt", tmp_path / "disk.out"  # names say nothing: content does
    cdm.write_bytes(crystaldiskmark8())
    kdm.write_bytes(kdiskmark3())
    xml.write_bytes(diskspd_xml([DiskspdThread(0, 1000, 0, 0.1)], latency=False))
    bad = tmp_path / "cut.txt"
    bad.write_bytes(crystaldiskmark8()[:700])
    refused = ssdprof("import", str(cdm), str(bad), db=db)
    assert refused.returncode == 2 and "cut.txt line" in refused.stderr
    assert ssdprof("runs", "list", "--json", db=db, check=True).stdout.count('"id"') == 0
    done = ssdprof("import", str(cdm), str(kdm), str(xml), "--json", db=db, check=True)
    sources = json.loads(done.stdout)["sources"]
    assert [(s["format"], len(s["run_ids"])) for s in sources] == [
        ("CrystalDiskMark text export", 8), ("KDiskMark text export", 8), ("diskspd XML results", 1)]
    again = ssdprof("import", str(cdm), db=db, check=True).stdout
    assert "8 already stored from the same content (runs 1–8): not stored again" in again


def test_repeats_beyond_the_limit_are_refused_naming_the_flag(tmp_path: Path) -> None:
    done = ssdprof("run", "--repeat", "1001", db=tmp_path / "r.db")  # found by the property tests: it was a traceback
    assert done.returncode == 2
    assert "repeats (--repeat): 1001 is out of range; allowed 1–1000" in done.stderr and "Traceback" not in done.stderr
