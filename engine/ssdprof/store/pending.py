"""Writes kept on this machine while the lab's results server does not answer, sent when it is back.

Every write a run makes to a shared store (a finished point, the bytes it wrote to its target, the
sweep's status and grown points, a PTS test's records) is a :class:`Write`. When the server stays
away past the store's wait, the write goes into a SQLite file in the user's data folder (one per
database, named by a digest of its URL, never holding its password), in order, and the next write or
start that reaches the server sends every kept write first, in the order they were made. Each write
carries the unique id it was first tried with and the server records the ids it applied, so a write
the server did take before the connection broke is never applied twice.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs

from ssdprof.store.location import DatabaseUrl

__all__ = ["PendingWrites", "Write", "pending_path"]


def pending_path(url: DatabaseUrl) -> Path:
    """Where writes for this database wait: one file per database, named by a digest of its URL."""
    digest = hashlib.sha256(url.url.encode()).hexdigest()[:16]
    return Path(platformdirs.user_data_dir("ssdprof")) / "pending" / f"results-{digest}.sqlite3"


def _uid() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Write:
    """One change a run makes to the store: ``kind`` names how it is applied (``store.writes``),
    ``args`` its values (JSON); a finished point's document and raw output ride packed beside them."""

    kind: str
    args: dict[str, Any]
    uid: str = field(default_factory=_uid)
    document: bytes = b""
    raw: bytes = b""


class PendingWrites:
    def __init__(self, path: Path):
        self.path = path

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        db.execute("CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY AUTOINCREMENT, uid TEXT UNIQUE NOT NULL, "
                   "kind TEXT NOT NULL, args TEXT NOT NULL, document BLOB NOT NULL, raw BLOB NOT NULL, "
                   "kept_at TEXT NOT NULL)")
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'pending'").fetchone():  # points kept before writes were
            db.execute("INSERT INTO writes (uid, kind, args, document, raw, kept_at) SELECT uid, 'run', "
                       "json_object('point_index', point_index), document, raw, kept_at FROM pending "
                       "ORDER BY kept_at, rowid ON CONFLICT (uid) DO NOTHING")
            db.execute("DROP TABLE pending")
        return db

    def keep(self, write: Write) -> None:
        db = self._open()
        try:
            db.execute("INSERT INTO writes (uid, kind, args, document, raw, kept_at) VALUES (?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (uid) DO NOTHING",
                       (write.uid, write.kind, json.dumps(write.args), write.document, write.raw,
                        datetime.now(timezone.utc).isoformat(timespec="seconds")))
        finally:
            db.close()

    def waiting(self) -> list[Write]:
        """The kept writes, oldest first."""
        if not self.path.exists():
            return []
        db = self._open()
        try:
            rows = db.execute("SELECT kind, args, uid, document, raw FROM writes ORDER BY seq").fetchall()
        finally:
            db.close()
        return [Write(kind, json.loads(args), uid, document, raw) for kind, args, uid, document, raw in rows]

    def count(self) -> tuple[int, int]:
        """(writes, of which finished points) waiting."""
        if not self.path.exists():
            return 0, 0
        db = self._open()
        try:
            row = db.execute("SELECT COUNT(*), COALESCE(SUM(kind = 'run'), 0) FROM writes").fetchone()
        finally:
            db.close()
        return int(row[0]), int(row[1])

    def refuse(self, uid: str, reason: str) -> None:
        """A kept write the server refused: moved aside (kept, not sent again), with the reason."""
        db = self._open()
        try:
            db.execute("CREATE TABLE IF NOT EXISTS refused AS SELECT *, '' AS reason FROM writes WHERE 0")
            db.execute("INSERT INTO refused SELECT *, ? FROM writes WHERE uid = ?", (reason, uid))
            db.execute("DELETE FROM writes WHERE uid = ?", (uid,))
        finally:
            db.close()

    def sent(self, uid: str) -> None:
        db = self._open()
        try:
            db.execute("DELETE FROM writes WHERE uid = ?", (uid,))
        finally:
            db.close()
