"""The knee of a latency curve, named in plain words: where p99 total latency doubles from its
light-load value, as the offered rate climbs through the percentages of the maximum."""

from __future__ import annotations

from itertools import pairwise

from ssdprof.model.curves import CurvePoint, Knee

__all__ = ["KNEE_FACTOR", "find_knee"]

KNEE_FACTOR = 2.0
"""p99 at this multiple of its value at the lightest load marks the knee."""


def find_knee(points: list[CurvePoint]) -> Knee | None:
    """The first fixed-rate point whose p99 reaches twice the lightest point's, with the point before it;
    a sentence either way once two fixed-rate points have a p99, else None."""
    paced = sorted((p for p in points if p.pct is not None and p.lat_ns_p99), key=lambda p: p.offered_iops)
    if len(paced) < 2:
        return None
    base = paced[0]
    assert base.lat_ns_p99 is not None and base.pct is not None
    for before, point in pairwise(paced):
        assert point.lat_ns_p99 is not None and before.pct is not None and point.pct is not None
        ratio = point.lat_ns_p99 / base.lat_ns_p99
        if ratio >= KNEE_FACTOR:
            rise = "doubles" if ratio < 3 else "triples" if ratio < 4 else f"rises {ratio:.0f}-fold"
            return Knee(text=(f"p99 {rise} between {before.pct} % and {point.pct} % of the maximum "
                              f"({_us(base.lat_ns_p99)} at {base.pct} %, {_us(point.lat_ns_p99)} at {point.pct} %)"),
                        from_pct=before.pct, to_pct=point.pct)
    top = paced[-1]
    assert top.lat_ns_p99 is not None
    return Knee(text=(f"p99 stays under twice its light-load value up to {top.pct} % of the maximum "
                      f"({_us(base.lat_ns_p99)} at {base.pct} %, {_us(top.lat_ns_p99)} at {top.pct} %)"))


def _us(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.0f} µs"
