"""The cool-down flags as a user types them: planned by the engine's one rule, shown in the
estimate, refused in its words, and waited for on a real run."""

import json
import subprocess
import sys
from pathlib import Path

from conftest import requires_fio

SHORT = ["--runtime", "1", "--ramp", "0", "--size", "16MiB"]


def ssdprof(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdprof", *args, "--db", str(db)],
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_estimate_counts_the_idle_time_between_points(tmp_path: Path) -> None:
    done = ssdprof("sweep", "--estimate", "--vary", "qd=1,2,4", *SHORT, "--cool-idle", "30",
                   db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert ("includes 30 s before each of the 2 point(s) after the first to idle (1m00s)"
            in done.stdout)


def test_a_temperature_gate_says_up_to_its_limit_in_the_estimate(tmp_path: Path) -> None:
    done = ssdprof("sweep", "--estimate", "--vary", "qd=1,2", *SHORT, "--cool-to", "45",
                   "--cool-max", "2m", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    assert "plus up to 120 s before each of the 1 point(s) after the first while the drive cools " \
           "to 45 °C" in done.stdout


def test_a_bad_cool_down_exits_2_naming_the_flag_its_range_and_an_example(tmp_path: Path) -> None:
    done = ssdprof("run", *SHORT, "--cool-to", "5", "--cool-idle", "10", "--cool-max", "5",
                   db=tmp_path / "r.db")
    assert done.returncode == 2
    assert ("cool down to (--cool-to): 5 is out of range; allowed 20–100 °C, e.g. 45"
            in done.stderr)
    assert "wait at most (--cool-max): 5 s is shorter than the idle time (10 s)" in done.stderr
    assert "Traceback" not in done.stderr


@requires_fio
def test_a_repeated_run_idles_between_its_points_and_records_the_wait(
        tmp_path: Path, disk_dir: Path) -> None:
    done = ssdprof("run", "--target", str(disk_dir), *SHORT, "--repeat", "2", "--cool-idle", "1",
                   "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["runs"]
    assert first["cool_down"] is None
    assert second["cool_down"]["waited_s"] >= 1.0 and second["cool_down"]["ended"] == "idled"
    assert "cool-down before point 2: idled" in done.stderr
