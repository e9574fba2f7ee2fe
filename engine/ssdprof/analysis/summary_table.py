"""The one-glance table: the rows CrystalDiskMark users look for, from what the sweep measured.

Rows are sequential at 1 MiB and 128 KiB (else the largest size measured) and random at 4 KiB
(else the smallest), each at the deepest and the shallowest queue measured; a cell is a run that
only read or only wrote. A cell measured by several separate runs (not repeats) shows one of them,
preferring a pure pattern (randread over randrw at 100 %) and then the most repeats, and names the
others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ssdprof.analysis.metrics import setting_key
from ssdprof.analysis.repeats import setting_label
from ssdprof.analysis.summary_figures import figures, run_ids
from ssdprof.analysis.summary_model import GlanceCell, GlanceRow, SettingFigures
from ssdprof.analysis.summary_spread import spread
from ssdprof.analysis.summary_words import iops_text, latency_text, mb_s_text, runs_text
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult

__all__ = ["glance_table"]

_SEQ_SIZES_BYTES = (1 << 20, 128 << 10)
"""CrystalDiskMark's sequential sizes, in its order."""
_RND_SIZE_BYTES = 4096

Side = Literal["read", "write"]
_Key = tuple[bool, int, int, int, Side]
"""(random, block size, queue depth, jobs, direction)."""


def _side(run: RunResult) -> Side | None:
    pct = run.workload.read_pct
    return "read" if pct == 100 else "write" if pct == 0 else None


def _cells(groups: Sequence[Sequence[RunResult]]) -> dict[_Key, list[Sequence[RunResult]]]:
    cells: dict[_Key, list[Sequence[RunResult]]] = {}
    for group in groups:
        side = _side(group[0])
        if side is None:
            continue
        w = group[0].workload
        key = (w.pattern.is_random, w.block_size_bytes, w.queue_depth, w.numjobs, side)
        cells.setdefault(key, []).append(group)
    return cells


def _row_sizes(random: bool, sizes: list[int]) -> list[int]:
    if not sizes:
        return []
    if random:
        return [_RND_SIZE_BYTES] if _RND_SIZE_BYTES in sizes else sizes[:1]
    return [s for s in _SEQ_SIZES_BYTES if s in sizes] or sizes[-1:]


def _cell(candidates: list[Sequence[RunResult]] | None, side: Side) -> GlanceCell | None:
    if not candidates:
        return None
    order = {id(g): i for i, g in enumerate(candidates)}
    chosen = min(candidates, key=lambda g: (g[0].workload.pattern.fixed_read_pct is None, -len(g),
                                             order[id(g)]))
    found = figures(chosen, side)
    others = [i for g in candidates if g is not chosen for i in run_ids(g)]
    key = setting_key(chosen[0])
    every = [r for g in candidates if setting_key(g[0]) == key for r in g]
    return GlanceCell(iops=found.iops, bw_bytes_per_s=found.bw_bytes_per_s,
                      lat_ns_mean=found.lat_ns_mean, n=len(chosen), run_ids=run_ids(chosen),
                      setting=setting_label(chosen[0]),
                      separate_run_ids=sorted(others),
                      all_runs=_all_runs(every, chosen, side) if len(every) > len(chosen) else None)


def _all_runs(runs: Sequence[RunResult], shown: Sequence[RunResult], side: Side) -> SettingFigures | None:
    iops, bw, lat = (spread(runs, metric) for metric in ("iops", "bw_bytes_per_s", "lat_ns_mean"))
    if iops is None or bw is None:
        return None
    latency = f", {latency_text(lat.mean)} ± {latency_text(lat.half_width)}" if lat else ""
    sentence = (f"{setting_label(shown[0])} {side}: {runs_text(run_ids(shown))} shown; all {iops.n} runs of the "
                f"setting give {iops_text(iops.mean)} ± {iops_text(iops.half_width)} IOPS, {mb_s_text(bw.mean)} ± "
                f"{mb_s_text(bw.half_width)}{latency} (mean ± 95 % CI)")
    return SettingFigures(sentence=sentence, n=iops.n, iops=iops.mean, iops_half_width=iops.half_width,
                          bw_bytes_per_s=bw.mean, bw_half_width=bw.half_width, lat_ns_mean=lat.mean if lat else None,
                          lat_half_width=lat.half_width if lat else None)


def glance_table(groups: Sequence[Sequence[RunResult]]) -> list[GlanceRow]:
    """Sequential rows, then random; the deep row before the QD1 row, as CrystalDiskMark does."""
    cells = _cells(groups)
    rows: list[GlanceRow] = []
    for random in (False, True):
        for size in _row_sizes(random, sorted({k[1] for k in cells if k[0] == random})):
            depths = sorted({(k[2] * k[3], k[2], k[3]) for k in cells if k[:2] == (random, size)})
            for _, qd, jobs in [depths[-1], *depths[:1]] if len(depths) > 1 else depths:
                label = f"{'RND' if random else 'SEQ'} {format_size(size)} QD{qd} T{jobs}"
                rows.append(GlanceRow(
                    label=label, random=random, block_size_bytes=size, queue_depth=qd, numjobs=jobs,
                    read=_cell(cells.get((random, size, qd, jobs, "read")), "read"),
                    write=_cell(cells.get((random, size, qd, jobs, "write")), "write")))
    return rows
