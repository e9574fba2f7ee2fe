"""The compiled loop's arguments from a workload, and its real output lines read back into the runner's units."""

from __future__ import annotations

import json
import platform
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from ssdprof.model.workload import WorkloadError, parse_workload
from ssdprof.portable.native_run import direction_stats, native_argv, progress_sample, refusal_error

MIB = 1 << 20
linux_only = pytest.mark.skipif(platform.system() != "Linux", reason="this machine's build runs on Linux here")


def run_lines(program: Path, *args: str) -> list[dict[str, Any]]:
    done = subprocess.run([str(program), *args], capture_output=True, text=True, timeout=60, check=False)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_workload_becomes_the_programs_arguments(tmp_path: Path) -> None:
    w = parse_workload({"target": str(tmp_path), "pattern": "randrw", "read_pct": 70, "block_size_bytes": "16k",
                        "queue_depth": 8, "numjobs": 2, "size_bytes": "64MiB", "offset_bytes": "1MiB", "runtime_s": 5,
                        "ramp_s": 1.5, "rate_iops": 5000, "direct": False}).model_copy(update={"io_bytes_limit": 8 * MIB})
    argv = native_argv(Path("/opt/ssdprof-io"), w, tmp_path / "f.dat", seed=7, queue="libaio")
    assert argv == ["/opt/ssdprof-io", "--target", str(tmp_path / "f.dat"), "--offset", str(MIB), "--size", str(64 * MIB),
                    "--bs", "16384", "--pattern", "rand", "--read-pct", "70", "--iodepth", "8", "--jobs", "2",
                    "--runtime", "5.0", "--ramp", "1.5", "--seed", "7", "--watch-stdin", "--io-bytes", str(8 * MIB),
                    "--rate", "5000", "--buffered", "--engine", "libaio"]


@linux_only
def test_real_lines_become_seconds_cut_at_the_runs_end_and_fio_shaped_directions(native_program: Path) -> None:
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        path = Path(folder) / "f.dat"
        path.write_bytes(bytes(4 * MIB))
        lines = run_lines(native_program, "--target", str(path), "--size", str(4 * MIB), "--bs", "4096", "--iodepth", "4",
                          "--runtime", "1.1", "--ramp", "0")
    progress = [line for line in lines if line["type"] == "progress"]
    assert [line["elapsed_ns"] // 100_000_000 for line in progress] == [10, 11]
    first, last = (progress_sample(line, ramp_s=0, duration_s=1.1) for line in progress)
    assert first is not None and first.elapsed_s == 1.0 and first.interval_s == 1.0
    assert first.read_iops == progress[0]["read"]["ios"] and first.read_lat_ns_p99 is not None
    assert last is None  # the last 0.1 s: too short for a rate, as fio leaves it out
    result = lines[-1]
    read = direction_stats(result["read"], result["runtime_ns"])
    assert read.io_count == result["read"]["ios"] and sum(read.lat_bins_ns.values()) == read.io_count
    assert read.runtime_ms == pytest.approx(1100, abs=5) and read.lat_ns.from_bins and read.lat_ns.samples == read.io_count
    assert read.lat_ns.mean == pytest.approx(result["read"]["mean_ns"])


@linux_only
def test_a_refusal_is_shown_against_the_field_it_names(native_program: Path) -> None:
    [refused] = run_lines(native_program, "--target", "/nonexistent/f.dat", "--size", str(MIB), "--bs", "4096",
                          "--runtime", "1")
    error = refusal_error(refused, Path("/nonexistent/f.dat"))
    assert (error.problems[0].field, error.problems[0].flag) == ("target", "--target")
    assert "cannot open /nonexistent/f.dat: No such file or directory" in error.problems[0].message


def test_a_refused_cache_bypass_points_to_buffered() -> None:
    line = {"type": "refused", "field": "direct", "message": "the filesystem holding /x/f.dat refuses direct I/O (O_DIRECT)"}
    error = refusal_error(line, Path("/x/f.dat"))
    assert isinstance(error, WorkloadError) and error.problems[0].flag == "--buffered"
    assert "cache numbers are not reported as device numbers" in error.problems[0].message
