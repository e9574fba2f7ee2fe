"""The compiled I/O loop as the tests run it: built once per test session from engine/native/.

- ``native_program``: this machine's build (engine/native/build.py with its compiler, into
  engine/native/build/, where the engine finds it; rebuilt only when the sources changed).
- ``cross_builds``: Windows x86-64, macOS x86-64 and macOS arm64 built with zig (the ``ziglang``
  package, engine/requirements-cross.lock), into the session's temporary folder.
- ``wine``: runs the Windows build under Debian's wine64, its prefix made once in the session's
  temporary folder (its first start takes ~8 s) and its wineserver ended with the session.

Without a compiler, zig or wine64 these skip with the reason; under CI=true that is a failure
(infra/ci_rule.py). PYTEST_DONT_REWRITE
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

__all__ = ["CROSS_TARGETS", "Wine", "cross_builds", "native_program", "wine"]

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / "engine" / "native" / "build.py"
CROSS_TARGETS = {"x86_64-windows-gnu": "ssdprof-io.exe", "x86_64-macos": "ssdprof-io-x86_64-macos",
                 "aarch64-macos": "ssdprof-io-aarch64-macos"}
WINE = Path("/usr/lib/wine/wine64")


def _build(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BUILD), *args], capture_output=True, text=True, timeout=900, check=False)


@pytest.fixture(scope="session")
def native_program() -> Path:
    done = _build()
    if done.returncode == 3:
        pytest.skip(f"no C compiler to build the compiled I/O loop: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return ROOT / "engine" / "native" / "build" / ("ssdprof-io.exe" if os.name == "nt" else "ssdprof-io")


@pytest.fixture(scope="session")
def cross_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if importlib.util.find_spec("ziglang") is None:
        pytest.skip("the ziglang package is not installed (scripts/setup.sh installs engine/requirements-cross.lock)")
    folder = tmp_path_factory.mktemp("cross")
    built = {}
    for target, name in CROSS_TARGETS.items():
        done = _build("--cc", "zig", "--target", target, "--out", str(folder / name))
        assert done.returncode == 0, f"{target}: {done.stderr}"
        built[target] = folder / name
    return built


@dataclass(frozen=True)
class Wine:
    prefix: Path

    def environment(self) -> dict[str, str]:
        return {**os.environ, "WINEPREFIX": str(self.prefix), "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}

    def argv(self, program: Path, *args: str) -> list[str]:
        return [str(WINE), str(program), *args]

    @staticmethod
    def path(path: Path) -> str:
        """A Linux path as the Windows program sees it (wine maps Z: to /)."""
        return "Z:" + str(path).replace("/", "\\")


@pytest.fixture(scope="session")
def wine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wine]:
    if not WINE.exists():
        pytest.skip("wine64 is not installed (scripts/setup.sh installs it: apt install wine64)")
    runner = Wine(tmp_path_factory.mktemp("wineprefix"))
    done = subprocess.run([str(WINE), "cmd", "/c", "exit"], env=runner.environment(), capture_output=True, timeout=300,
                          check=False)  # makes the prefix once, so no test's timing includes it
    assert done.returncode == 0, done.stderr
    yield runner
    server = shutil.which("wineserver") or "/usr/lib/wine/wineserver64"
    subprocess.run([server, "-k"], env=runner.environment(), capture_output=True, timeout=60, check=False)
