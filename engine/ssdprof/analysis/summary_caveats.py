"""What the summary's figures cannot tell: a cache or the measuring machine may have answered,
the points were short, each ran once, one setting was measured separately, the drive is not named,
and which runs were left out."""

from __future__ import annotations

from collections.abc import Sequence

from ssdprof.analysis.metrics import setting_key
from ssdprof.analysis.repeats import setting_label
from ssdprof.analysis.spec_choice import SpecPick
from ssdprof.analysis.summary_figures import figures, other_tool, run_ids
from ssdprof.analysis.summary_model import Caveat, CaveatCode
from ssdprof.analysis.summary_spread import by_setting, spread
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
    """The runs with a validity warning of ``codes``, and what the warnings say: one run's words, or
    of several each run's figure (a CPU 90 to 96 % busy is not "90 % busy")."""
    runs = [r for g in groups for r in g if any(w.code in codes for w in r.warnings)]
    said = [(r, w.message) for r in runs for w in r.warnings if w.code in codes]
    if len({message for _, message in said}) <= 1:
        return runs, said[0][1] if said else ""
    busy = [(r.id, r.cpu_busy_pct) for r, message in said if message.startswith("the CPU was") and r.cpu_busy_pct]
    if len(busy) == len(said):
        low, high = min(b for _, b in busy), max(b for _, b in busy)
        each = ", ".join(f"run {run_id}: {pct:.0f} %" for run_id, pct in busy[:_NAMED * 2])
        more = f", and {len(busy) - _NAMED * 2} more" if len(busy) > _NAMED * 2 else ""
        return runs, f"the CPU was {low:.0f} to {high:.0f} % busy ({each}{more})"
    shown = "; ".join(f"run {r.id}: {message}" for r, message in said[:_NAMED])
    return runs, shown + (f"; and {len(said) - _NAMED} more" if len(said) > _NAMED else "")


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
            f"The measuring machine may have been the limit in {runs_text(sorted(run_ids(runs)))}: {first}; "
            "the drive may do more.")))
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
        "fast write cache absorbs the writes and one stall weighs heavily; run them again for 30 s or more "
        "(Runtime in the designer, --runtime 30 on the command line) before handing the figures in."))]


def _once(groups: Sequence[Group]) -> list[Caveat]:
    """Settings measured by one run only (a setting measured by several separate runs is not)."""
    settings = list(by_setting(groups).values())
    once = [runs for runs in settings if len(runs) == 1]
    found = []
    if once:
        some = f"{len(once)} of {len(settings)} settings"
        which = "Every setting" if len(once) == len(settings) else some
        found.append(_caveat("one_repeat", [r for runs in once for r in runs], (
            f"{which} ran once (n = 1): no confidence interval, so the run-to-run spread is unknown; "
            "repeat the sweep (Repeats in the designer, --repeat 3 on the command line) for mean ± 95 % CI.")))
    return found


def _separate(groups: Sequence[Group]) -> list[Caveat]:
    """Settings measured by separate runs that are not repeats: shown apart, their gap named; a setting
    of many runs by their mean ± 95 % CI, with the way to pool them."""
    by_setting: dict[tuple[object, ...], list[Group]] = {}
    for group in groups:
        by_setting.setdefault(setting_key(group[0]), []).append(group)
    found = []
    for measured in (m for m in by_setting.values() if len(m) > 1):
        rates = [figures(g).iops for g in measured]
        gap = (max(rates) - min(rates)) / min(rates) if min(rates) > 0 else 0.0
        runs = [r for g in measured for r in g]
        all_runs = spread(runs, "iops") if len(measured) > _NAMED else None
        figures_text = (f"{', '.join(iops_text(r) for r in rates)} IOPS, {gap * 100:.0f} % apart" if all_runs is None
                        else f"{len(runs)} runs: {iops_text(all_runs.mean)} ± {iops_text(all_runs.half_width)} IOPS, "
                             f"95 % CI")
        found.append(_caveat("separate_measurements", runs, (
            f"{setting_label(runs[0])} was measured separately in {runs_text(sorted(run_ids(runs)))} "
            f"({figures_text}): not repeats, so not averaged; each figure above is one of them. Pool runs of one "
            "setting (the Pool switch under the Results table, --pool on the command line) for one mean ± 95 % "
            "CI of them all.")))
    if len(found) > _NAMED:
        rest = sorted(i for c in found[_NAMED:] for i in c.run_ids)
        found = [*found[:_NAMED], Caveat(code="separate_measurements", run_ids=rest, message=(
            f"{len(found) - _NAMED} more settings were measured separately ({runs_text(rest)})."))]
    return found


def _left_out(runs: Sequence[RunResult], pick: SpecPick) -> list[Caveat]:
    found = []
    if any(not r.environment.device_model for r in runs if not other_tool(r)):
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
    by_tool: dict[str, list[RunResult]] = {}
    for run in runs:
        if (tool := other_tool(run)) is not None:
            by_tool.setdefault(tool, []).append(run)
    for tool, imported in sorted(by_tool.items()):
        found.append(_caveat("other_tool", imported, (
            f"{runs_text(sorted(run_ids(imported))).capitalize()} {'were' if len(imported) > 1 else 'was'} "
            f"measured by {tool} and imported, left out here: another tool's test (its own test file, "
            "timing and latency) is not your measurement. The charts draw them beside yours.")))
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
