"""What was recorded of a direction's latency: one rule for a run's :class:`DirectionStats` and its
light summary (:class:`~ssdprof.model.run_summary.DirectionSummary`), which imports no pydantic."""

from __future__ import annotations

__all__ = ["latency_kind"]


def latency_kind(io_count: int, lat_p50: float | None, lat_mean: float | None,
                 clat_p50: float | None, clat_mean: float | None) -> str:
    """total (with percentiles), total_mean_only (old fio output: mean/min/max), completion_only (clat
    without total), none; '' without I/O."""
    if io_count <= 0:
        return ""
    if lat_p50 is not None:
        return "total"
    if lat_mean is not None:
        return "total_mean_only"
    return "completion_only" if clat_mean is not None or clat_p50 is not None else "none"
