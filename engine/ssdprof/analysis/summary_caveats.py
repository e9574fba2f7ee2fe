"""What the summary's figures cannot tell: a cache or the measuring machine may have answered,
the points were short, each ran once, one setting was measured separately, the drive is not named,
and which runs were left out."""

from __future__ import annotations

from collections.abc import Sequence

from ssdprof.analysis.metrics import setting_key
from ssdprof.analysis.repeats import setting_label
from ssdprof.analysis.spec_choice import SpecPick
from ssdprof.analysis.summary_figures import figures, run_ids
from ssdprof.analysis.summary_model import Caveat, CaveatCode
from ssdprof.analysis.summary_words import iops_text, runs_text
from ssdprof.model.results import RunResult

__all__ = ["SHORT_RUNTIME_S", "caveats"]

SHORT_RUNTIME_S = 10.0
"""Below this a point is a burst: a drive's fast write cache (SLC) absorbs it, one stall weighs
heavily."""
_CACHE = frozenset({"cache_suspected", "above_interface_limit", "buffered"})
_LIMITS = frozenset({"cpu_saturated", "cpu_bound", "network_bound", "engine_queue_bound"})
_OUTSIDE = frozenset({"capped_outside_host"})
_NAMED = 3
"""Settings measured separately named one by one; the rest counted."""

Group = Sequence[RunResult]


def _caveat(code: CaveatCode, runs: Sequence[RunResult], message: str) -> Caveat:
    return Caveat(code=code, run_ids=sorted(run_ids(runs)), message=message)


def _flagged(groups: Sequence[Group], codes: frozenset[str]) -> tuple[list[RunResult], str]:
    """The runs with a validity warning of ``codes``, and the first such warning's words."""
    runs = [r for g in groups for r in g if any(w.code in codes for w in r.warnings)]
    first = next((w.message for r in runs for w in r.warnings if w.code in codes), "")
    return runs, first


def _validity(groups: Sequence[Group]) -> list[Caveat]:
    found = []
    runs, first = _flagged(groups, _CACHE)
    if runs:
        found.append(_caveat("cache_suspected", runs, (
            f"A cache, not the drive, may have answered in {runs_text(sorted(run_ids(runs)))} "
            f"({first}): leave those figures out, or rerun with direct I/O on the drive itself.")))
    runs, first = _flagged(groups, _LIMITS)
    if runs:
        found.append(_caveat("measurement_limit", runs, (
            f"The measuring machine may have been the limit in {runs_text(sorted(run_ids(runs)))} "
            f"({first}): the drive may do more.")))
    runs, first = _flagged(groups, _OUTSIDE)
    if runs:
        found.append(_caveat("capped_outside", runs, (
            f"Something between the host and the storage held {runs_text(sorted(run_ids(runs)))} to a steady rate "
            f"({first}): those figures are the path's, not the drive's.")))
    return found


def _short(groups: Sequence[Group]) -> list[Caveat]:
    every = [r for g in groups for r in g]
    runs = [r for r in every if r.workload.runtime_s < SHORT_RUNTIME_S
            or any(w.code == "short_run" for w in r.warnings)]
    if not runs:
        return []
    times = sorted({r.workload.runtime_s for r in runs})
    each = f"{times[0]:g} s" if len(times) == 1 else f"{times[0]:g}–{times[-1]:g} s"
    if any(w.code == "short_run" for r in runs for w in r.warnings):
        each += " (or less than asked)"
    some = runs_text(sorted(run_ids(runs))).capitalize()
    which = "Every point" if len(runs) == len(every) else some
    return [_caveat("short_runs", runs, (
        f"{which} measured for {each}: under {SHORT_RUNTIME_S:g} s a drive's "
        "fast write cache absorbs the writes and one stall weighs heavily; rerun with --runtime 30 "
        "or more before handing the figures in."))]


def _once(groups: Sequence[Group]) -> list[Caveat]:
    once = [g for g in groups if len(g) == 1]
    if not once:
        return []
    some = f"{len(once)} of {len(groups)} settings"
    which = "Every setting" if len(once) == len(groups) else some
    return [_caveat("one_repeat", [r for g in once for r in g], (
        f"{which} ran once (n = 1): no confidence interval, so the run-to-run spread is unknown; "
        "repeat the sweep (--repeat 3, or Repeats in the designer) for mean ± 95 % CI."))]


def _separate(groups: Sequence[Group]) -> list[Caveat]:
    """Settings measured by separate runs that are not repeats: shown apart, their gap named."""
    by_setting: dict[tuple[object, ...], list[Group]] = {}
    for group in groups:
        by_setting.setdefault(setting_key(group[0]), []).append(group)
    found = []
    for measured in (m for m in by_setting.values() if len(m) > 1):
        rates = [figures(g).iops for g in measured]
        spread = (max(rates) - min(rates)) / min(rates) if min(rates) > 0 else 0.0
        runs = [r for g in measured for r in g]
        found.append(_caveat("separate_measurements", runs, (
            f"{setting_label(runs[0])} was measured separately in "
            f"{runs_text(sorted(run_ids(runs)))} "
            f"({', '.join(iops_text(r) for r in rates)} IOPS, {spread * 100:.0f} % apart): not "
            "repeats, so not averaged; the gap hints at the run-to-run spread.")))
    if len(found) > _NAMED:
        rest = sorted(i for c in found[_NAMED:] for i in c.run_ids)
        found = [*found[:_NAMED], Caveat(code="separate_measurements", run_ids=rest, message=(
            f"{len(found) - _NAMED} more settings were measured separately ({runs_text(rest)})."))]
    return found


def _left_out(runs: Sequence[RunResult], pick: SpecPick) -> list[Caveat]:
    found = []
    if any(not r.environment.device_model for r in runs):
        found.append(Caveat(code="device_unknown", run_ids=[], message=(
            f"The drive model of {pick.device} is not recorded (a virtual disk, or a drive the OS "
            "does not name): the figures are of whatever lies beneath it, on a virtual machine the "
            "host's storage and its caches.")))
    paced = [r for r in runs if r.workload.rate_iops and r.status in ("ok", "partial")]
    if paced:
        found.append(_caveat("offered_rate", paced, (
            f"{runs_text(sorted(run_ids(paced))).capitalize()} ran at an offered rate (a load "
            "curve or a latency-target search), left out here: they measure latency at a set load, "
            "not the drive's best.")))
    failed = [r for r in runs if r.status not in ("ok", "partial")]
    if failed:
        found.append(_caveat("not_measured", failed, (
            f"{runs_text(sorted(run_ids(failed))).capitalize()} failed or were cancelled and are "
            "left out.")))
    return found


def caveats(runs: Sequence[RunResult], groups: Sequence[Group], pick: SpecPick) -> list[Caveat]:
    """What the figures cannot tell, most serious first."""
    return [*_validity(groups), *_short(groups), *_once(groups), *_separate(groups),
            *_left_out(runs, pick)]
