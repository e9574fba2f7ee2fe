"""A vendor's rated figures beside a latency curve, chosen by the same rules as "% of spec".

Rated IOPS are drawn only when the curve's full-speed run was measured the way the figure was rated
(pattern, access size, outstanding I/Os: :func:`compare_run`); a rated latency is for an unloaded drive,
which the curve's lightest points are, so its queue depth is not held against the curve, but pattern,
access size and the rest are. Figures left out are named with the reason.
"""

from __future__ import annotations

from typing import Literal

from ssdprof.analysis.spec_comparison import Status, compare_run, condition_notes, run_access
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Figure, Spec
from ssdprof.model.curves import CurveSpecOverlay, SpecReference
from ssdprof.model.results import RunResult

__all__ = ["curve_spec_overlay", "spec_references"]


def curve_spec_overlay(library: SpecLibrary, spec_id: str | None, maximum: RunResult | None) -> CurveSpecOverlay:
    """The chosen sheet (``spec_id``; KeyError when unknown) or the one matching the drive, and its figures to draw."""
    if spec_id:
        spec = library.get(spec_id)
        how = "chosen"
    else:
        model = maximum.environment.device_model if maximum else ""
        found = library.match_detail(model) if model else None
        if found is None:
            why = f"no spec sheet matches the drive model '{model}'" if model else "the drive model was not recorded"
            return CurveSpecOverlay(spec_id=None, how=f"{why}; choose one (the Curves view's Spec sheet; "
                                                                 "--spec ID on the command line, see: ssdprof specs list)")
        spec = found.spec
        how = f"matched to the drive model '{model}'" + (f" ({found.note})" if found.note else "")
    if maximum is None:
        return CurveSpecOverlay(spec_id=spec.id, title=spec.title, how=f"{how}; the curve has no full-speed run yet")
    drawn, left_out = spec_references(spec, maximum)
    return CurveSpecOverlay(spec_id=spec.id, title=spec.title, how=how, references=drawn, left_out=left_out)


def spec_references(spec: Spec, maximum: RunResult) -> tuple[list[SpecReference], list[SpecReference]]:
    """(figures fair to draw beside the curve whose full-speed run is ``maximum``, the others with the reason)."""
    access = run_access(maximum)
    if access is None:
        return [], []
    drawn: list[SpecReference] = []
    left_out: list[SpecReference] = []
    iops = {id(c.figure): c for c in compare_run(spec, maximum) if c.figure.quantity == "iops"}
    for figure in (f for f in spec.figures if f.metric is access[0]):
        if figure.quantity == "bandwidth":
            continue
        if figure.quantity == "iops":
            comparison = iops[id(figure)]
            differ = comparison.notes if comparison.status is Status.MISMATCH else []
            unstated = [] if differ else comparison.notes
        else:
            differ, unstated = condition_notes(figure, maximum, depth=False)
            if not spec.figure_sourced(figure):
                unstated.append("unsourced: the sheet names no public source for this figure")
        quantity: Literal["iops", "latency"] = "iops" if figure.quantity == "iops" else "latency"
        if differ:
            left_out.append(SpecReference(quantity=quantity, value=figure.canonical_value, label=_label(spec, figure),
                                          status=Status.MISMATCH.value, note="; ".join(differ)))
            continue
        note = "; ".join(unstated) if unstated else "rated as this curve ran"
        if figure.quantity == "latency":
            note = f"rated for an unloaded drive: compare with the curve's lightest load ({note})"
        drawn.append(SpecReference(quantity=quantity, value=figure.canonical_value, label=_label(spec, figure),
                                   status=(Status.UNSTATED if unstated else Status.MATCHED).value, note=note))
    return drawn, left_out


def _label(spec: Spec, figure: Figure) -> str:
    value = f"{figure.value:,.0f}" if float(figure.value).is_integer() else f"{figure.value:,.6g}"
    what = "IOPS" if figure.quantity == "iops" else f"{figure.statistic} latency {value} {figure.unit.replace('us', 'µs')}"
    rated = f"{value} IOPS" if figure.quantity == "iops" else what
    return f"{spec.model}: rated {rated} ({figure.conditions()})"
