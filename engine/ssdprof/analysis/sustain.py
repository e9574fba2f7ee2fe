"""Where a sustained write's speed falls: change points in the per-second bandwidth found by ruptures
(PELT, least-squares cost) with a BIC-like penalty scaled by the series' own noise, then the phases
between them, the drops that count and the verdict in words.

Noise: sigma from the median absolute difference of neighbouring seconds (robust to the steps
themselves and to outliers: a step is one large difference among many small ones). Penalty:
``2 sigma^2 ln n`` per change, the BIC for a change in mean under Gaussian noise. What counts: a phase
lasts at least 5 s, a shorter dip between faster phases is merged away, and a drop is at least 20 %
below the phase before; neighbouring phases closer than that are one phase. Nothing is forced: a
series with no such drop is "no cliff".
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import ruptures
from scipy.signal import medfilt

from ssdprof.model.sustain_results import (
    Confidence,
    PhaseCause,
    SustainDrop,
    SustainPhase,
    SustainSample,
    SustainThrottle,
    SustainVerdict,
)

__all__ = ["MIN_DROP_FRACTION", "MIN_PHASE_S", "MIN_SAMPLES", "Detection", "confidence_of", "detect", "noise_sigma"]

MIN_PHASE_S = 5
MIN_DIP_FRACTION = 0.03
"""A phase of at most this share of the run (or of 2 x MIN_PHASE_S) slower or faster than both its
neighbours is an excursion (a dip, a burst), merged away."""
MIN_DROP_FRACTION = 0.20
MIN_SAMPLES = 10
MAX_EXACT_SAMPLES = 1000
"""Longer series are segmented in blocks of seconds, and each change then placed to the second."""
MEDIAN_WINDOW = 5


@dataclass(frozen=True)
class Detection:
    phases: list[SustainPhase]
    verdict: SustainVerdict


def noise_sigma(bw: np.ndarray) -> float:
    """The noise of one second's speed: median |x[i+1] - x[i]| / (0.6745 * sqrt 2) for Gaussian noise,
    floored at 0.1 % of the median speed (a perfectly flat series still has a scale)."""
    diffs = np.abs(np.diff(bw))
    sigma = float(np.median(diffs)) / (0.6745 * math.sqrt(2)) if len(diffs) else 0.0
    return max(sigma, 1e-3 * float(np.median(bw)), 1.0)


def detect(samples: list[SustainSample], throttle: SustainThrottle | None = None) -> Detection:
    """Phases and verdict of a write's per-second series."""
    if len(samples) < MIN_SAMPLES:
        return Detection([], SustainVerdict(kind="too_short", sentence=(
            f"{len(samples)} second(s) of writes: too few to judge (at least {MIN_SAMPLES} are needed)")))
    bw = np.array([s.bw_bytes_per_s for s in samples], dtype=float)
    bounds = _merged(bw, _change_points(bw))
    drops = _drops(samples, bw, bounds, throttle)
    phases = [_phase(samples, bw, i, start, end, drops=drops) for i, (start, end) in enumerate(itertools.pairwise(bounds))]
    return Detection(phases, _verdict(phases, drops, throttle))


def _change_points(bw: np.ndarray) -> list[int]:
    """Segment starts (0 first) and the end (len) of the best segmentation under the penalty.

    Segmented on a 5 s running median (one-second outliers are not phases; steps stay where they are);
    a long series in blocks of k seconds (k^-1/2 the noise), each change then placed to the second."""
    n = len(bw)
    smooth = medfilt(bw, MEDIAN_WINDOW) if n >= MEDIAN_WINDOW else bw
    k = max(1, math.ceil(n / MAX_EXACT_SAMPLES))
    blocks = np.array([smooth[i : i + k].mean() for i in range(0, n, k)])
    sigma = noise_sigma(bw) / math.sqrt(k)
    algo = ruptures.Pelt(model="l2", min_size=max(2, math.ceil(MIN_PHASE_S / k))).fit(blocks.reshape(-1, 1))
    ends = [int(e) for e in algo.predict(pen=2 * sigma**2 * math.log(len(blocks)))]
    cuts = [_refined(smooth, e * k, k) if k > 1 else e for e in ends[:-1]]
    return [0, *sorted(set(cuts)), n]


