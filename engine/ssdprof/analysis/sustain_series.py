"""A sustained write's series from its stored run: per second (every host added up), per GiB written,
the drive's throttling during it, and a recovery write measured against the fill's fast phase."""

from __future__ import annotations

from collections import defaultdict

from ssdprof.model.results import RunResult
from ssdprof.model.sustain_results import GibSample, RecoveryRow, SustainSample, SustainThrottle, SustainVerdict

__all__ = ["GIB", "crossing", "overlapping", "per_gib", "recovery_row", "samples_of", "throttle_of"]

GIB = 1 << 30
SUSTAINED_SLOW_S = 3
"""A recovery write's fast part ends where this many seconds in a row run below the midway speed."""


def samples_of(run: RunResult) -> list[SustainSample]:
    """The run's per-second write series, hosts added up, bytes counted from the seconds' rates."""
    by_second: dict[float, list[tuple[float, float | None, float | None]]] = defaultdict(list)
    covered: dict[float, float] = defaultdict(float)
    begins: dict[float, float] = {}
    for sample in run.progress:
        second = round(sample.elapsed_s, 1)
        by_second[second].append(
            (sample.write_bw_bytes_per_s, sample.write_lat_ns_mean, sample.write_lat_ns_p99))
        # each host's bytes over the time its rates cover, as the run's samples are spanned (model/spans.py)
        start_s = sample.start_s if sample.start_s is not None else sample.elapsed_s
        covered[second] += sample.write_bw_bytes_per_s * (sample.elapsed_s - start_s)
        begins[second] = min(begins.get(second, start_s), start_s)
    found: list[SustainSample] = []
    written = 0.0
    for elapsed in sorted(by_second):
        rows = by_second[elapsed]
        bw = sum(r[0] for r in rows)
        written += covered[elapsed]
        lats = [(r[0], r[1]) for r in rows if r[1] is not None]
        weight = sum(w for w, _ in lats)
        lat = sum(w * v for w, v in lats if v is not None) / weight if weight > 0 else None
        p99s = [r[2] for r in rows if r[2] is not None]
        found.append(SustainSample(elapsed_s=elapsed, bytes_written=int(written), bw_bytes_per_s=bw,
                                   lat_ns_mean=lat, lat_ns_p99=max(p99s) if p99s else None,
                                   interval_s=round(elapsed - begins[elapsed], 3)))
    return found


def per_gib(samples: list[SustainSample]) -> list[GibSample]:
    """Each whole GiB written: its speed over the time it took (crossings placed within their second)."""
    found: list[GibSample] = []
    previous_s, previous_bytes, mark = 0.0, 0, GIB
    lats: list[float] = []
    for sample in samples:
        if sample.lat_ns_mean is not None:
            lats.append(sample.lat_ns_mean)
        while sample.bytes_written >= mark:
            gained = sample.bytes_written - previous_bytes
            share = (mark - previous_bytes) / gained if gained > 0 else 1.0
            at_s = previous_s + share * (sample.elapsed_s - previous_s)
            start_s = found[-1].elapsed_s if found else 0.0
            found.append(GibSample(gib=len(found) + 1, bytes_written=mark, elapsed_s=at_s,
                                   bw_bytes_per_s=GIB / max(at_s - start_s, 1e-9),
                                   lat_ns_mean=sum(lats) / len(lats) if lats else None))
            lats = [sample.lat_ns_mean] if sample.lat_ns_mean is not None else []
            mark += GIB
        previous_s, previous_bytes = sample.elapsed_s, sample.bytes_written
    return found


def throttle_of(run: RunResult) -> SustainThrottle | None:
    """What the drive said about throttling during the write; None when it said nothing of it."""
    record = run.drive_health
    if record is None:
        return None
    delta = record.delta
    throttled_s = delta.thermal_time_s if delta else None
    transitions = delta.thermal_transitions if delta else None
    warning = record.before.warning_temp_c
    hot = next((t.elapsed_s for t in record.temperatures if warning is not None and t.celsius >= warning), None)
    hottest = delta.temperature_max_c if delta else None
    throttled = bool(throttled_s) or bool(transitions) or hot is not None
    if not throttled:
        return SustainThrottle(throttled_s=throttled_s, transitions=transitions, temperature_max_c=hottest,
                               warning_temp_c=warning, overlaps_drop=False, text="")
    parts = [f"throttled {throttled_s} s" if throttled_s else "",
             f"{transitions} thermal transition(s)" if transitions else "",
             f"at or over its {warning:g} °C warning temperature from {hot:.0f} s" if hot is not None and warning else ""]
    return SustainThrottle(throttled_s=throttled_s, transitions=transitions, temperature_max_c=hottest,
                           warning_temp_c=warning, hot_from_s=hot, overlaps_drop=True,
                           text="the drive reported " + ", ".join(p for p in parts if p))


