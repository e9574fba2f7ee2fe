"""The time each per-second sample covers, by one rule for every chart and figure that reads it.

A sample's rates are over the interval that ends at its ``elapsed_s``. That interval begins its
recorded length earlier (``interval_s``: fio's first is its I/O time, short of a second by the job's
start), never before the run's start (:func:`own_start`: every sample with a recorded length carries
it from the moment it is made, so a live event's sample is spanned too); in a run, never before the
previous sample of the same host ended either (two samples share no second), and a sample without a
recorded length begins where the previous one of its host ended, the run's start for the first
(:func:`with_starts`). The samples carry the answer (``start_s``), so the app's charts, the PDF's, a
sustained write's bytes and a replay's steps all read the same spans and compute none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ssdprof.model.results import ProgressSample

__all__ = ["own_start", "with_starts"]


def own_start(elapsed_s: float, interval_s: float | None) -> float | None:
    """Where a sample's rates begin by its own recorded length (None: it recorded none)."""
    return None if interval_s is None else round(max(elapsed_s - interval_s, 0.0), 3)


def with_starts(samples: Sequence[ProgressSample]) -> list[ProgressSample]:
    """A run's samples, each beginning no earlier than the previous one of its host ended, in their order."""
    ended: dict[str, float] = {}
    starts: dict[int, float] = {}
    for index in sorted(range(len(samples)), key=lambda i: (samples[i].host, samples[i].elapsed_s)):
        sample = samples[index]
        previous = ended.get(sample.host, 0.0)
        own = sample.start_s if sample.start_s is not None else own_start(sample.elapsed_s, sample.interval_s)
        start = previous if own is None else max(previous, own)
        if start != sample.start_s:
            starts[index] = start
        ended[sample.host] = sample.elapsed_s
    return [s.model_copy(update={"start_s": starts[i]}) if i in starts else s for i, s in enumerate(samples)]
