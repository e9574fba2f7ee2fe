"""A run's whole document and the tool's raw output, kept compressed (zlib): the per-second progress,
histogram bins and fio's JSON shrink five- to twentyfold (bench/study_scale.py measures it).

Runs stored before migration 0008 keep their text columns until it moves them; reading takes either.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

__all__ = ["Bins", "document_of", "light_parts", "pack", "raw_of", "unpack"]

LEVEL = 6


def pack(text: str) -> bytes:
    return zlib.compress(text.encode(), LEVEL)


def unpack(blob: bytes | memoryview | None) -> str:
    return "" if blob is None else zlib.decompress(bytes(blob)).decode()


def document_of(row: Any) -> str:
    """The run's JSON from a row with ``document`` and ``result_json``."""
    blob = row["document"]
    return unpack(blob) if blob is not None else str(row["result_json"])


def raw_of(row: Any) -> str:
    blob = row["raw"]
    return unpack(blob) if blob is not None else str(row["raw_output"] or "")


Bins = tuple[dict[int, int], dict[int, int]]
"""A run's total-latency bins, reads' and writes' (fio's layout, ns -> count)."""


def light_parts(text: str) -> tuple[str, Bins]:
    """The run's JSON without its per-second progress and histogram bins (its hosts' too), what lists
    read, and its total-latency bins, what a percentile of several runs is read from: the two small
    parts of a document several times their size (:mod:`ssdprof.store.light_runs` keeps them)."""
    from ssdprof.model.aggregate import mixed
    from ssdprof.model.results import BIN_FIELDS, DirectionStats

    data = json.loads(text)
    bins = _side_bins(data, "read"), _side_bins(data, "write")
    data["progress"] = []
    if "mixed" not in data:  # stored before runs kept it: its percentiles need the bins dropped below
        sides = [DirectionStats.model_validate(data.get(side, {})) for side in ("read", "write")]
        data["mixed"] = mixed(*sides).model_dump()
    for part in (data, *data.get("hosts", [])):
        for side in ("read", "write"):
            stats = part.get(side)
            if isinstance(stats, dict):
                for field in BIN_FIELDS:
                    stats.pop(field, None)
    return json.dumps(data, separators=(",", ":")), bins


def _side_bins(data: dict[str, Any], side: str) -> dict[int, int]:
    return {int(value): int(count) for value, count in (data.get(side) or {}).get("lat_bins_ns", {}).items()}
