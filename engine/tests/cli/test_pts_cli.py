"""``ssdprof pts`` end to end through the real command line, scaled down (a small region on the local disk,
one-second rounds), on fio and on the portable engine; the JSON checked against an independent recomputation
from the rounds it reports, and the PDF report read back with poppler."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import _disk_dir, requires_fio

needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed (setup.sh installs it)")
SCALED_DOWN = ["--profile", "laptop", "--size", "16MiB", "--round-time", "1s", "--window", "3", "--min-rounds", "3",
               "--max-rounds", "3", "--bs", "4k", "--mixes", "0", "--passes", "0.5"]
STEADY_STATE_FIELDS = {"attained", "rounds", "window", "tracking", "mean", "slope_per_round", "data_excursion", "data_limit",
                       "slope_excursion", "slope_limit"}


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ssdprof-pts-cli-", dir=_disk_dir()))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def ssdprof(*args: str | Path, db: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ssdprof", *(str(a) for a in args), "--db", str(db)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False)


def run_pts(test: str, engine: str, folder: Path, *extra: str) -> tuple[dict[str, Any], str]:
    target = folder / f"{test}-{engine}"
    target.mkdir()
    done = ssdprof("pts", test, "--target", target, "--engine", engine, *SCALED_DOWN, *extra, "--json", db=folder / "pts.db")
    assert done.returncode == 0, done.stderr
    assert list(target.iterdir()) == []  # the test file is removed once the test is done
    return json.loads(done.stdout), done.stderr


def recomputed(values: list[float]) -> tuple[float, float, float]:
    """mean, max - min, and the least-squares line's change across the window, by hand."""
    n = len(values)
    xs = list(range(n))
    mean_x, mean_y = sum(xs) / n, sum(values) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, values, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
    return mean_y, max(values) - min(values), abs(slope) * (n - 1)


def check_steady_state(result: dict[str, Any]) -> None:
    steady = result["steady_state"]
    assert set(steady) >= STEADY_STATE_FIELDS
    assert steady["rounds"] == len(result["rounds"]) == 3 and steady["window"] == [1, 3]
    values = [r["tracking_value"] for r in result["rounds"]]
    mean, data, slope = recomputed(values)
    assert steady["mean"] == pytest.approx(mean)
    assert steady["data_excursion"] == pytest.approx(data)
    assert steady["slope_excursion"] == pytest.approx(slope)
    assert steady["data_limit"] == pytest.approx(0.2 * mean) and steady["slope_limit"] == pytest.approx(0.1 * mean)
    assert steady["attained"] == (data <= 0.2 * mean and slope <= 0.1 * mean)
    assert all(len(r["runs"]) == 1 for r in result["rounds"])


@requires_fio
def test_pts_iops_on_fio_reports_rounds_steady_state_matrix_drive_state_and_parameters(folder: Path) -> None:
    result, stderr = run_pts("iops", "fio", folder)
    assert "NOT PTS-compliant" in stderr and "tracking: 4KiB random 0/100 IOPS" in stderr
    assert result["test"] == "iops" and result["status"] == "done"
    assert result["profile"] == "laptop" and not result["pts_compliant"] and "NOT PTS-compliant" in result["compliance_note"]
    check_steady_state(result)
    assert result["steady_state"]["tracking"] == "4KiB random 0/100 IOPS" and result["steady_state"]["unit"] == "IOPS"
    assert result["parameters"]["engine"] == "fio" and result["parameters"]["round_time_s"] == 1
    assert result["parameters"]["queue_depth"] == 32 and result["parameters"]["window"] == 3
    cell = result["matrix"][0]
    assert (cell["block_size_bytes"], cell["read_pct"], cell["mix"]) == (4096, 0, "0/100")
    assert cell["iops"] == pytest.approx(sum(r["tracking_value"] for r in result["rounds"]) / 3)
    state = result["drive_state"]
    assert state["preparation"] == "precondition" and state["preconditioning"]["bytes_written"] >= 8 << 20
    assert state["preconditioning"]["block_size_bytes"] == 128 << 10
    run_ids = [i for r in result["rounds"] for i in r["runs"]]
    shown = json.loads(ssdprof("runs", "show", run_ids[-1], "--json", db=folder / "pts.db").stdout)
    assert shown["tags"]["pts"] == str(result["id"]) and shown["tags"]["pts_round"] == "3"
    assert shown["tags"]["pts_test"] == "iops" and shown["tags"]["pts_mix"] == "0/100"
    assert shown["drive_state"]["pts_round"] == 3
    assert shown["drive_state"]["steady_state"] == ("reached" if result["steady_state"]["attained"] else "not-reached")


