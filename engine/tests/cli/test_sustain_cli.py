"""``ssdprof sustain`` through the real command line: the estimate as the contract's model, a small run's
result as JSON, and the stored test read back."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from conftest import requires_fio

from ssdprof.app.contract.sustain import SustainEstimate
from ssdprof.model.sustain_results import SustainResult

SMALL = ["--size", "32MiB", "--write", "40MiB", "--idle", "0.5s", "--recovery", "8MiB", "--bs", "64k", "--qd", "4",
         "--engine", "fio"]


def ssdprof(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdprof", "sustain", *args], capture_output=True, text=True,
                          timeout=300, check=False)


def test_the_estimate_as_json_is_the_contracts_model_and_writes_nothing(disk_dir: Path) -> None:
    done = ssdprof("--target", str(disk_dir), *SMALL, "--estimate", "--json", "--db", str(disk_dir / "r.db"))
    assert done.returncode == 0, done.stderr
    estimate = SustainEstimate.model_validate_json(done.stdout)
    assert estimate.write_bytes == 40 << 20 and estimate.parameters.idle_s == [0.5]
    assert not list(disk_dir.glob("ssdprof-*"))


def test_a_bad_flag_is_named_with_what_it_allows(disk_dir: Path) -> None:
    done = ssdprof("--target", str(disk_dir), "--idle", "later", "--estimate", "--db", str(disk_dir / "r.db"))
    assert done.returncode != 0 and "--idle" in done.stderr and "10s,30s,60s,5m" in done.stderr


@requires_fio
def test_a_small_run_prints_its_result_as_json_and_is_stored(disk_dir: Path) -> None:
    db = str(disk_dir / "r.db")
    done = ssdprof("--target", str(disk_dir), *SMALL, "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    result = SustainResult.model_validate_json(done.stdout)
    assert result.status == "done" and result.fill_bytes >= 36 << 20 and result.recovery[0].status == "done"
    assert "sustained-write test" in done.stderr
    listed = json.loads(ssdprof("--list", "--json", "--db", db).stdout)
    assert [t["id"] for t in listed] == [result.id]
    shown = ssdprof("--show", str(result.id), "--db", db)
    assert shown.returncode == 0 and shown.stdout.startswith(f"sustained-write test {result.id}: ")
    assert " idle: done" in shown.stdout


@requires_fio
def test_a_kept_test_file_is_named_with_its_size_in_the_text_and_the_json(disk_dir: Path) -> None:
    done = ssdprof("--target", str(disk_dir), *SMALL, "--keep-file", "--json", "--db", str(disk_dir / "r.db"))
    assert done.returncode == 0, done.stderr
    result = SustainResult.model_validate_json(done.stdout)
    kept = disk_dir / f"ssdprof-testfile-sustain{result.id}.dat"
    assert kept.stat().st_size == 32 << 20
    assert (result.test_file, result.test_file_bytes) == (str(kept), 32 << 20)
    assert f"kept the test file {kept} (32.00 MiB)" in done.stderr
    kept.unlink()


@requires_fio
def test_a_cancelled_test_names_the_file_it_keeps_and_its_true_size(disk_dir: Path) -> None:
    sizes = [*SMALL[:2], "--write", "64MiB", "--idle", "60s", *SMALL[6:]]
    command = [sys.executable, "-m", "ssdprof", "sustain", "--target", str(disk_dir), *sizes, "--db", str(disk_dir / "r.db")]
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True) as child:
        assert child.stderr is not None
        for line in child.stderr:
            if line.startswith("idle "):  # the fill is done: cancel in the first idle
                child.send_signal(signal.SIGINT)
                break
        said = child.stderr.read()
        assert child.wait(timeout=60) == 130, said
    kept = next(disk_dir.glob("ssdprof-testfile-sustain*.dat"))
    assert f"its test file {kept} (32.00 MiB)" in said and "as large as the fill" not in said


def test_the_portable_engine_is_refused_before_the_estimate_and_nothing_is_stored(disk_dir: Path) -> None:
    db = str(disk_dir / "r.db")
    done = ssdprof("--target", str(disk_dir), *SMALL[:-1], "portable", "--db", db)
    assert done.returncode == 2 and "engine (--engine): a sustained-write test needs fio" in done.stderr
    assert "wear" not in done.stderr  # no estimate was printed
    assert json.loads(ssdprof("--list", "--json", "--db", db).stdout) == []
