"""The knee of a latency curve, named in plain words: where p99 total latency doubles from its
light-load value, as the offered rate climbs through the percentages of the maximum.

Only points that kept up with their offered rate say where latency turns up: at a saturated point the
drive could not take the load offered, so its latency is that of a queue growing for the whole run,
and its rate is not the percentage it was asked at. A knee is named from the unsaturated points
alone; when most points saturated, the curve says so and why (the maximum they are percentages of
was not a rate the drive could hold)."""

from __future__ import annotations

from itertools import pairwise

from ssdprof.model.curves import SATURATION_TOLERANCE_PCT, CurvePoint, Knee

__all__ = ["KNEE_FACTOR", "find_knee", "saturation_words"]

KNEE_FACTOR = 2.0
"""p99 at this multiple of its value at the lightest load marks the knee."""


def find_knee(points: list[CurvePoint], tolerance_pct: float = SATURATION_TOLERANCE_PCT) -> Knee | None:
    """The first unsaturated fixed-rate point whose p99 reaches twice the lightest unsaturated point's,
    with the unsaturated point before it; a sentence either way once two such points have a p99, or
    why none is named where saturated points leave fewer; None for a curve of fewer than two points."""
    paced = sorted((p for p in points if p.pct is not None and p.lat_ns_p99), key=lambda p: p.offered_iops)
    kept = [p for p in paced if not p.saturated]
    saturation = saturation_words(paced, tolerance_pct)
    left_out = _left_out(paced)
    if len(kept) < 2:
        if len(paced) < 2:
            return None
        return Knee(text=(f"none named: {'only ' if kept else ''}{len(kept)} of the {len(paced)} offered rates kept up, "
                          "and a knee is read only from points that kept up with their offered rate"),
                    saturation=saturation)
    base = kept[0]
    assert base.lat_ns_p99 is not None and base.pct is not None
    for before, point in pairwise(kept):
        assert point.lat_ns_p99 is not None and before.pct is not None and point.pct is not None
        ratio = point.lat_ns_p99 / base.lat_ns_p99
        if ratio >= KNEE_FACTOR:
            rise = "doubles" if ratio < 3 else "triples" if ratio < 4 else f"rises {ratio:.0f}-fold"
            return Knee(text=(f"p99 {rise} between {before.pct} % and {point.pct} % of the maximum "
                              f"({_us(base.lat_ns_p99)} at {base.pct} %, {_us(point.lat_ns_p99)} at {point.pct} %)"
                              f"{left_out}"),
                        from_pct=before.pct, to_pct=point.pct, saturation=saturation)
    top = kept[-1]
    assert top.lat_ns_p99 is not None
    return Knee(text=(f"p99 stays under twice its light-load value up to {top.pct} % of the maximum "
                      f"({_us(base.lat_ns_p99)} at {base.pct} %, {_us(top.lat_ns_p99)} at {top.pct} %){left_out}"),
                saturation=saturation)


def saturation_words(paced: list[CurvePoint], tolerance_pct: float) -> str:
    """Said when most fixed-rate points saturated: how many, the lightest one's offered and achieved
    rates, and why; '' otherwise."""
    saturated = [p for p in paced if p.saturated]
    if not paced or 2 * len(saturated) <= len(paced):
        return ""
    first = min(saturated, key=lambda p: p.offered_iops)
    return (f"{len(saturated)} of the {len(paced)} offered rates saturated (achieved fell more than "
            f"{tolerance_pct:g} % short of offered; at {first.pct} % of the maximum the drive achieved "
            f"{first.achieved_iops:,.0f} of {first.offered_iops:,.0f} offered IOPS). The maximum, measured at full "
            "speed, was not a rate the drive could sustain (a write cache that fills, or a burst at the start, "
            "gives one), so percentages of it overload the drive: their latency is a queue that grew for the "
            "whole run, not a knee.")


def _left_out(paced: list[CurvePoint]) -> str:
    saturated = [f"{p.pct} %" for p in paced if p.saturated]
    if not saturated:
        return ""
    return f"; the saturated point{'s' if len(saturated) > 1 else ''} at {', '.join(saturated)} left out"


def _us(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.0f} µs"
