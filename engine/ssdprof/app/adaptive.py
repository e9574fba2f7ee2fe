"""Sweeps that grow as they run (a curve under offered load, a latency target search): which one a
stored spec is, its points given what has been measured, how many points it will have, and the tags
each of its points carries."""

from __future__ import annotations

from ssdprof.analysis.curve_spec import curve_spec_overlay
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.curve import curve_tags, extend_curve, summarize_curve
from ssdprof.app.slo import extend_search, slo_tags, summarize_slo
from ssdprof.model.curves import CurveSummary, SloSummary
from ssdprof.model.events import Count
from ssdprof.model.results import RunResult
from ssdprof.model.status import SweepState
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store

__all__ = ["adapt", "adaptive_summaries", "is_adaptive", "point_tags", "progress_count", "stored",
           "stored_curve", "stored_slo"]


def is_adaptive(spec: SweepSpec) -> bool:
    return spec.curve is not None or spec.slo is not None


def adapt(spec: SweepSpec, measured: dict[int, RunResult]) -> SweepSpec:
    """The spec itself when nothing changes, else one with points added or cut."""
    if spec.curve is not None:
        return extend_curve(spec, measured)
    if spec.slo is not None:
        return extend_search(spec, measured)
    return spec


def progress_count(spec: SweepSpec, done: int) -> Count:
    """How far a sweep has got, as honestly as it is known: a plain sweep knows its points; a
    curve knows them from the start (at most, while a stop latency may still cut it short); a
    search does not know how deep it will go until it has its answer."""
    if spec.curve is not None:
        return _curve_count(spec, done)
    if spec.slo is not None:
        return Count.of(done, None, "open", "point", note="queue depths tried; the search goes on "
                        f"until it has its answer, QD{spec.slo.max_qd} at the deepest")
    repeats = f"{len(spec.points)} settings × {spec.repeats} repeats" if spec.repeats > 1 else ""
    return Count.of(done, spec.total_points(), "exact", "point", note=repeats)


def _curve_count(spec: SweepSpec, done: int) -> Count:
    """The probe and one point per rate, known before the probe has run (the runner adds the
    rates once it has); a stop latency cuts the rates after the first whose p99 passed it."""
    assert spec.curve is not None
    planned = 1 + len(spec.curve.points_pct)
    cut = 1 < len(spec.points) < planned
    total = len(spec.points) if cut else planned
    may_stop = spec.curve.stop_latency_ns is not None and not cut and done < total
    rates = total - 1
    note = f"1 full-speed probe + {rates} offered rate{'' if rates == 1 else 's'}"
    if cut:
        note += f": stopped after {rates} of {planned - 1}, p99 passed the stop latency"
    elif may_stop:
        note += ", fewer if p99 passes the stop latency"
    return Count.of(done, total, "at_most" if may_stop else "exact", "point", note=note)


def point_tags(spec: SweepSpec, index: int) -> dict[str, str]:
    tags = {"offered_iops": str(spec.points[index].rate_iops)} if spec.points[index].rate_iops else {}
    if spec.curve is not None:
        tags |= curve_tags(spec, index)
    if spec.slo is not None:
        tags |= slo_tags(spec, index)
    return tags


def stored(store: Store, sweep_id: int, kind: str
           ) -> tuple[SweepSpec, dict[int, RunResult], SweepState]:
    """A stored curve's or search's spec, finished points and status; KeyError when it is not one."""
    sweep = store.sweep(sweep_id)
    if sweep is None:
        raise KeyError(f"sweep {sweep_id} does not exist")
    if (kind == "curve" and sweep.spec.curve is None) or (kind == "slo" and sweep.spec.slo is None):
        raise KeyError(f"sweep {sweep_id} is not a {'curve' if kind == 'curve' else 'latency target search'}")
    return sweep.spec, store.sweep_results(sweep_id), sweep.status


def stored_curve(store: Store, sweep_id: int, library: SpecLibrary | None = None, spec_id: str | None = None) -> CurveSummary:
    """A stored curve; with a spec library, the chosen sheet's (or the drive's own) rated figures to draw beside it."""
    spec, measured, status = stored(store, sweep_id, "curve")
    summary = summarize_curve(spec, measured, sweep_id=sweep_id, status=status)
    if library is None:
        return summary
    return summary.model_copy(update={"spec": curve_spec_overlay(library, spec_id, measured.get(0))})


def adaptive_summaries(store: Store, sweep_id: int | None, library: SpecLibrary | None = None,
                       spec_id: str | None = None) -> tuple[tuple[CurveSummary, ...], tuple[SloSummary, ...]]:
    """The curve or latency-target search a sweep is (for its report), or nothing for a plain sweep."""
    sweep = store.sweep(sweep_id) if sweep_id is not None else None
    if sweep is None or sweep_id is None:
        return (), ()
    if sweep.spec.curve is not None:
        return (stored_curve(store, sweep_id, library, spec_id),), ()
    if sweep.spec.slo is not None:
        return (), (stored_slo(store, sweep_id),)
    return (), ()


def stored_slo(store: Store, sweep_id: int) -> SloSummary:
    spec, measured, status = stored(store, sweep_id, "slo")
    return summarize_slo(spec, measured, sweep_id=sweep_id, status=status)
