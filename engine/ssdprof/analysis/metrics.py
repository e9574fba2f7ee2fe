"""Named metrics and factors of a run, so every analysis reads them the same way.

Metric names carry their unit (``read_iops``, ``bw_bytes_per_s``, ``lat_ns_p99``). The unprefixed
ones are of all the run's I/Os, reads and writes together (``RunResult.mixed``, as fio's
``unified_rw_reporting=mixed``): ``iops`` and ``bw_bytes_per_s`` add them, the mean latency weighs by
I/O count, and a percentile is the percentile of all the I/Os, from the two directions' merged
histogram bins; ``read_*`` and ``write_*`` are each direction's own. Latency is total latency
(``lat_ns``, submission to completion) on every engine.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names only: the command line lists the metrics without loading the model
    from ssdprof.model.results import DirectionStats, LatencyStats
    from ssdprof.model.run_summary import AnyRun, DirectionSummary, LatencySummary

__all__ = ["FACTORS", "LATENCY_METRICS", "METRICS", "METRIC_NAMES", "SETTING_FIELDS", "MetricName",
           "factor_value", "fields_of", "latency_kind_note", "metric_name", "metric_value", "overlay_latency_note",
           "pts_round", "setting_fields", "setting_key", "settings_kept", "values"]


def _nodes(run: AnyRun) -> int | None:
    """The run's storage-node count (``model.run_summary.node_count``, loaded with the first run asked)."""
    return _node_count()(run)


@functools.cache
def _node_count() -> Callable[[AnyRun], int | None]:
    from ssdprof.model.run_summary import node_count

    return node_count


def _all_ios(pick: Callable[[LatencyStats | LatencySummary], float | None]) -> Callable[[AnyRun], float | None]:
    def metric(run: AnyRun) -> float | None:
        return pick(run.mixed.lat_ns) if run.mixed.active else None

    return metric


_KIND_WORDS = {"total": "total latency", "total_mean_only": "total latency, mean only (no percentiles)",
               "completion_only": "completion latency only", "none": "no latency"}


def overlay_latency_note(runs: Sequence[AnyRun], earlier: Sequence[AnyRun] = ()) -> str:
    """A sentence when runs drawn together (and the earlier runs beside them) have latencies of different
    kinds, naming each kind's runs; else ''."""
    by_kind: dict[str, list[str]] = {}
    for run in (*runs, *earlier):
        for kind in sorted({d.latency_kind for d in (run.read, run.write) if d.active}):
            by_kind.setdefault(kind, []).append(str(run.id))
    if len(by_kind) <= 1:
        return ""
    described = "; ".join(f"{_KIND_WORDS.get(kind, kind)}: run {', '.join(dict.fromkeys(ids))}" for kind, ids in by_kind.items())
    return (f"latencies of different kinds are drawn together ({described}): compare latency only between runs "
            "of the same kind")


def latency_kind_note(*groups: Sequence[AnyRun]) -> str:
    """A sentence when the groups' latencies are not the same quantity (e.g. total vs completion only), else ''."""
    kinds = [sorted({d.latency_kind for r in g for d in (r.read, r.write) if d.active}) for g in groups]
    if len({tuple(k) for k in kinds if k}) <= 1:
        return ""
    described = "; ".join(f"group {chr(65 + i)}: {', '.join(_KIND_WORDS.get(k, k) for k in found)}"
                          for i, found in enumerate(kinds) if found)
    return f"latencies of different kinds are compared ({described}): compare latency only between runs of the same kind"


_BANDWIDTH, _LATENCY = ("MB/s", 1e6), ("µs", 1e3)

_PER_DIRECTION: dict[str, tuple[str, tuple[str, float], Callable[[DirectionStats | DirectionSummary], float | None]]] = {
    "iops": ("{} IOPS", ("IOPS", 1.0), lambda d: d.iops),
    "bw_bytes_per_s": ("{} bandwidth", _BANDWIDTH, lambda d: d.bw_bytes_per_s),
    "lat_ns_mean": ("mean {} latency", _LATENCY, lambda d: d.lat_ns.mean),
    "lat_ns_p99": ("p99 {} latency", _LATENCY, lambda d: d.lat_ns.p99),
}
"""The figures each direction has of its own (``read_iops``, ``write_iops``, ...): the label with the direction's
place, the unit and scale, and the figure; None where the run did no I/O that way."""

