"""How the summary words its numbers: IOPS, MB/s (10^6 bytes/s), µs or ms, ratios, run ids."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["iops_text", "latency_text", "mb_s_text", "ratio_text", "runs_text"]

_IDS_SHOWN = 6


def runs_text(ids: Sequence[int]) -> str:
    """'run 3', 'runs 1, 8', or for many 'runs 1, 2, … 40 (12 runs)'."""
    if not ids:
        return "runs not stored"
    if len(ids) == 1:
        return f"run {ids[0]}"
    if len(ids) <= _IDS_SHOWN:
        return "runs " + ", ".join(map(str, ids))
    return f"runs {ids[0]}, {ids[1]}, … {ids[-1]} ({len(ids)} runs)"


def iops_text(iops: float) -> str:
    return f"{iops:,.0f}" if iops >= 100 else f"{iops:,.1f}"


def mb_s_text(bytes_per_s: float) -> str:
    mb = bytes_per_s / 1e6
    return f"{mb:,.0f} MB/s" if mb >= 100 else f"{mb:,.1f} MB/s"


def latency_text(ns: float) -> str:
    us = ns / 1e3
    if us >= 1000:
        return f"{us / 1e3:,.2f} ms"
    return f"{us:,.0f} µs" if us >= 10 else f"{us:,.1f} µs"


def ratio_text(ratio: float) -> str:
    return f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.1f}×"