def _refined(bw: np.ndarray, cut: int, k: int) -> int:
    """The change point to the second: the split within one block either side with the least
    squared error over the four blocks around it."""
    lo, hi = max(cut - 2 * k, 0), min(cut + 2 * k, len(bw))
    best, best_cost = cut, math.inf
    for split in range(max(cut - k, lo + 1), min(cut + k, hi - 1) + 1):
        left, right = bw[lo:split], bw[split:hi]
        cost = float(((left - left.mean()) ** 2).sum() + ((right - right.mean()) ** 2).sum())
        if cost < best_cost:
            best, best_cost = split, cost
    return best


def _merged(bw: np.ndarray, bounds: list[int]) -> list[int]:
    """Dips merged into their neighbours, then neighbouring phases within 20 % of each other joined."""
    bounds = list(bounds)
    changed = True
    while changed and len(bounds) > 2:
        changed = False
        means = [float(bw[a:b].mean()) for a, b in itertools.pairwise(bounds)]
        shortest = max(2 * MIN_PHASE_S, math.ceil(MIN_DIP_FRACTION * len(bw)))
        for i in range(1, len(means) - 1):  # a short stretch slower or faster than both sides: an excursion
            beside = (means[i - 1], means[i + 1])
            if bounds[i + 1] - bounds[i] <= shortest and (means[i] < min(beside) or means[i] > max(beside)):
                # between two alike phases it joins them into one; else it joins the one before
                end = i + 2 if _close(means[i - 1], means[i + 1]) else i + 1
                del bounds[i:end]
                changed = True
                break
        if changed:
            continue
        for i in range(len(means) - 1):
            if _close(means[i], means[i + 1]):
                del bounds[i + 1]
                changed = True
                break
    return bounds


def _close(a: float, b: float) -> bool:
    return abs(a - b) < MIN_DROP_FRACTION * max(a, b, 1e-9)


def _drops(samples: list[SustainSample], bw: np.ndarray, bounds: list[int],
           throttle: SustainThrottle | None) -> dict[int, SustainDrop]:
    """The drops that count, by the index of the phase they lead into."""
    found: dict[int, SustainDrop] = {}
    for i in range(1, len(bounds) - 1):
        before, after = float(bw[bounds[i - 1]:bounds[i]].mean()), float(bw[bounds[i]:bounds[i + 1]].mean())
        if after > before * (1 - MIN_DROP_FRACTION):
            continue
        at_bytes, at_s = _crossing(samples, bounds[i], before, after)
        hot = throttle is not None and throttle.overlaps_drop and not found
        found[i] = SustainDrop(at_bytes=at_bytes, at_s=at_s, before_bw_bytes_per_s=before,
                               after_bw_bytes_per_s=after, drop_pct=100 * (1 - after / before),
                               cause="throttling" if hot else "cache")
    return found


def _crossing(samples: list[SustainSample], k: int, fast: float, slow: float) -> tuple[int, float]:
    """Bytes and time at the drop, within the second it happened in: the first slow second may have
    begun fast, and its speed says for what share of it (a linear mix of the two phases' speeds)."""
    first = samples[k]
    start_bytes = samples[k - 1].bytes_written if k else 0
    start_s = samples[k - 1].elapsed_s if k else 0.0
    interval = max(first.elapsed_s - start_s, 1e-9)
    share = min(max((first.bw_bytes_per_s - slow) / (fast - slow), 0.0), 1.0) if fast > slow else 0.0
    return int(start_bytes + share * fast * interval), start_s + share * interval