_DIRECTIONS = ("read", "write")


def _one_direction(side: str, pick: Callable[[DirectionStats | DirectionSummary], float | None]) -> Callable[[AnyRun], float | None]:
    def metric(run: AnyRun) -> float | None:
        stats = run.read if side == "read" else run.write
        return pick(stats) if stats.active else None

    return metric


LATENCY_METRICS: dict[str, Callable[[AnyRun], float | None]] = {
    "lat_ns_mean": _all_ios(lambda c: c.mean),
    "lat_ns_p50": _all_ios(lambda c: c.p50),
    "lat_ns_p99": _all_ios(lambda c: c.p99),
    "lat_ns_p99_9": _all_ios(lambda c: c.p99_9),
}
"""A run's total latency over all its I/Os: the I/O-weighted mean, or the percentile of the merged bins."""

METRICS: dict[str, Callable[[AnyRun], float | None]] = {
    "iops": lambda r: r.read.iops + r.write.iops,
    "bw_bytes_per_s": lambda r: r.read.bw_bytes_per_s + r.write.bw_bytes_per_s,
    **LATENCY_METRICS,
    **{f"{side}_{name}": _one_direction(side, pick) for name, (_, _, pick) in _PER_DIRECTION.items() for side in _DIRECTIONS},
}


@dataclass(frozen=True)
class MetricName:
    """How a metric is shown to a person: ``label`` in words, values divided by ``scale`` into ``unit``."""

    label: str
    unit: str
    scale: float

    @property
    def title(self) -> str:
        """'bandwidth (MB/s)'; 'IOPS' and 'read IOPS' alone where the label ends with the unit."""
        return self.label if self.label.split()[-1] == self.unit else f"{self.label} ({self.unit})"


METRIC_NAMES: dict[str, MetricName] = {
    "iops": MetricName("IOPS", "IOPS", 1.0),
    "bw_bytes_per_s": MetricName("bandwidth", *_BANDWIDTH),
    "lat_ns_mean": MetricName("mean latency, all I/Os", *_LATENCY),
    "lat_ns_p50": MetricName("median latency, all I/Os", *_LATENCY),
    "lat_ns_p99": MetricName("p99 latency, all I/Os", *_LATENCY),
    "lat_ns_p99_9": MetricName("p99.9 latency, all I/Os", *_LATENCY),
    **{f"{side}_{name}": MetricName(label.format(side), *unit) for name, (label, unit, _) in _PER_DIRECTION.items()
       for side in _DIRECTIONS},
}
"""Every metric's display name and unit: the one place the CLI, the PDF and (through the contract) the app
take them from. MB/s is 10^6 bytes/s, as drive makers rate bandwidth."""


def metric_name(name: str) -> MetricName:
    if name not in METRIC_NAMES:
        raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(METRIC_NAMES)}")
    return METRIC_NAMES[name]


FACTORS: dict[str, Callable[[AnyRun], float | None]] = {
    "log2_block_size": lambda r: math.log2(r.workload.block_size_bytes),
    "queue_depth": lambda r: float(r.workload.queue_depth),
    "numjobs": lambda r: float(r.workload.numjobs),
    "outstanding_ios": lambda r: float(r.engine.effective_queue_depth * r.workload.numjobs),
    "read_pct": lambda r: float(r.workload.read_pct),
    "random": lambda r: 1.0 if r.workload.pattern.is_random else 0.0,
    "nodes": lambda r: None if (n := _nodes(r)) is None else float(n),
    "clients": lambda r: float(max(len(r.hosts), 1)),
}


def metric_value(run: AnyRun, name: str) -> float | None:
    if name not in METRICS:
        raise KeyError(f"unknown metric {name!r}; known metrics: {', '.join(METRICS)}")
    value = METRICS[name](run)
    return None if value is None or not math.isfinite(value) else float(value)


def factor_value(run: AnyRun, name: str) -> float | None:
    if name not in FACTORS:
        raise KeyError(f"unknown factor {name!r}; known factors: {', '.join(FACTORS)}")
    return FACTORS[name](run)


