"""Repeats as mean ± confidence interval, and whether two groups really differ, setting by setting.

The figures come from :mod:`ssdprof.analysis.welch`: Student's t intervals and Welch's t-test.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ssdprof.analysis.groupings import compare_drop
from ssdprof.analysis.metrics import metric_value, setting_key
from ssdprof.analysis.pooled import PERCENTILE_METRICS, BinsOf, own_bins, pooled_percentile
from ssdprof.analysis.repeats import pools, setting_label
from ssdprof.analysis.welch import MeanCI, WelchResult, mean_ci, welch_t_test
from ssdprof.model.drive_state import state_difference
from ssdprof.model.quantities import format_number as number
from ssdprof.model.run_summary import AnyRun, node_count
from ssdprof.model.workload import Workload

__all__ = ["GroupComparison", "GroupSummary", "compare_groups", "comparison_summary", "drive_state_note",
           "summarise_repeats"]


@dataclass(frozen=True)
class GroupSummary:
    """Runs of one setting shown as one figure: a sweep's repeats, one run, or pooled on request."""

    workload: Workload
    hosts: tuple[str, ...]
    nodes: int | None
    run_ids: tuple[int | None, ...]
    ci: MeanCI
    label: str
    """The setting (:func:`~ssdprof.analysis.repeats.setting_label`)."""
    source: str
    """n and where the runs came from, e.g. 'n = 3 repeats of sweep 12' (:attr:`Pool.source`)."""

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.label, "hosts": self.hosts, "nodes": self.nodes,
                "run_ids": self.run_ids, "source": self.source, **self.ci.__dict__,
                "low": self.ci.low, "high": self.ci.high}


def summarise_repeats(runs: Sequence[AnyRun], metric: str, confidence: float = 0.95,
                      pool_same_setting: bool = False, bins_of: BinsOf = own_bins) -> list[GroupSummary]:
    """Each pool of runs (:func:`~ssdprof.analysis.repeats.pools`: a sweep's repeats, one run, or
    with ``pool_same_setting`` every run of a setting) as mean ± CI of ``metric``; a latency
    percentile of several runs as the percentile of all their I/Os (their bins: ``bins_of``)."""
    summaries = []
    for pool in pools(runs, pool_same_setting):
        members = pool.runs
        found = [(r, v) for r in members if (v := metric_value(r, metric)) is not None]
        if not found:
            continue
        ci = mean_ci([v for _, v in found], confidence)
        if metric in PERCENTILE_METRICS and len(found) > 1:
            value = pooled_percentile([r for r, _ in found], metric, bins_of)
            if value is None:
                continue  # their bins are not known: no percentile of them is made up
            ci = MeanCI(len(found), value, None, None, confidence, pooled=True)
        hosts = tuple(sorted(h.host for h in members[0].hosts)) or ("local",)
        summaries.append(GroupSummary(members[0].workload, hosts, node_count(members[0]),
                                      tuple(r.id for r, _ in found), ci, setting_label(members[0]), pool.source))
    return summaries


@dataclass(frozen=True)
class GroupComparison:
    """Group B against group A at one setting (e.g. PCIe vs SATA nodes, randread 4 KiB QD32)."""

    setting: str
    a_run_ids: tuple[int | None, ...]
    b_run_ids: tuple[int | None, ...]
    result: WelchResult
    same_setting: bool = True
    drive_state_note: str = ""
    """Set when A and B were taken in different drive states (fresh, preconditioned, steady state, as found)."""
    pooled: tuple[float | None, ...] | None = None
    """A latency percentile: A's and B's of all their runs' I/Os together (added bins), divided by the
    ``scale`` as the means are; Welch's test compares the runs' own."""

    def as_dict(self) -> dict[str, Any]:
        r = self.result
        return {"setting": self.setting, "a_run_ids": self.a_run_ids, "b_run_ids": self.b_run_ids,
                "same_setting": self.same_setting, "significant": r.significant, "drive_state_note": self.drive_state_note,
                **{k: v for k, v in r.__dict__.items() if k not in ("a", "b")}, "a": r.a.__dict__, "b": r.b.__dict__}


def drive_state_note(a: Sequence[AnyRun], b: Sequence[AnyRun]) -> str:
    """'' when A and B were taken in one drive state (or neither recorded one), else how they differ."""
    if all(r.drive_state is None for r in (*a, *b)):
        return ""
    return state_difference([r.drive_state for r in a], [r.drive_state for r in b])


