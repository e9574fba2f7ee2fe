"""Where a sustained write's speed falls: change points in the per-second bandwidth found by ruptures
(PELT, least-squares cost) with a BIC-like penalty scaled by the series' own noise, then the phases
between them, the drops that count and the verdict in words.

Noise: sigma from the median absolute difference of neighbouring seconds (robust to the steps
themselves and to outliers: a step is one large difference among many small ones). Penalty:
``2 sigma^2 ln n`` per change, the BIC for a change in mean under Gaussian noise. What counts: a phase
lasts at least 5 s, a shorter dip between faster phases is merged away, and a drop is at least 20 %
below the phase before; neighbouring phases closer than that are one phase. Merging only removes
boundaries, so each one left is then placed again where it splits its stretch best, and the phases
merged again until nothing moves: PELT cuts a noisy phase into pieces (the noise scale is the
quieter phase's), and the piece boundary kept need not be where the speed fell. Nothing is
forced: a series with no such drop is "no cliff".

Partial seconds: the first second holds fio's start, the last its stop, and the second a change
falls in is part fast, part slow. Whether speeds differ is judged on the mean of the whole seconds
(those left out, where at least two others remain), and the change's bytes and time are placed
within its second (:func:`~ssdprof.analysis.sustain_series.crossing`); the speed a phase is said to
have is its bytes over its time, as a fill's is (the whole write's, where it has one phase).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ssdprof.analysis.sustain_series import crossing, io_began_s
from ssdprof.analysis.sustain_verdict import confidence_of, verdict_of
from ssdprof.model.sustain_results import (
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
MAX_SETTLE_ROUNDS = 10


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


def detect(samples: list[SustainSample], throttle: SustainThrottle | None = None,
           whole_write: tuple[int, float] | None = None) -> Detection:
    """Phases and verdict of a write's per-second series; ``whole_write``: the fill's own bytes and
    seconds (fio's count), which a write of one phase is said at."""
    if len(samples) < MIN_SAMPLES:
        return Detection([], SustainVerdict(kind="too_short", sentence=(
            f"{len(samples)} second(s) of writes: too few to judge (at least {MIN_SAMPLES} are needed)")))
    bw = np.array([s.bw_bytes_per_s for s in samples], dtype=float)
    bounds = _settled(bw, _change_points(bw))
    whole = whole_seconds(len(bw), bounds)
    drops = _drops(samples, bw, whole, bounds, throttle)
    phases = [_phase(samples, bw, whole, start, end, index=i, drops=drops)
              for i, (start, end) in enumerate(itertools.pairwise(bounds))]
    if len(phases) == 1 and whole_write is not None and whole_write[1] > 0:  # fio's own count and time
        written, seconds = whole_write
        phases = [phases[0].model_copy(update={"bytes_written": written, "duration_s": seconds,
                                               "bw_bytes_per_s": written / seconds})]
    drops = {i: drop.model_copy(update={
        "before_bw_bytes_per_s": phases[i - 1].bw_bytes_per_s, "after_bw_bytes_per_s": phases[i].bw_bytes_per_s,
        "drop_pct": 100 * (1 - phases[i].bw_bytes_per_s / max(phases[i - 1].bw_bytes_per_s, 1e-9))})
        for i, drop in drops.items()}
    levels = [level(bw, whole, start, end) for start, end in itertools.pairwise(bounds)]
    return Detection(phases, verdict_of(phases, levels, drops, throttle, min_drop_fraction=MIN_DROP_FRACTION,
                                        whole_write=whole_write))


def whole_seconds(n: int, bounds: list[int]) -> np.ndarray:
    """Which seconds count in a phase's speed: not the first (fio's start falls in it) nor the last
    (a write stopped after its bytes ends within it), nor the two either side of each change (either
    may hold the change)."""
    whole = np.ones(n, dtype=bool)
    whole[[0, -1]] = False
    for bound in bounds[1:-1]:
        whole[max(bound - 1, 0) : bound + 1] = False
    return whole


def level(bw: np.ndarray, whole: np.ndarray, start: int, end: int) -> tuple[float, float]:
    """Mean and sd of a stretch's speed over its whole seconds (all, where fewer are whole)."""
    part = bw[start:end][whole[start:end]]
    if len(part) < 2:
        part = bw[start:end]
    return float(part.mean()), float(part.std(ddof=1)) if len(part) > 1 else 0.0


def _smooth(bw: np.ndarray) -> np.ndarray:
    """A 5 s running median: one-second outliers are not phases; steps stay where they are, and so
    do the ends (mirrored, not padded with zeros as scipy.signal.medfilt pads them)."""
    from scipy.ndimage import median_filter  # scipy and ruptures load when a test is judged, not with the app

    return median_filter(bw, size=MEDIAN_WINDOW, mode="reflect") if len(bw) >= MEDIAN_WINDOW else bw


def _change_points(bw: np.ndarray) -> list[int]:
    """Segment starts (0 first) and the end (len) of the best segmentation under the penalty.

    Segmented on a 5 s running median (one-second outliers are not phases; steps stay where they are);
    a long series in blocks of k seconds (k^-1/2 the noise), each change then placed to the second."""
    import ruptures

    n = len(bw)
    smooth = _smooth(bw)
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


def _settled(bw: np.ndarray, bounds: list[int]) -> list[int]:
    """Merged, each boundary left placed again between its neighbours, merged again: till stable."""
    smooth = _smooth(bw)
    merged = _merged(bw, bounds)
    for _ in range(MAX_SETTLE_ROUNDS):
        placed = _merged(bw, _placed(smooth, merged))
        if placed == merged:
            break
        merged = placed
    return merged


def _placed(smooth: np.ndarray, bounds: list[int]) -> list[int]:
    """Each inner boundary moved to the split of its stretch (from the boundary before to the one
    after) with the least squared error, one after the other."""
    bounds = list(bounds)
    for i in range(1, len(bounds) - 1):
        start, end = bounds[i - 1], bounds[i + 1]
        part = smooth[start:end]
        sums, squares = np.cumsum(part), np.cumsum(part**2)
        splits = np.arange(1, len(part))
        left = squares[splits - 1] - sums[splits - 1] ** 2 / splits
        right_n = len(part) - splits
        right = (squares[-1] - squares[splits - 1]) - (sums[-1] - sums[splits - 1]) ** 2 / right_n
        bounds[i] = start + int(splits[np.argmin(left + right)])
    return sorted(set(bounds))


def _merged(bw: np.ndarray, bounds: list[int]) -> list[int]:
    """Excursions merged into their neighbours, stretches too short for a phase joined to the
    nearer one, then neighbouring phases within 20 % of each other joined: one at a time, until
    none is left."""
    bounds = list(bounds)
    while len(bounds) > 2 and (joined := _one_join(bw, bounds)) is not None:
        bounds = joined
    return bounds


def _one_join(bw: np.ndarray, bounds: list[int]) -> list[int] | None:
    """The bounds with the first join the rules ask for made (stretch i spans bounds[i] to
    bounds[i+1]); None when none asks for one."""
    means = [float(bw[a:b].mean()) for a, b in itertools.pairwise(bounds)]
    lengths = [b - a for a, b in itertools.pairwise(bounds)]
    shortest = max(2 * MIN_PHASE_S, math.ceil(MIN_DIP_FRACTION * len(bw)))
    for i in range(1, len(means) - 1):  # short, slower or faster than both sides: an excursion
        beside = (means[i - 1], means[i + 1])
        if lengths[i] <= shortest and (means[i] < min(beside) or means[i] > max(beside)):
            # between two alike phases it joins them into one; else it joins the one before
            end = i + 2 if _close(means[i - 1], means[i + 1]) else i + 1
            return bounds[:i] + bounds[end:]
    for i, length in enumerate(lengths):  # under MIN_PHASE_S: a change's own seconds, or the start
        if length < MIN_PHASE_S:
            after = i == 0 or (i + 1 < len(means)
                               and abs(means[i] - means[i + 1]) < abs(means[i] - means[i - 1]))
            gone = i + 1 if after else i
            return bounds[:gone] + bounds[gone + 1 :]
    for i in range(len(means) - 1):
        if _close(means[i], means[i + 1]):
            return bounds[: i + 1] + bounds[i + 2 :]
    return None


def _close(a: float, b: float) -> bool:
    return abs(a - b) < MIN_DROP_FRACTION * max(a, b, 1e-9)


def _drops(samples: list[SustainSample], bw: np.ndarray, whole: np.ndarray, bounds: list[int],
           throttle: SustainThrottle | None) -> dict[int, SustainDrop]:
    """The drops that count, by the index of the phase they lead into."""
    found: dict[int, SustainDrop] = {}
    for i in range(1, len(bounds) - 1):
        before = level(bw, whole, bounds[i - 1], bounds[i])[0]
        after = level(bw, whole, bounds[i], bounds[i + 1])[0]
        if after > before * (1 - MIN_DROP_FRACTION):
            continue
        at_bytes, at_s = crossing(samples, bounds[i], before, after)
        hot = throttle is not None and throttle.overlaps_drop and not found
        found[i] = SustainDrop(at_bytes=at_bytes, at_s=at_s, before_bw_bytes_per_s=before,
                               after_bw_bytes_per_s=after, drop_pct=100 * (1 - after / before),
                               cause="throttling" if hot else "cache")
    return found


def _phase(samples: list[SustainSample], bw: np.ndarray, whole: np.ndarray, start: int, end: int, *,
           index: int, drops: dict[int, SustainDrop]) -> SustainPhase:
    """A phase from its first second to its last; where a drop begins or ends it, at the drop's bytes and
    time within its second, so its bytes over its time are its own speed, not a mix with its neighbour's."""
    part = samples[start:end]
    counted = [s for s, w in zip(part, whole[start:end], strict=True) if w] or part
    lats = [s.lat_ns_mean for s in counted if s.lat_ns_mean is not None]
    p99s = [s.lat_ns_p99 for s in counted if s.lat_ns_p99 is not None]
    begin = (samples[start - 1].bytes_written, samples[start - 1].elapsed_s) if start else (0, io_began_s(samples))
    begin = (drops[index].at_bytes, drops[index].at_s) if index in drops else begin
    finish = (part[-1].bytes_written, part[-1].elapsed_s)
    finish = (drops[index + 1].at_bytes, drops[index + 1].at_s) if index + 1 in drops else finish
    cause, name = _named(index, drops)
    written, seconds = finish[0] - begin[0], finish[1] - begin[1]
    return SustainPhase(index=index, name=name, cause=cause, start_s=begin[1], end_s=finish[1],
                        duration_s=seconds, start_bytes=begin[0], bytes_written=written,
                        bw_bytes_per_s=written / seconds if seconds > 0 else 0.0,
                        bw_sd_bytes_per_s=level(bw, whole, start, end)[1],
                        lat_ns_mean=float(np.mean(lats)) if lats else None,
                        lat_ns_sd=float(np.std(lats, ddof=1)) if len(lats) > 1 else None,
                        lat_ns_p99_second_median=float(np.median(p99s)) if p99s else None)


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