def values(runs: Sequence[AnyRun], metric: str) -> list[float]:
    """The metric of every run that has it (runs without it are skipped, not zero-filled)."""
    return [v for r in runs if (v := metric_value(r, metric)) is not None]


SETTING_FIELDS = ("pattern", "random", "read_pct", "bs", "qd", "jobs", "direct", "rate", "runtime",
                  "region", "target", "engine", "drive", "round", "hosts", "nodes", "device")
"""The names :func:`setting_key` knows, for its ``drop``."""


def pts_round(run: AnyRun) -> tuple[str, int] | None:
    """The PTS test and round a run measured, e.g. ('iops', 3); None outside a PTS test."""
    state = run.drive_state
    recorded = state.pts_round if state is not None else None
    text = str(recorded if recorded is not None else run.tags.get("pts_round", "")).strip()
    return (run.tags.get("pts_test", ""), int(text)) if text.isdigit() else None


def setting_key(run: AnyRun, drop: frozenset[str] = frozenset()) -> tuple[object, ...]:
    """What a run measured, minus the settings in ``drop``: runs with equal keys differ only in those.

    The one rule for "the same setting" (repeats, series, comparisons): everything that changes
    what is measured: the access (pattern, mix, size, queue, jobs, direct I/O), the offered rate,
    how long and over which region, the engine and its I/O method, the drive's state and PTS
    round, and where (hosts, storage nodes, drive model). Names: see :data:`SETTING_FIELDS`.
    Inside :func:`settings_kept`, a run's settings are read once for all its keys.
    """
    full = fields_of(run)
    return tuple(full[i] for i in _kept(drop))


_kept_settings: ContextVar[dict[int, tuple[AnyRun, tuple[object, ...]]] | None] = ContextVar(
    "_kept_settings", default=None)
"""Each run's :func:`setting_fields` while a :func:`settings_kept` block runs, by ``id(run)``, with
the run itself (so the id stays the run's, and is checked)."""


@contextlib.contextmanager
def settings_kept(runs: Sequence[AnyRun]) -> Iterator[None]:
    """Read each run's settings once for the whole block: a study's thousands of runs are keyed
    many ways over one command (its comparison, then each observation's grouping)."""
    outer = _kept_settings.get() or {}
    token = _kept_settings.set({**outer, **{id(r): (r, setting_fields(r)) for r in runs if id(r) not in outer}})
    try:
        yield
    finally:
        _kept_settings.reset(token)


def fields_of(run: AnyRun) -> tuple[object, ...]:
    """The run's :func:`setting_fields`, read once inside :func:`settings_kept`."""
    kept = (_kept_settings.get() or {}).get(id(run))
    return kept[1] if kept is not None and kept[0] is run else setting_fields(run)


@functools.cache
def _kept(drop: frozenset[str]) -> tuple[int, ...]:
    """The positions in :data:`SETTING_FIELDS` a key without ``drop`` keeps."""
    unknown = drop - set(SETTING_FIELDS)
    if unknown:
        raise KeyError(f"unknown setting(s) {sorted(unknown)}; known: {', '.join(SETTING_FIELDS)}")
    return tuple(i for i, name in enumerate(SETTING_FIELDS) if name not in drop)


def setting_fields(run: AnyRun) -> tuple[object, ...]:
    """Every setting of :func:`setting_key`, in :data:`SETTING_FIELDS` order: worth keeping where
    one run is keyed several ways (a study's 8,640 runs, four groupings each)."""
    w = run.workload
    state = run.drive_state
    return (
        w.pattern.value, w.pattern.is_random, w.read_pct, w.block_size_bytes, w.queue_depth, w.numjobs, w.direct,
        w.rate_iops,  # offered IOPS, Poisson arrivals (the only rate process); 0: unpaced
        (w.runtime_s, w.ramp_s), (w.size_bytes, w.offset_bytes), w.target,
        (run.engine.name, run.engine.ioengine),
        state.condition if state is not None else "not-recorded", pts_round(run),
        tuple(sorted(h.host for h in run.hosts)), _nodes(run), run.environment.device_model,
    )
