"""The time each per-second sample covers, by one rule for every chart and figure that reads it.

A sample's rates are over the interval that ends at its ``elapsed_s``. That interval begins its
recorded length earlier (``interval_s``: fio's first is its I/O time, short of a second by the job's
start), never before the previous sample of the same host ended (two samples share no second), nor
before the run's start; a sample without a recorded length begins where the previous one of its host
ended (the run's start for the first). The run's document carries the answer (``start_s``), so the
app's charts, the PDF's and a sustained write's bytes all read the same spans and compute none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ssdprof.model.results import ProgressSample

__all__ = ["with_starts"]


def with_starts(samples: Sequence[ProgressSample]) -> list[ProgressSample]:
    """The samples, each with its ``start_s`` (kept where it was recorded), in their order."""
    ended: dict[str, float] = {}
    starts: dict[int, float] = {}
    for index in sorted(range(len(samples)), key=lambda i: (samples[i].host, samples[i].elapsed_s)):
        sample = samples[index]
        previous = ended.get(sample.host, 0.0)
        if sample.start_s is None:
            length = sample.interval_s
            starts[index] = round(max(previous, sample.elapsed_s - length), 3) if length is not None else previous
        ended[sample.host] = sample.elapsed_s
    return [s.model_copy(update={"start_s": starts[i]}) if i in starts else s for i, s in enumerate(samples)]
