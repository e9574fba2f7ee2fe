"""A sustained write's verdict in words, from the phases its change points gave: no cliff, a cache
cliff (its size, the speeds before and after, their ratio and how sure it is), or thermal throttling.
"""

from __future__ import annotations

import math

from ssdprof.model.quantities import format_elapsed
from ssdprof.model.sustain_results import Confidence, SustainDrop, SustainPhase, SustainThrottle, SustainVerdict

__all__ = ["confidence_of", "verdict_of"]


def confidence_of(separation: float) -> tuple[float, Confidence]:
    """How sure a change is from the two phases' separation d (|mean difference| / pooled sd):
    1 - exp(-d^2 / 8), i.e. d = 2 -> 0.39, 4 -> 0.86, 6 -> 0.99; words: high from d = 4, moderate from 2."""
    value = 1 - math.exp(-(separation**2) / 8)
    return value, "high" if separation >= 4 else "moderate" if separation >= 2 else "low"


def verdict_of(phases: list[SustainPhase], levels: list[tuple[float, float]], by_phase: dict[int, SustainDrop],
               throttle: SustainThrottle | None, *, min_drop_fraction: float,
               whole_write: tuple[int, float] | None = None) -> SustainVerdict:
    """The test's verdict in words: no cliff (the whole write's bytes over its time, ``whole_write``
    where known), a cache cliff with its speeds (each phase's bytes over its time), ratio and
    confidence (from the phases' whole seconds: ``levels``, each phase's mean and sd), or thermal
    throttling; ``by_phase``: the drop that starts each phase after the first."""
    last = phases[-1].bw_bytes_per_s
    drops = [by_phase[i] for i in sorted(by_phase)]
    if not drops:
        return _no_cliff(phases, min_drop_fraction, whole_write)
    first = drops[0]
    (before_mean, before_sd), (after_mean, after_sd) = levels[min(by_phase) - 1], levels[min(by_phase)]
    pooled = math.sqrt((before_sd**2 + after_sd**2) / 2)
    separation = abs(before_mean - after_mean) / max(pooled, 1e-9)
    confidence, words = confidence_of(min(separation, 1e6))
    ratio = first.before_bw_bytes_per_s / max(first.after_bw_bytes_per_s, 1e-9)
    kind = "throttling" if first.cause == "throttling" else "cliff"
    more = f" {len(drops) - 1} further drop(s) follow; the drive then holds {_mbs(last)}." if len(drops) > 1 else ""
    if kind == "throttling":
        text = (f"Write speed fell from {_mbs(first.before_bw_bytes_per_s)} to {_mbs(first.after_bw_bytes_per_s)} "
                f"after {_gb(first.at_bytes)} while the drive throttled ({throttle.text if throttle else ''}): "
                "thermal throttling, not a cache cliff; cool the drive and run again to find its cache.")
    else:
        text = (f"Cache cliff after {_gb(first.at_bytes)}: {_mbs(first.before_bw_bytes_per_s)} before, "
                f"{_mbs(first.after_bw_bytes_per_s)} after ({ratio:.1f}x slower), {words} confidence.{more}")
    return SustainVerdict(kind=kind, cache_bytes=first.at_bytes if kind == "cliff" else None,
                          before_bw_bytes_per_s=first.before_bw_bytes_per_s,
                          after_bw_bytes_per_s=first.after_bw_bytes_per_s, sustained_bw_bytes_per_s=last, ratio=ratio,
                          confidence=confidence, confidence_words=words, separation=separation, drops=drops,
                          sentence=text)


def _no_cliff(phases: list[SustainPhase], min_drop_fraction: float,
              whole_write: tuple[int, float] | None) -> SustainVerdict:
    written = whole_write[0] if whole_write else sum(p.bytes_written for p in phases)
    seconds = whole_write[1] if whole_write else sum(p.duration_s for p in phases)
    speed = written / seconds if seconds > 0 else phases[-1].bw_bytes_per_s
    parts = "; its phases: " + ", then ".join(f"{_mbs(p.bw_bytes_per_s)} for {format_elapsed(p.duration_s)}"
                                              for p in phases) if len(phases) > 1 else ""
    return SustainVerdict(kind="no_cliff", sustained_bw_bytes_per_s=speed, sentence=(
        f"No cliff: {_gb(written)} written in {format_elapsed(seconds)}, {_mbs(speed)} over the whole write, with no "
        f"sustained drop of {100 * min_drop_fraction:.0f} % or more{parts}."))


def _mbs(bytes_per_s: float) -> str:
    return f"{bytes_per_s / 1e6:,.0f} MB/s" if bytes_per_s >= 1e7 else f"{bytes_per_s / 1e6:,.1f} MB/s"


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / 2**30:,.2f} GiB" if n_bytes >= 2**30 else f"{n_bytes / 2**20:,.0f} MiB"
