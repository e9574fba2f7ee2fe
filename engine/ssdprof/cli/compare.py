"""``ssdprof compare``: mean ± CI of one group's figures with their % of spec, or two groups
compared setting by setting; ``--json`` prints the contract's :class:`CompareReport`.

Called by ``ssdprof.cli.analysis.handle``; the spec sheet for each group comes from the one rule
the app and the PDF use (``app.spec_sheets.spec_for``: chosen, else remembered for the device,
else matched to the drive model)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ssdprof.analysis.pooled import StoredBins
from ssdprof.analysis.spec_choice import drive_environment
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec
from ssdprof.app.contract.analysis import ObservationInfo
from ssdprof.app.contract.specs import CompareReport, GroupVerdict, RepeatGroup, RunSpecComparison
from ssdprof.app.spec_sheets import spec_for
from ssdprof.cli.analysis import print_json, select_runs, spec_library
from ssdprof.model.quantities import format_number as number
from ssdprof.model.run_summary import AnyRun
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store

if TYPE_CHECKING:
    from ssdprof.analysis.stats import GroupComparison

__all__ = ["compare"]


def compare(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.metrics import settings_kept

    a = select_runs(store, args.run_ids, args.tags, args.sweep)
    b = select_runs(store, args.with_ids, args.with_tags, args.with_sweep)
    if not a:
        raise WorkloadError.single("run_ids", "RUN_ID",
                                   "name runs to compare: RUN_ID..., --tag KEY=VALUE or --sweep ID")
    with settings_kept([*a, *b]):  # the comparison and every observation key the same runs
        return _compare(args, store, a, b)


def _compare(args: argparse.Namespace, store: Store, a: Sequence[AnyRun], b: Sequence[AnyRun]) -> int:
    from ssdprof.analysis.metrics import latency_kind_note, metric_name
    from ssdprof.analysis.observations import observe
    from ssdprof.analysis.stats import compare_groups, summarise_repeats

    shown = metric_name(args.metric)
    scale, unit = shown.scale, shown.unit
    bins = StoredBins(store.latency_bins, [r.id for r in (*a, *b) if r.id is not None])
    report = CompareReport(metric=args.metric, unit=unit)
    lines: list[str] = []
    if b:
        found = compare_groups(a, b, args.metric, confidence=args.confidence, scale=scale, unit=unit, bins_of=bins)
        if not found:
            raise WorkloadError.single("with_ids", "--with",
                                       "no setting was measured in both groups; compare like with like")
        for c in found:
            lines += ["" if c.same_setting else "note: the two groups were measured with different settings",
                      f"{c.setting}: {_figures(c, shown.label, unit)}", f"  {c.result.verdict}"]
        note = latency_kind_note(a, b)
        report = report.model_copy(update={"comparisons": [GroupVerdict.of(c) for c in found],
                                           "latency_note": note})
        lines.append(f"note: {note}" if note else "")
    else:
        groups = summarise_repeats(a, args.metric, args.confidence, args.pool, bins)
        lines += [f"{g.label:34} {g.ci.format(scale, unit)}  {g.source}" + _run_list(g.run_ids)
                  for g in groups]
        report = report.model_copy(update={"groups": [RepeatGroup.of(g) for g in groups],
                                           "spec": _spec_lines(a, args, store, lines)})
    link = args.link_gbps * 1e9 / 8 if args.link_gbps else None
    observations = observe([*a, *b], link_bytes_per_s=link)
    report = report.model_copy(update={"observations": [ObservationInfo.of(o) for o in observations]})
    lines += [f"note: {o.message}" for o in observations]
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        print("\n".join(line for line in lines if line))
    return 0


def _figures(c: GroupComparison, label: str, unit: str) -> str:
    """A's and B's figures: means ± CI, or a percentile of all each group's I/Os (their added bins)."""
    if c.pooled is None:
        return f"A {c.result.a.format(1, unit)} | B {c.result.b.format(1, unit)}"
    a, b = ("unknown" if v is None else f"{number(v)} {unit}" for v in c.pooled)
    return f"{label}: A {a} | B {b} (each of all its runs' I/Os together)"


def _run_list(run_ids: Sequence[int | None]) -> str:
    return f" (runs {', '.join(map(str, run_ids))})" if len(run_ids) > 1 else ""


def _spec_for(run: AnyRun, args: argparse.Namespace, store: Store,
              library: SpecLibrary) -> tuple[Spec | None, str]:
    """``--spec none``: no sheet; an id: that sheet; ``auto``: the app's rule for the device."""
    if args.spec == "none":
        return None, ""
    chosen = None if args.spec == "auto" else args.spec
    spec, pick = spec_for(store, library, drive_environment(run), chosen)
    return spec, ("chosen with --spec" if chosen else pick.note)


def _spec_lines(runs: Sequence[AnyRun], args: argparse.Namespace, store: Store,
                lines: list[str]) -> list[RunSpecComparison]:
    """% of spec per setting: fair comparisons are printed, the rest only counted (all are in --json)."""
    from ssdprof.analysis.spec_comparison import Status, best_comparisons, compare_repeats
    from ssdprof.analysis.stats import summarise_repeats

    library = spec_library(args)
    out: list[RunSpecComparison] = []
    said: set[str] = set()
    for group in summarise_repeats(runs, "iops", args.confidence, args.pool):
        members = [r for r in runs if r.id in group.run_ids]
        spec, how = _spec_for(members[0], args, store, library)
        if spec is None:
            if how and how not in said:
                lines.append(f"spec: {how}")
                said.add(how)
            continue
        if spec.id not in said:
            lines.append(f"spec: {spec.title} ({how})")
            said.add(spec.id)
        comparisons = best_comparisons(compare_repeats(spec, members))
        fair = [c for c in comparisons if c.status is not Status.MISMATCH]
        lines += [f"  {group.label}: {c.sentence()}" for c in fair]
        if comparisons and not fair:
            rated = "; ".join(sorted({c.figure.conditions() for c in comparisons}))
            lines.append(f"  {group.label}: no rating at these conditions (rated: {rated})")
        ids = [i for i in group.run_ids if i is not None]
        out += [RunSpecComparison(run_id=ids[0], run_ids=ids, spec_id=spec.id, how=how, comparison=c,
                                  sentence=c.sentence()) for c in comparisons]
    return out
