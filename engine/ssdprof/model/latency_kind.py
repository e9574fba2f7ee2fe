"""What was recorded of a direction's latency: one rule for a run's :class:`DirectionStats` and its
light summary (:class:`~ssdprof.model.run_summary.DirectionSummary`), which imports no pydantic."""

from __future__ import annotations

from typing import Protocol

__all__ = ["latency_kind"]


class _Latency(Protocol):
    @property
    def mean(self) -> float | None: ...
    @property
    def p50(self) -> float | None: ...


class _Direction(Protocol):
    @property
    def active(self) -> bool: ...
    @property
    def lat_ns(self) -> _Latency: ...
    @property
    def clat_ns(self) -> _Latency: ...


def latency_kind(direction: _Direction) -> str:
    """total (with percentiles), total_mean_only (old fio output: mean/min/max), completion_only (clat
    without total), none; '' without I/O."""
    if not direction.active:
        return ""
    if direction.lat_ns.p50 is not None:
        return "total"
    if direction.lat_ns.mean is not None:
        return "total_mean_only"
    return "completion_only" if direction.clat_ns.mean is not None or direction.clat_ns.p50 is not None else "none"