def compare_groups(a: Sequence[AnyRun], b: Sequence[AnyRun], metric: str, *, confidence: float = 0.95,
                   scale: float = 1.0, unit: str = "", bins_of: BinsOf = own_bins,
                   labels: tuple[str, str] = ("A", "B")) -> list[GroupComparison]:
    """Welch-test B against A setting by setting; the groups may differ in hosts and drive (model,
    target and state: a difference in state is said in the verdict), and in node count where it
    tells them apart (A at 3 nodes, B at 5); where both span several node counts, like is compared
    with like (:func:`~ssdprof.analysis.groupings.compare_drop`). Verdicts name the groups by ``labels``.

    Choosing the two groups is choosing to pool each group's runs of one setting as its sample.

    When each group holds a single setting and they differ, they are still compared, marked
    ``same_setting=False`` so the caller can say so. ``scale`` divides values (e.g. 1e6 for MB/s).
    A latency percentile is tested over the runs' own percentiles, and each group's percentile of all
    its runs' I/Os (their bins: ``bins_of``) is said beside the test.
    """
    drop = compare_drop([a, b])
    by_a: dict[tuple[object, ...], list[AnyRun]] = {}
    by_b: dict[tuple[object, ...], list[AnyRun]] = {}
    for runs, keyed in ((a, by_a), (b, by_b)):
        for run in runs:
            keyed.setdefault(setting_key(run, drop), []).append(run)
    pairs = [(by_a[key], by_b[key], True) for key in by_a if key in by_b]
    if not pairs and len(by_a) == 1 and len(by_b) == 1:
        pairs = [(list(a), list(b), False)]
    found = []
    for runs_a, runs_b, same in pairs:
        va = [v / scale for r in runs_a if (v := metric_value(r, metric)) is not None]
        vb = [v / scale for r in runs_b if (v := metric_value(r, metric)) is not None]
        if va and vb:
            word = f"p{float(PERCENTILE_METRICS[metric][1]):g}" if metric in PERCENTILE_METRICS else ""
            result = welch_t_test(va, vb, 1 - confidence, labels, unit,
                                  means=f"mean of the runs' own {word}s" if word else "mean")
            pooled = None
            if word:
                pooled = tuple(None if (v := pooled_percentile(runs, metric, bins_of)) is None else v / scale
                               for runs in (runs_a, runs_b))
                result = dataclasses.replace(result, verdict=f"{result.verdict}; {_pooled_words(word, pooled, unit, labels)}")
            note = drive_state_note(runs_a, runs_b)
            if note:
                result = dataclasses.replace(result, verdict=f"{result.verdict}; but {note}")
            found.append(GroupComparison(_compared_setting(runs_a[0], drop), tuple(r.id for r in runs_a),
                                         tuple(r.id for r in runs_b), result, same, note, pooled))
    return found


def _pooled_words(word: str, pooled: tuple[float | None, ...], unit: str, labels: tuple[str, str]) -> str:
    shown = [number(v) if v is not None else "unknown (no histogram)" for v in pooled]
    return (f"{word} of all I/Os of each group's runs together (added bins): {labels[0]} {shown[0]}, {labels[1]} {shown[1]}"
            f"{f' {unit}' if unit else ''}")


def _compared_setting(run: AnyRun, drop: frozenset[str]) -> str:
    """The setting two groups were compared at: the workload, and the node count where it was kept."""
    nodes = node_count(run)
    return run.workload.label + (f" nodes={nodes}" if nodes is not None and "nodes" not in drop else "")


def comparison_summary(found: Sequence[GroupComparison], labels: tuple[str, str] = ("A", "B")) -> str:
    """The comparisons in one sentence naming both groups: 'PCIe against SATA at 144 settings: PCIe
    higher at 144, significantly at 140 (Welch's t-test at 95 %); median difference +142.0 %'."""
    a, b = labels
    if not found:
        return f"{a} and {b} measured no setting in common: nothing to compare"
    changes = sorted(c.result.diff_pct for c in found if c.result.diff_pct is not None)
    higher = sum(1 for c in found if c.result.diff > 0)
    lower = sum(1 for c in found if c.result.diff < 0)
    significant = sum(1 for c in found if c.result.significant)
    alpha = found[0].result.alpha
    middle = f"; median difference {statistics.median(changes):+.1f} %" if changes else ""
    return (f"{b} against {a} at {len(found)} setting(s): {b} higher at {higher}, lower at {lower}; "
            f"significantly different at {significant} (Welch's t-test at {(1 - alpha) * 100:.0f} %){middle}")
