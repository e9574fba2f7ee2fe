"""The portable engine through the real command line, as a student without fio would run it."""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux", reason="the Linux path runs for real; others are unit-tested")


@pytest.fixture
def disk_folder() -> Iterator[Path]:
    """A folder on the real disk (/var/tmp), never /tmp, which is RAM-backed tmpfs on many systems."""
    path = Path(tempfile.mkdtemp(prefix="ssdprof-portable-cli-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def ssdprof_command() -> list[str]:
    script = Path(sys.executable).parent / "ssdprof"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ssdprof"]


def test_a_run_with_the_portable_engine_prints_the_documented_json(disk_folder: Path, native_program: Path) -> None:
    target = disk_folder / "target"
    target.mkdir()
    done = subprocess.run([*ssdprof_command(), "run", "--engine", "portable", "--target", str(target), "--size", "64MiB",
                           "--runtime", "2", "--ramp", "1", "--json", "--db", str(disk_folder / "runs.sqlite")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "ok"
    assert result["engine"]["name"] == "portable"
    assert (result["engine"]["ioengine"], result["engine"]["loop"]) == ("io_uring+O_DIRECT", "native")  # the compiled loop
    assert "requested" in result["engine"]["reason"] and "compiled I/O loop ssdprof-io" in result["engine"]["reason"]
    assert result["workload"]["engine"] == "portable"
    assert result["hosts"][0]["host"] == "local"
    read = result["read"]
    assert read["iops"] > 0 and read["io_count"] > 0
    assert read["runtime_ms"] >= 1900
    assert read["lat_ns"]["from_bins"] and read["lat_ns"]["p50"] > 10_000
    assert read["clat_ns"] == read["lat_ns"] and read["latency_kind"] == "total"  # one timed span: the whole call
    assert "lat_bins_ns" not in read
    assert "ioengine=" in result["job_text"]
    assert not [c for c in result["warnings"] if c["code"] in ("cache_answered", "cache_suspected")]
    assert list(target.iterdir()) == []  # the test file is removed afterwards
