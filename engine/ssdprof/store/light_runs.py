"""Each run's light document (no per-second progress, no bins) and its total-latency bins, kept beside
the whole document: a list of runs (Results opening a sweep) and a percentile of several runs (a
sweep's repeats, a pool) read these instead of parsing every whole document, which is ten times
their size (a study run of 8 hosts: 244 kB of JSON, 20 kB light, a few kB of bins).

Both are made from the document and kept with the revision they were made from. A run whose row is
missing or older (stored before migration 0012, or changed since: its tags, its drive state) has them
made again from its document when next read, and the row written then: whatever changes a document
needs to know nothing of this table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from ssdprof.store.backend import Connection
from ssdprof.store.documents import Bins, document_of, light_parts, pack, unpack

__all__ = ["LIGHT_TABLE", "light_texts", "stored_bins", "write_light"]

LIGHT_TABLE = """
    CREATE TABLE run_light (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        revision INTEGER NOT NULL,
        light BLOB NOT NULL,
        bins BLOB NOT NULL
    )
"""

_CHUNK = 5000
_UPSERT = ("INSERT INTO run_light (run_id, revision, light, bins) VALUES (?, ?, ?, ?) ON CONFLICT (run_id) "
           "DO UPDATE SET revision = excluded.revision, light = excluded.light, bins = excluded.bins")

Transaction = Callable[[], AbstractContextManager[Connection]]


def write_light(db: Connection, run_id: int, revision: int, text: str) -> tuple[str, Bins]:
    """The run's light JSON and bins made from its document ``text`` and kept; returns them."""
    light, bins = light_parts(text)
    db.execute(_UPSERT, (run_id, revision, pack(light), pack(json.dumps([list(b.items()) for b in bins]))))
    return light, bins


def light_texts(db: Connection, transaction: Transaction, run_ids: Sequence[int]) -> dict[int, str]:
    """The runs' light JSON by id (runs that do not exist are left out)."""
    kept, remade = _read(db, transaction, run_ids, "light")
    found = {run_id: unpack(blob) for run_id, blob in kept.items()}
    found.update((run_id, light) for run_id, (light, _) in remade.items())
    return found


def stored_bins(db: Connection, transaction: Transaction, run_ids: Sequence[int]) -> dict[int, Bins]:
    """The runs' total-latency bins (reads', writes') by id (runs that do not exist are left out)."""
    kept, remade = _read(db, transaction, run_ids, "bins")
    found = {run_id: _bins(blob) for run_id, blob in kept.items()}
    found.update((run_id, bins) for run_id, (_, bins) in remade.items())
    return found


def _bins(blob: Any) -> Bins:
    read, write = json.loads(unpack(blob))
    return dict(read), dict(write)


def _read(db: Connection, transaction: Transaction, run_ids: Sequence[int],
          column: str) -> tuple[dict[int, Any], dict[int, tuple[str, Bins]]]:
    """The kept ``column`` of the runs whose row is current, and the parts made again for the others."""
    kept: dict[int, Any] = {}
    stale: list[int] = []
    ids = list(dict.fromkeys(run_ids))
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        rows = db.execute(f"SELECT r.id, r.revision, l.revision, l.{column} FROM runs r LEFT JOIN run_light l "
                          f"ON l.run_id = r.id WHERE r.id IN ({', '.join('?' * len(chunk))})", chunk)
        for run_id, revision, made_at, blob in rows:
            if made_at == revision:
                kept[int(run_id)] = blob
            else:
                stale.append(int(run_id))
    return kept, _remake(db, transaction, stale)


def _remake(db: Connection, transaction: Transaction, run_ids: Sequence[int]) -> dict[int, tuple[str, Bins]]:
    """The parts of runs whose row is missing or older than their document, made and kept now."""
    made: dict[int, tuple[str, Bins]] = {}
    for start in range(0, len(run_ids), _CHUNK):
        chunk = run_ids[start:start + _CHUNK]
        rows = db.execute(f"SELECT id, revision, document, result_json FROM runs "
                          f"WHERE id IN ({', '.join('?' * len(chunk))})", chunk).fetchall()
        with transaction() as writing:
            for row in rows:
                made[int(row["id"])] = write_light(writing, int(row["id"]), int(row["revision"]), document_of(row))
    return made
