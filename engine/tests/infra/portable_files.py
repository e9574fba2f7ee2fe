"""The portable engine's tests share one folder on the real disk and one laid-out test file per module (a plugin, not
tests/portable/conftest.py: a second module named conftest would shadow tests/conftest.py for `from conftest import`)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssdprof.portable.engine import PortableEngine

MIB = 1 << 20


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    """A folder on the real disk (/var/tmp), never /tmp, which is RAM-backed tmpfs on many systems."""
    path = Path(tempfile.mkdtemp(prefix="ssdprof-portable-", dir="/var/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def test_file(scratch: Path) -> Path:
    path = scratch / "ssdprof-testfile-engine.dat"
    PortableEngine("test", loop="python").layout(path, 32 * MIB, direct=True)
    return path
