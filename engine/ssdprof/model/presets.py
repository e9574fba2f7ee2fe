"""The ready-made sweeps (``ssdprof sweep --preset NAME``, the designer's presets): each a name, what
it measures in one line, and how its points are made from a base workload.

Names and descriptions import nothing of the engine, so the command line offers them as choices
without loading the workload's rules; :func:`ssdprof.model.sweep.preset` builds a preset's sweep.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ssdprof.model.workload import Workload

__all__ = ["PRESETS"]


def _with(base: Workload, **changes: Any) -> Workload:
    from ssdprof.model.workload import parse_workload  # the rules load when a preset is built, not with its name

    return parse_workload(changes, base=base)


def _quick(base: Workload) -> list[Workload]:
    """CrystalDiskMark's default set: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read then write."""
    settings = [("read", 1 << 20, 8), ("read", 1 << 20, 1), ("randread", 4096, 32), ("randread", 4096, 1)]
    points = [_with(base, pattern=p, block_size_bytes=bs, queue_depth=qd, numjobs=1) for p, bs, qd in settings]
    writes = [_with(base, pattern=p.replace("read", "write"), block_size_bytes=bs, queue_depth=qd, numjobs=1)
              for p, bs, qd in settings]
    return points + writes


def _student(base: Workload) -> list[Workload]:
    """One factor at a time: access size, read/write mix, queue depth."""
    sizes = [_with(base, pattern="randread", block_size_bytes=bs, queue_depth=1, numjobs=1) for bs in (4096, 16384, 131072)]
    mixes = [_with(base, pattern="randrw", read_pct=pct, block_size_bytes=4096, queue_depth=1, numjobs=1) for pct in (100, 70, 50, 0)]
    depths = [_with(base, pattern="randread", block_size_bytes=4096, queue_depth=qd, numjobs=1) for qd in (1, 10, 100)]
    return sizes + mixes + depths


def _cluster_study(base: Workload) -> list[Workload]:
    """The published Ceph study's grid: pattern x processes per client x chunk size."""
    grid = itertools.product(("randread", "read", "randwrite", "write"), (1, 8, 16), (4096, 131072, 4 << 20))
    return [_with(base, pattern=p, numjobs=jobs, block_size_bytes=bs) for p, jobs, bs in grid]


def _matrix(base: Workload) -> list[Workload]:
    """Block size 512 B-1 MiB x QD 1/10/100 x read/write."""
    sizes = [512 << i for i in range(12)]  # 512 B .. 1 MiB
    grid = itertools.product(("randread", "randwrite"), sizes, (1, 10, 100))
    return [_with(base, pattern=p, block_size_bytes=bs, queue_depth=qd) for p, bs, qd in grid]


PRESETS: dict[str, tuple[str, Callable[[Workload], list[Workload]]]] = {
    "quick": ("CrystalDiskMark-style: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1, read and write", _quick),
    "student": ("access size 4K/16K/128K at QD1 read; read % 100/70/50/0 at 4K QD1; QD 1/10/100 at 4K read", _student),
    "cluster-study": ("randread/read/randwrite/write x numjobs 1/8/16 x 4K/128K/4M", _cluster_study),
    "matrix": ("block size 512B-1MiB x QD 1/10/100 x random read/write", _matrix),
}
