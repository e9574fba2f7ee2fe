"""When runs are one figure: the repeats a user asked for, or runs pooled because the user chose to.

Runs of one setting (:func:`ssdprof.analysis.metrics.setting_key`) are not repeats merely because
they measured the same thing: the student preset measures 4 KiB QD1 reads in each of its three
series, and an earlier sweep may have measured a point again on another day. Their mean ± CI
would be a figure nobody asked for. So runs are pooled only when they are the repeats of one point
of one sweep (the sweep's ``repeats`` above 1), or when the caller pools every run of a setting on
the user's explicit request. Every pool says how many runs it holds and where they came from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal

from ssdprof.analysis.metrics import pts_round, setting_key
from ssdprof.model.run_summary import AnyRun, R, node_count

__all__ = ["Pool", "PoolKind", "context_parts", "pools", "setting_context", "setting_label"]

PoolKind = Literal["single", "repeats", "pooled"]
"""single: one run; repeats: the repeats of one point of one sweep; pooled: pooled on request."""

_IDS_SHOWN = 4


@dataclass(frozen=True)
class Pool(Generic[R]):
    """Runs (whole, or their summaries) of one setting shown as one figure (mean ± 95 % CI when there
    are several)."""

    runs: tuple[R, ...]

    @property
    def n(self) -> int:
        return len(self.runs)

    @property
    def run_ids(self) -> list[int]:
        return [r.id for r in self.runs if r.id is not None]

    @property
    def kind(self) -> PoolKind:
        if self.n == 1:
            return "single"
        sweeps = {r.sweep_id for r in self.runs}
        repeats = {r.repeat for r in self.runs}
        one_sweep = None not in sweeps and len(sweeps) == 1
        return "repeats" if one_sweep and len(repeats) == self.n else "pooled"

    @property
    def source(self) -> str:
        """n and where the runs came from: 'run 8', 'n = 3 repeats of sweep 12',
        'n = 5 runs pooled from sweeps 3, 7'."""
        if self.kind == "single":
            return _runs_text(self.run_ids) if self.run_ids else "one run"
        if self.kind == "repeats":
            return f"n = {self.n} repeats of sweep {self.runs[0].sweep_id}"
        sweeps = sorted({r.sweep_id for r in self.runs if r.sweep_id is not None})
        loose = [r.id for r in self.runs if r.sweep_id is None and r.id is not None]
        named = f"sweep{'s' if len(sweeps) > 1 else ''} {', '.join(map(str, sweeps))}"
        origins = [named] if sweeps else []
        origins += [_runs_text(loose)] if loose else []
        return f"n = {self.n} runs pooled from {' and '.join(origins) or 'runs not stored'}"

    @property
    def origin(self) -> str:
        """Which runs, to tell apart pools of one setting: 'run 8', 'runs 1, 14, 27'."""
        return _runs_text(self.run_ids) if self.run_ids else self.source


def setting_label(run: AnyRun) -> str:
    """How every face names a run's setting: 'randread 4KiB QD1 T1 @500 IOPS on 3 hosts nodes=2'."""
    return run.workload.label + setting_context(run)


def setting_context(run: AnyRun) -> str:
    """Where and when, a label's tail: ' on 3 hosts nodes=2 PTS iops round 4'."""
    return "".join(context_parts(run).values())


_IMPORTED_TOOLS = {"crystaldiskmark": "CrystalDiskMark", "kdiskmark": "KDiskMark", "diskspd": "diskspd",
                   "elbencho": "elbencho"}
"""Runs another tool measured (store/imports), named by it wherever their setting is shown."""


def context_parts(run: AnyRun) -> dict[str, str]:
    """The parts of :func:`setting_context` by name (tool, hosts, nodes, round); an absent part is ''."""
    found = pts_round(run)
    tool = _IMPORTED_TOOLS.get(run.engine.name, "")
    return {"tool": f" ({tool})" if tool else "",
            "hosts": f" on {len(run.hosts)} hosts" if len(run.hosts) > 1 else "",
            "nodes": "" if (count := node_count(run)) is None else f" nodes={count}",
            "round": "" if found is None else f" PTS {found[0] + ' ' if found[0] else ''}round {found[1]}"}


def _runs_text(ids: Sequence[int]) -> str:
    if len(ids) == 1:
        return f"run {ids[0]}"
    few = len(ids) <= _IDS_SHOWN
    shown = ", ".join(map(str, ids)) if few else f"{ids[0]}, {ids[1]}, … {ids[-1]}"
    return f"runs {shown}"


def pools(runs: Sequence[R], pool_same_setting: bool = False) -> list[Pool[R]]:
    """``runs`` as pools, in the order of each pool's first run: each setting's runs together when
    ``pool_same_setting`` (the user chose to), else only the repeats of one point of one sweep,
    every other run alone."""
    by_setting: dict[tuple[object, ...], list[R]] = {}
    for run in runs:
        by_setting.setdefault(setting_key(run), []).append(run)
    found: list[Pool[R]] = []
    for members in by_setting.values():
        if pool_same_setting:
            found.append(Pool(tuple(members)))
        else:
            found += [Pool(tuple(part)) for part in _repeat_sets(members)]
    first = {id(run): index for index, run in reversed(list(enumerate(runs)))}
    return sorted(found, key=lambda pool: first[id(pool.runs[0])])


def _repeat_sets(members: Sequence[R]) -> list[list[R]]:
    """One setting's runs split into the repeats of one point of one sweep, in first-seen order.

    A sweep may measure one setting at several of its points (the student preset's three series
    all hold 4 KiB QD1 reads). The runner measures a sweep repeat by repeat, each repeat's points
    in order (``app/runner.py``), and stores runs in that order; so within one repeat of one sweep,
    the k-th run of a setting (by run id) is that setting's k-th point, and the runs with the same
    k in each repeat are one point's repeats.
    """
    ordered = sorted(range(len(members)),
                     key=lambda i: (members[i].id is None, members[i].id or 0, i))
    seen: Counter[tuple[int, int]] = Counter()
    keys: dict[int, tuple[object, ...]] = {}
    for i in ordered:
        run = members[i]
        if run.sweep_id is None:  # imported, or stored outside a sweep: a run of its own
            keys[i] = ("run", i)
            continue
        occurrence = seen[(run.sweep_id, run.repeat)]
        seen[(run.sweep_id, run.repeat)] += 1
        keys[i] = ("sweep", run.sweep_id, occurrence)
    sets: dict[tuple[object, ...], list[R]] = {}
    for i, run in enumerate(members):
        sets.setdefault(keys[i], []).append(run)
    return list(sets.values())
