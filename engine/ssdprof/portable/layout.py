"""The test file, laid out before measuring: incompressible, written through the cache bypass.

Random data defeats drives that compress; fresh data per chunk defeats deduplication. The file
is written with the same cache bypass the measurement uses, which matters on macOS: there
``F_NOCACHE`` does not evict pages already cached, so a file written through the cache would
later be read from RAM. The layout ends with a flush to the media (``F_FULLFSYNC`` on macOS).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np

from ssdprof.model.quantities import format_size
from ssdprof.model.workload import WorkloadError
from ssdprof.portable.directio import aligned_buffer, logical_block_bytes, open_io_file

__all__ = ["LAYOUT_CHUNK_BYTES", "lay_out", "layout_bytes"]

LAYOUT_CHUNK_BYTES = 1 << 20


def layout_bytes(size_bytes: int, logical_block: int) -> int:
    """The file size written: ``size_bytes`` rounded up to whole logical blocks (direct I/O
    writes whole blocks only; the measured region stays ``size_bytes``)."""
    return -(-size_bytes // logical_block) * logical_block


def lay_out(path: Path, size_bytes: int, *, direct: bool, system: str | None = None) -> float:
    """Write ``size_bytes`` of random data to ``path``; returns the seconds it took."""
    started = time.monotonic()
    target = layout_bytes(size_bytes, logical_block_bytes(path.parent, system) if direct else 1)
    _check_free_space(path, target)
    io = open_io_file(path, direct=direct, write=True, create=True, system=system)
    try:
        buffer = aligned_buffer(LAYOUT_CHUNK_BYTES)
        view = memoryview(buffer)
        rng = np.random.default_rng()
        offset = 0
        while offset < target:
            length = min(LAYOUT_CHUNK_BYTES, target - offset)
            view[:length] = rng.bytes(length)
            written = io.write(io.descriptor, [view[:length]], offset)
            if written != length:
                raise OSError(f"short write laying out {path}: {written} of {length} bytes at offset {offset}")
            offset += length
        io.sync(full=True)
    finally:
        io.close()
    return time.monotonic() - started


def _check_free_space(path: Path, size_bytes: int) -> None:
    existing = path.stat().st_size if path.exists() else 0
    free = shutil.disk_usage(path.parent).free
    if size_bytes - existing > free:
        raise WorkloadError.single("size_bytes", "--size", (
            f"{format_size(size_bytes)} does not fit: {os.fspath(path.parent)!r} has {format_size(free)} free"))