@requires_fio
def test_pts_latency_on_fio_reports_mean_max_and_five_nines(folder: Path) -> None:
    result, _ = run_pts("latency", "fio", folder, "--precondition", "none")
    check_steady_state(result)
    assert result["steady_state"]["tracking"] == "4KiB random 0/100 mean total latency"
    assert [c["tracking"] for c in result["checks"]] == ["4KiB random 0/100 mean total latency",
                                                         "4KiB random 0/100 max total latency"]
    assert result["parameters"]["queue_depth"] == 1 and result["parameters"]["numjobs"] == 1
    cell = result["matrix"][0]
    assert 0 < cell["lat_mean_ns"] <= cell["lat_p99_999_ns"] <= cell["lat_max_ns"] * 1.01
    assert result["drive_state"]["preparation"] == "none" and result["drive_state"]["preconditioning"] is None


def test_pts_iops_and_latency_on_the_portable_engine(folder: Path) -> None:
    iops, _ = run_pts("iops", "portable", folder, "--precondition", "none")
    check_steady_state(iops)
    assert iops["parameters"]["engine"] == "portable" and iops["matrix"][0]["iops"] > 0
    latency, _ = run_pts("latency", "portable", folder)
    check_steady_state(latency)
    assert latency["matrix"][0]["lat_p99_999_ns"] > 0
    assert latency["drive_state"]["preparation"] == "precondition"


@requires_fio
@needs_poppler
def test_the_pts_report_shows_the_drive_state_convergence_window_and_determination(folder: Path) -> None:
    listed = json.loads(ssdprof("pts", "list", "--json", db=folder / "pts.db").stdout)
    test_id = next(t["id"] for t in listed if t["test"] == "iops")
    lines = ssdprof("pts", "list", db=folder / "pts.db").stdout.splitlines()  # the name --json lists is on each line too
    assert [line.split()[0] for line in lines] == [str(t["id"]) for t in listed]
    assert all(line.endswith(f"  {t['name']}") for line, t in zip(lines, listed, strict=True))
    pdf = folder / "pts.pdf"
    done = ssdprof("pts", "report", test_id, "-o", pdf, db=folder / "pts.db")
    assert done.returncode == 0, done.stderr
    # said as every report the CLI writes is said (cli.terminal.say_written), on stderr
    assert done.stdout == "" and re.fullmatch(rf"wrote {re.escape(str(pdf))} \(\d+\.\d\d KiB, PTS test {test_id}\)\n", done.stderr)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for expected in ("SNIA PTS IOPS test", "NOT PTS-compliant", "Drive state and test parameters", "preconditioning",
                     "Steady-state convergence", "Measurement window", "steady-state determination", "data excursion",
                     "slope excursion", "access size x read/write mix"):
        assert expected in text, expected
    pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert int(next(line.split()[-1] for line in pages.splitlines() if line.startswith("Pages:"))) >= 2
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "2", str(pdf), str(folder / "page")], check=True)
    assert len(list(folder.glob("page-*.png"))) == 2


def test_bad_round_time_window_and_limits_are_refused_naming_the_field(folder: Path) -> None:
    done = ssdprof("pts", "iops", "--target", folder, "--round-time", "0s", "--window", "1", "--slope-limit", "0",
                   "--json", db=folder / "bad.db")
    assert done.returncode == 2
    fields = {p["field"] for p in json.loads(done.stdout)["problems"]}
    assert {"round_time_s", "window", "slope_limit_pct"} <= fields
    assert "time per point (--round-time)" in done.stderr


def test_the_estimate_says_pts_defaults_run_for_hours(folder: Path) -> None:
    done = ssdprof("pts", "iops", "--target", folder, "--size", "64MiB", "--estimate", db=folder / "est.db")
    assert done.returncode == 0, done.stderr
    assert "PTS defaults run for hours" in done.stdout and "56 point(s)" in done.stdout
    assert "randrw 65%R 16KiB QD32 T1" in done.stdout
