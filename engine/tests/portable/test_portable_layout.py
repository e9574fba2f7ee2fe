from __future__ import annotations

import shutil
import zlib
from pathlib import Path
from typing import Any

import pytest

from ssdprof.model.workload import WorkloadError
from ssdprof.portable import layout
from ssdprof.portable.layout import lay_out, layout_bytes


def test_the_test_file_is_laid_out_to_size_with_incompressible_data(disk_dir: Path) -> None:
    path = disk_dir / "ssdprof-testfile-layout.dat"
    seconds = lay_out(path, 3 << 20, direct=True)
    data = path.read_bytes()
    assert len(data) == 3 << 20
    assert seconds > 0
    assert len(zlib.compress(data[: 1 << 20])) > 0.99 * (1 << 20)


def test_no_two_chunks_of_the_layout_repeat(disk_dir: Path) -> None:
    path = disk_dir / "ssdprof-testfile-layout.dat"
    lay_out(path, 4 << 20, direct=True)
    data = path.read_bytes()
    chunks = {data[i : i + 4096] for i in range(0, len(data), 4096)}
    assert len(chunks) == len(data) // 4096


def test_a_buffered_layout_works_where_direct_io_would_not(tmp_path: Path) -> None:
    path = tmp_path / "ssdprof-testfile-layout.dat"
    lay_out(path, 1 << 20, direct=False)
    assert path.stat().st_size == 1 << 20


def test_direct_layout_rounds_up_to_whole_logical_blocks() -> None:
    assert layout_bytes(4096 * 3 + 512, 4096) == 4096 * 4
    assert layout_bytes(4096 * 3, 4096) == 4096 * 3
    assert layout_bytes(1536, 512) == 1536


def test_a_file_that_does_not_fit_is_refused_before_writing(disk_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_usage = shutil.disk_usage

    def nearly_full(path: Any) -> Any:
        usage = real_usage(path)
        return usage._replace(free=1 << 20)

    monkeypatch.setattr(layout.shutil, "disk_usage", nearly_full)
    path = disk_dir / "ssdprof-testfile-layout.dat"
    with pytest.raises(WorkloadError, match="does not fit"):
        lay_out(path, 8 << 20, direct=True)
    assert not path.exists()
