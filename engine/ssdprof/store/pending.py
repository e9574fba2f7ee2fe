"""Points kept on this machine while the lab's results server does not answer, sent when it is back.

A sweep commits every point as it finishes. When the PostgreSQL server goes away mid-sweep, the
store retries; if it still cannot save, the point goes into a SQLite file in the user's data folder
(named after the database, never holding its password) with a warning on the run saying so, and the
next save or start that reaches the server sends every kept point first. Each point carries the
unique key it was first saved with, so a point the server did take before the connection broke is
never stored twice.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import platformdirs

from ssdprof.store.location import DatabaseUrl

__all__ = ["PendingPoint", "PendingPoints", "pending_path"]


def pending_path(url: DatabaseUrl) -> Path:
    """Where points for this database wait: one file per database, named by a digest of its URL."""
    digest = hashlib.sha256(url.url.encode()).hexdigest()[:16]
    return Path(platformdirs.user_data_dir("ssdprof")) / "pending" / f"results-{digest}.sqlite3"


@dataclass(frozen=True)
class PendingPoint:
    uid: str
    point_index: int | None
    document: bytes
    raw: bytes


class PendingPoints:
    def __init__(self, path: Path):
        self.path = path

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        db.execute("CREATE TABLE IF NOT EXISTS pending (uid TEXT PRIMARY KEY, point_index INTEGER, "
                   "document BLOB NOT NULL, raw BLOB NOT NULL, kept_at TEXT NOT NULL)")
        return db

    def keep(self, point: PendingPoint) -> None:
        db = self._open()
        try:
            db.execute("INSERT INTO pending VALUES (?, ?, ?, ?, ?) ON CONFLICT (uid) DO NOTHING",
                       (point.uid, point.point_index, point.document, point.raw,
                        datetime.now(timezone.utc).isoformat(timespec="seconds")))
        finally:
            db.close()

    def waiting(self) -> list[PendingPoint]:
        if not self.path.exists():
            return []
        db = self._open()
        try:
            rows = db.execute("SELECT uid, point_index, document, raw FROM pending ORDER BY kept_at, rowid").fetchall()
        finally:
            db.close()
        return [PendingPoint(*row) for row in rows]

    def sent(self, uid: str) -> None:
        db = self._open()
        try:
            db.execute("DELETE FROM pending WHERE uid = ?", (uid,))
        finally:
            db.close()
