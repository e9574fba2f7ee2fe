"""What the compiled I/O loop did, read back: its JSON lines, and the stamps its writes left in a file.

Every 512-byte sector the program writes starts with two little-endian 64-bit words: the sector's own
file offset, and a number unique to the write (job << 52 ^ thread << 40 ^ count, xor a magic), so a
test reads the file afterwards and sees where each write landed. The checks here are shared by the
Linux build (each of its queues) and the Windows build under wine (test_native_cross.py).
"""

from __future__ import annotations

import json
import struct
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ssdprof.model import histogram

__all__ = ["KIB", "MIB", "Launcher", "ProgramRun", "check_counts", "sector_stamps", "zeroed_file"]

KIB, MIB = 1 << 10, 1 << 20
SECTOR = 512
MAGIC = 0x5353445052464F49


@dataclass
class ProgramRun:
    returncode: int
    lines: list[dict[str, Any]]
    stderr: str

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line.get("type") == kind]

    @property
    def result(self) -> dict[str, Any]:
        [result] = self.of("result")
        return result

    @property
    def start(self) -> dict[str, Any]:
        [start] = self.of("start")
        return start


@dataclass(frozen=True)
class Launcher:
    """How to start one build of the program: its argv prefix, environment and how it names a file."""

    name: str
    prefix: list[str]
    env: dict[str, str] | None = None
    name_path: Callable[[Path], str] = str
    extra: list[str] = field(default_factory=list)

    def argv(self, path: Path, *args: str) -> list[str]:
        return [*self.prefix, "--target", self.name_path(path), *self.extra, *args]

    def run(self, path: Path, *args: str, timeout: float = 120) -> ProgramRun:
        done = subprocess.run(self.argv(path, *args), capture_output=True, text=True, env=self.env, timeout=timeout,
                              check=False)
        lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        return ProgramRun(done.returncode, lines, done.stderr)


def zeroed_file(path: Path, size_bytes: int) -> Path:
    with path.open("wb") as file:
        file.truncate(size_bytes)
    return path


def sector_stamps(path: Path) -> list[tuple[int, int, int]]:
    """(position, stamped offset, write number) of every sector carrying a stamp; zero sectors are left out."""
    data = path.read_bytes()
    stamps = []
    for at in range(0, len(data), SECTOR):
        offset, number = struct.unpack_from("<QQ", data, at)
        if offset or number:
            stamps.append((at, offset, number ^ MAGIC))
    return stamps


def check_counts(run: ProgramRun, block_bytes: int) -> None:
    """Every I/O counted once: each direction's bins add up to its count, every issued I/O appears in
    exactly one per-second line (nothing was left in flight), and the result counts no more than that."""
    assert run.returncode == 0, run.stderr
    result = run.result
    assert result["errors"] == []
    assert result["buffer_alignment"] >= 4096
    for direction in ("read", "write"):
        summary = result[direction]
        assert sum(summary["bins"].values()) == summary["ios"]
        assert summary["bytes"] == summary["ios"] * block_bytes
        assert all(histogram.bucket_value(int(value)) == int(value) for value in summary["bins"])  # fio's midpoints
        shown = sum(line[direction]["ios"] for line in run.of("progress"))
        assert shown == result[f"issued_{direction}_ios"]
        assert summary["ios"] <= shown
        for line in run.of("progress"):
            assert sum(line[direction]["bins"].values()) == line[direction]["ios"]