def overlapping(throttle: SustainThrottle | None, drop_at_s: float | None) -> SustainThrottle | None:
    """Throttling counts against a drop when it could have caused it: the drive's counters say it
    throttled during the write (they carry no time), unless its temperatures show it got hot only well
    after the drop (10 s)."""
    if throttle is None or not throttle.overlaps_drop or drop_at_s is None:
        return throttle
    late = throttle.hot_from_s is not None and throttle.hot_from_s > drop_at_s + 10 and not throttle.throttled_s
    return throttle.model_copy(update={"overlaps_drop": not late})


def io_began_s(samples: list[SustainSample]) -> float:
    """When a write's I/O began: after its leading seconds that wrote nothing (the job's start on a
    slow host), and within the first that wrote, where fio's interval says (the rest of that second
    was the start); a sample without its interval counts from its second's start."""
    previous_s = 0.0
    for sample in samples:
        if sample.bytes_written > 0:
            began = sample.elapsed_s - sample.interval_s if sample.interval_s is not None else previous_s
            return max(began, previous_s)
        previous_s = sample.elapsed_s
    return previous_s


def crossing(samples: list[SustainSample], k: int, fast: float, slow: float) -> tuple[int, float]:
    """Bytes and time at a drop from ``fast`` to ``slow`` whose first slow second is ``samples[k]``.

    The speed fell within second k or within second k - 1 (the one a segmentation leaves on either
    side depends on its speed and the noise): each of the two is split into its fast and its slow
    part by its speed (a linear mix of the two speeds), and the drop placed after both fast
    parts."""
    first = max(k - 1, 0)
    at_bytes = float(samples[first - 1].bytes_written) if first else 0.0
    at_s = previous_s = samples[first - 1].elapsed_s if first else 0.0
    for sample in samples[first : k + 1]:
        interval = max(sample.elapsed_s - previous_s, 1e-9)
        mixed = (sample.bw_bytes_per_s - slow) / (fast - slow) if fast > slow else 0.0
        share = min(max(mixed, 0.0), 1.0)
        at_bytes += share * fast * interval
        at_s += share * interval
        previous_s = sample.elapsed_s
    return int(at_bytes), at_s


def recovery_row(step: int, idle_s: float, run: RunResult | None, fill: SustainVerdict) -> RecoveryRow:
    """One recovery write against the fill: bytes written at the fast speed before the speed fell
    below midway between the fill's fast and slow phases for good (SUSTAINED_SLOW_S seconds), placed
    within its second as the fill's cliff is."""
    if run is None:
        return RecoveryRow(step=step, idle_s=idle_s, status="pending")
    samples = samples_of(run)
    # the totals are fio's own count and time (exact: the write ends after its bytes); the
    # seconds' rates, added up, miss part of the last second
    written = run.write.io_bytes or (samples[-1].bytes_written if samples else 0)
    seconds = run.write.runtime_ms / 1000 if run.write.runtime_ms else (samples[-1].elapsed_s if samples else 0.0)
    mean = written / seconds if seconds > 0 else None
    row = RecoveryRow(step=step, idle_s=idle_s, status="done" if run.status in ("ok", "partial") else "failed",
                      run_id=run.id, bytes_written=written, seconds=seconds, bw_bytes_per_s=mean, samples=samples)
    if fill.kind != "cliff" or fill.before_bw_bytes_per_s is None or fill.after_bw_bytes_per_s is None or not samples:
        return row
    fast_bw, slow_bw = fill.before_bw_bytes_per_s, fill.after_bw_bytes_per_s
    recovered, fast_s = fast_part(samples, fast_bw, slow_bw, written=written, seconds=seconds)
    cache = fill.cache_bytes or 0
    speed = recovered / fast_s if fast_s > 0 else None  # its bytes over the time they took
    return row.model_copy(update={"recovered_bytes": recovered, "fast_bw_bytes_per_s": speed,
                                  "recovered_pct": 100 * recovered / cache if cache else None})


def fast_part(samples: list[SustainSample], fast_bw: float, slow_bw: float, *, written: int,
              seconds: float) -> tuple[int, float]:
    """A recovery write's bytes at the fill's fast speed and the time they took: from its first I/O
    (as the fill's phases count theirs; the job's start wrote nothing) to the fall below midway,
    placed within its second; the whole write (fio's bytes and I/O time) where it never fell."""
    end = _fast_end(samples, (fast_bw + slow_bw) / 2)
    if end == len(samples):
        return written, seconds
    recovered, at_s = crossing(samples, end, fast_bw, slow_bw)
    return recovered, at_s - io_began_s(samples)


def _fast_end(samples: list[SustainSample], midway: float) -> int:
    """Index of the first second of the first run of SUSTAINED_SLOW_S slow seconds (or of the slow tail)."""
    for index in range(len(samples)):
        window = samples[index : index + SUSTAINED_SLOW_S]
        if all(s.bw_bytes_per_s < midway for s in window):
            return index
    return len(samples)

