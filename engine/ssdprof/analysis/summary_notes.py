"""The summary's judgement: the best figures, and the best of them against the spec sheet, only
where the comparison is fair (``spec_comparison``'s rule)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ssdprof.analysis.repeats import Pool, setting_label
from ssdprof.analysis.spec_choice import SpecPick
from ssdprof.analysis.spec_comparison import SpecComparison, compare_repeats
from ssdprof.analysis.specs import Spec
from ssdprof.analysis.summary_figures import figures, run_ids
from ssdprof.analysis.summary_model import BestFigure, SpecVerdict
from ssdprof.analysis.summary_words import iops_text, latency_text, mb_s_text
from ssdprof.model.results import RunResult

__all__ = ["FAIRNESS", "best_figures", "spec_verdict", "where"]

FAIRNESS = ("% of spec is given only where a run was measured the way the figure was rated "
            "(same access, size and queue depth)")

Group = Sequence[RunResult]
Quantity = Literal["iops", "bandwidth", "latency"]


def where(group: Group) -> str:
    """'randread 4KiB QD1 T1, run 8', or '…, mean of n = 3 repeats of sweep 12'."""
    pool = Pool(tuple(group))
    return f"{setting_label(group[0])}, {'mean of ' if pool.n > 1 else ''}{pool.source}"


def _best(quantity: Quantity, value: float, group: Group, sentence: str) -> BestFigure:
    return BestFigure(quantity=quantity, value=value, setting=setting_label(group[0]),
                      run_ids=run_ids(group), sentence=f"{sentence} ({where(group)}).")


def best_figures(groups: Sequence[Group]) -> list[BestFigure]:
    """The most IOPS, the most bandwidth and the lowest mean latency the runs reached."""
    if not groups:
        return []
    measured = [(g, figures(g)) for g in groups]
    group, top = max(measured, key=lambda m: m[1].iops)
    found = [_best("iops", top.iops, group, f"Most IOPS: {iops_text(top.iops)}")]
    group, top = max(measured, key=lambda m: m[1].bw_bytes_per_s)
    found.append(_best("bandwidth", top.bw_bytes_per_s, group,
                       f"Most bandwidth: {mb_s_text(top.bw_bytes_per_s)}"))
    timed = [(g, f.lat_ns_mean) for g, f in measured if f.lat_ns_mean is not None]
    if timed:
        group, low = min(timed, key=lambda m: m[1])
        found.append(_best("latency", low, group, f"Lowest mean latency: {latency_text(low)}"))
    return found


def _best_fair(compared: list[tuple[Group, SpecComparison]]) -> tuple[Group, SpecComparison] | None:
    """The highest % of a rated rate; without one, the lowest % of a rated latency (lower is
    better)."""
    fair = [(g, c) for g, c in compared if c.pct_of_spec is not None]
    rates = [(g, c) for g, c in fair if c.figure.quantity != "latency"]
    if rates:
        return max(rates, key=lambda m: m[1].pct_of_spec or 0.0)
    return min(fair, key=lambda m: m[1].pct_of_spec or 0.0) if fair else None


def spec_verdict(groups: Sequence[Group], spec: Spec | None, pick: SpecPick) -> SpecVerdict:
    """The best fair % of spec, with the fairness caveat; or why there is none."""
    if spec is None:
        return SpecVerdict(pick=pick, comparison=None, run_ids=[], fair=0,
                           sentence=f"No spec sheet: {pick.note}.")
    against = f"Against the {spec.title} spec sheet ({pick.note})"
    compared = [(g, c) for g in groups for c in compare_repeats(spec, g)]
    fair = sum(1 for _, c in compared if c.pct_of_spec is not None)
    best = _best_fair(compared)
    if best is not None:
        group, comparison = best
        others = f" ({fair - 1} other fair comparison(s) in the spec table)" if fair > 1 else ""
        return SpecVerdict(pick=pick, comparison=comparison, run_ids=run_ids(group), fair=fair,
                           sentence=f"{against}: {where(group)} {comparison.sentence()}{others}. "
                                    f"{FAIRNESS}.")
    if compared:
        group, example = compared[0]
        sentence = (f"{against}: no rated figure was measured the way it was rated, so no % of "
                    f"spec is given; e.g. {where(group)}: {example.sentence()}. {FAIRNESS}.")
    else:
        sentence = f"{against}: the sheet rates none of the access patterns these runs measured."
    return SpecVerdict(pick=pick, comparison=None, run_ids=[], fair=0, sentence=sentence)
