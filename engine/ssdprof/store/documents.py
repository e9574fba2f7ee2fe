"""A run's whole document and the tool's raw output, kept compressed (zlib): the per-second progress,
histogram bins and fio's JSON shrink five- to twentyfold (bench/study_scale.py measures it).

Runs stored before migration 0008 keep their text columns until it moves them; reading takes either.
"""

from __future__ import annotations

import json
import zlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ssdprof.model.results import RunResult

__all__ = ["document_of", "latency_bins", "light", "pack", "raw_of", "unpack"]

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


def light(text: str, run_id: int) -> RunResult:
    """A run without its per-second progress and histogram bins (its hosts' too), for lists: they are
    dropped before validation, which is most of a long list's time."""
    from ssdprof.model.aggregate import mixed
    from ssdprof.model.results import BIN_FIELDS, DirectionStats, RunResult

    data = json.loads(text)
    data["progress"] = []
    if "mixed" not in data:  # stored before runs kept it: its percentiles need the bins dropped below
        sides = [DirectionStats.model_validate(data.get(side, {})) for side in ("read", "write")]
        data["mixed"] = mixed(*sides).model_dump()
    for part in (data, *data.get("hosts", [])):
        for side in ("read", "write"):
            stats = part.get(side)
            if isinstance(stats, dict):
                for bins in BIN_FIELDS:
                    stats.pop(bins, None)
    data["id"] = run_id
    return RunResult.model_validate(data)


def latency_bins(text: str) -> tuple[dict[int, int], dict[int, int]]:
    """The run's total-latency bins, reads' and writes', read from its JSON without validating the rest."""
    data = json.loads(text)

    def side(name: str) -> dict[int, int]:
        return {int(value): int(count) for value, count in (data.get(name) or {}).get("lat_bins_ns", {}).items()}

    return side("read"), side("write")