def _phase(samples: list[SustainSample], bw: np.ndarray, index: int, start: int, end: int, *,
           drops: dict[int, SustainDrop]) -> SustainPhase:
    part = samples[start:end]
    lats = [s.lat_ns_mean for s in part if s.lat_ns_mean is not None]
    p99s = [s.lat_ns_p99 for s in part if s.lat_ns_p99 is not None]
    begin_bytes = samples[start - 1].bytes_written if start else 0
    begin_s = samples[start - 1].elapsed_s if start else 0.0
    cause, name = _named(index, drops)
    return SustainPhase(index=index, name=name, cause=cause, start_s=begin_s, end_s=part[-1].elapsed_s,
                        duration_s=part[-1].elapsed_s - begin_s, start_bytes=begin_bytes,
                        bytes_written=part[-1].bytes_written - begin_bytes,
                        bw_mean_bytes_per_s=float(bw[start:end].mean()), bw_sd_bytes_per_s=float(bw[start:end].std(ddof=1))
                        if end - start > 1 else 0.0,
                        lat_ns_mean=float(np.mean(lats)) if lats else None,
                        lat_ns_sd=float(np.std(lats, ddof=1)) if len(lats) > 1 else None,
                        lat_ns_p99_mean=float(np.mean(p99s)) if p99s else None)


_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def _named(index: int, drops: dict[int, SustainDrop]) -> tuple[PhaseCause, str]:
    """A phase by the drops before it: the cache, after the cache, after the second drop..."""
    earlier = [drops[i] for i in sorted(drops) if i <= index]
    drops_before = len(earlier)
    if not drops:
        return "steady", "steady" if index == 0 else f"phase {index + 1}"
    if drops_before == 0:
        first = drops[min(drops)]
        return ("cache", "cache") if first.cause == "cache" else ("steady", "before throttling")
    if earlier[-1].cause == "throttling":
        return "throttling", "throttled"
    if drops_before == 1:
        return "after_cache", "after the cache"
    word = _ORDINALS[drops_before - 1] if drops_before <= len(_ORDINALS) else f"#{drops_before}"
    return "after_cache", f"after the {word} drop"


def confidence_of(separation: float) -> tuple[float, Confidence]:
    """How sure a change is from the two phases' separation d (|mean difference| / pooled sd):
    1 - exp(-d^2 / 8), i.e. d = 2 -> 0.39, 4 -> 0.86, 6 -> 0.99; words: high from d = 4, moderate from 2."""
    value = 1 - math.exp(-(separation**2) / 8)
    return value, "high" if separation >= 4 else "moderate" if separation >= 2 else "low"


def _verdict(phases: list[SustainPhase], by_phase: dict[int, SustainDrop],
             throttle: SustainThrottle | None) -> SustainVerdict:
    last = phases[-1].bw_mean_bytes_per_s
    drops = [by_phase[i] for i in sorted(by_phase)]
    if not drops:
        return SustainVerdict(kind="no_cliff", sustained_bw_bytes_per_s=last, sentence=(
            f"No cliff: write speed held at {_mbs(last)} on average over the whole write (no sustained drop of "
            f"{MIN_DROP_FRACTION:.0%} or more)."))
    first = drops[0]
    before, after = phases[min(by_phase) - 1], phases[min(by_phase)]
    pooled = math.sqrt((before.bw_sd_bytes_per_s**2 + after.bw_sd_bytes_per_s**2) / 2)
    separation = abs(before.bw_mean_bytes_per_s - after.bw_mean_bytes_per_s) / max(pooled, 1e-9)
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


def _mbs(bytes_per_s: float) -> str:
    return f"{bytes_per_s / 1e6:,.0f} MB/s" if bytes_per_s >= 1e7 else f"{bytes_per_s / 1e6:,.1f} MB/s"


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / 1e9:,.1f} GB ({n_bytes / 2**30:,.1f} GiB)" if n_bytes >= 1e9 else f"{n_bytes / 2**20:,.0f} MiB"
