"""engine/native/build.py: the one recipe, its answer where no compiler is installed, and its rebuild rule."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BUILD = Path(__file__).resolve().parents[2] / "native" / "build.py"


def build(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BUILD), *args], capture_output=True, text=True, timeout=600, env=env,
                          check=False)


def test_without_a_compiler_it_exits_3_and_says_the_python_loop_will_measure(tmp_path: Path) -> None:
    bare = {key: value for key, value in os.environ.items() if key != "CC"} | {"PATH": str(tmp_path)}
    done = build("--out", str(tmp_path / "ssdprof-io"), env=bare)
    assert done.returncode == 3
    assert "no C compiler here" in done.stderr and "Python loop" in done.stderr
    assert not (tmp_path / "ssdprof-io").exists()
    named = build("--cc", "no-such-cc", "--check")
    assert named.returncode == 3


def test_it_builds_once_and_again_only_when_forced(native_program: Path, tmp_path: Path) -> None:
    out = tmp_path / "ssdprof-io"
    first = build("--out", str(out))
    assert first.returncode == 0 and "built" in first.stderr
    assert subprocess.run([str(out), "--version"], capture_output=True, text=True, check=True).stdout == "ssdprof-io 1\n"
    again = build("--out", str(out))
    assert again.returncode == 0 and "up to date" in again.stderr
    forced = build("--out", str(out), "--force")
    assert forced.returncode == 0 and "built" in forced.stderr
