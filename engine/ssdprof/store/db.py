"""The results store: a SQLite file in the user's data folder (WAL mode), or a PostgreSQL database a
lab shares (``--db postgresql://...``), with the same named, ordered migrations on both.

Every finished point is committed as it finishes, with the tool's raw output beside the parsed
result, so a crash loses at most the point in flight and a parser bug loses nothing. A shared
server that goes away mid-sweep loses nothing either: every write a run makes takes one path that
waits, keeps it on this machine and sends it when the server is back (:mod:`ssdprof.store.writes`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.store.backend import Connection, connect, pg_ddl, transaction
from ssdprof.store.drive_state import DriveStateRecords, LedgerEntry, StoredPts
from ssdprof.store.errors import StoreError, StoreRefused, StoreUnavailable
from ssdprof.store.leases import Claimant, LeaseKeeper
from ssdprof.store.location import DatabaseUrl, Location
from ssdprof.store.migrations import MIGRATIONS
from ssdprof.store.query import RunFilter
from ssdprof.store.run_records import RunRecords
from ssdprof.store.spec_choices import SpecChoiceRecords
from ssdprof.store.summaries import SummaryReader
from ssdprof.store.sweeps import StoredSweep, SweepRecords
from ssdprof.store.writes import WritePath

if TYPE_CHECKING:  # the store opens without building pydantic's models: they load with the first run read
    from ssdprof.model.results import RunResult
    from ssdprof.model.run_summary import RunSummary

__all__ = ["MIGRATIONS", "LedgerEntry", "RunFilter", "Store", "StoreError", "StoreUnavailable", "StoredPts",
           "StoredSweep"]

_MIGRATION_LOCK = 2_814_028  # PostgreSQL advisory lock: one process migrates, the others wait and see it done


class Store(RunRecords, DriveStateRecords, SpecChoiceRecords, SweepRecords, WritePath):
    """``location``: a SQLite file (or ':memory:'), or a :class:`DatabaseUrl`. ``retry_s``: how long a
    shared store waits for its server before keeping a run's writes on this machine. ``lease_s``: how
    long a running sweep's lease lasts unrenewed (renewed every quarter of it). ``claimant``: who
    this process is to the sweeps it runs (default: this login, machine and process)."""

    def __init__(self, location: Location | str, *, retry_s: float = 20.0, lease_s: float = 60.0,
                 claimant: Claimant | None = None):
        self.location: Location | str = location
        self.retry_s = retry_s
        self.lease_s = lease_s
        self.claimant = claimant or Claimant.here()
        self._leases: dict[int, LeaseKeeper | str] = {}
        self.path = Path(str(location)) if not isinstance(location, DatabaseUrl) else Path()
        if not isinstance(location, DatabaseUrl) and str(location) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreRefused(f"results file {self.path}: its folder cannot be made ({exc.strerror})") from exc
        self._conn: Connection = connect(location)
        self._reader = SummaryReader()
        self._kept: dict[int, tuple[int, RunSummary]] = {}
        self._light_kept: dict[int, tuple[int, RunResult]] = {}
        self._migrate()
        if self.shared:
            self.send_kept()  # what an earlier run kept here while the server was away

    @property
    def shared(self) -> bool:
        """A PostgreSQL store that several people write to."""
        return isinstance(self.location, DatabaseUrl)

    @property
    def _db(self) -> Connection:
        """The connection; a shared store's is made again after its server went away."""
        if self.shared and getattr(self._conn, "raw", None) is not None and (self._conn.raw.closed or self._conn.raw.broken):  # type: ignore[attr-defined]
            self._conn = connect(self.location)
        return self._conn

    def close(self) -> None:
        self.release_all()
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with transaction(self._db) as db:
            yield db

    def _migrate(self) -> None:
        try:
            self._migrate_now()
        except sqlite3.DatabaseError as exc:  # a file that is not a results store, or cannot be written
            error = StoreRefused(f"results file {self.location}: SQLite says: {exc}")
        else:
            return
        raise error

    def _migrate_now(self) -> None:
        db = self._db
        with self._transaction() as created:
            if created.dialect == "postgresql":  # two processes creating it at once collide in pg_type
                created.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            created.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                            "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        applied = {row[0] for row in db.execute("SELECT name FROM schema_migrations")}
        compacted = False
        for name, step in MIGRATIONS:
            if name in applied:
                continue
            with self._transaction() as db:
                if db.dialect == "postgresql":
                    db.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
                if db.execute("SELECT 1 FROM schema_migrations WHERE name = ?", (name,)).fetchone():
                    continue  # another process applied it while this one waited
                if callable(step):
                    step(db)
                else:
                    for statement in (s for s in step.split(";") if s.strip()):
                        db.execute(pg_ddl(statement) if db.dialect == "postgresql" else statement)
                db.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, _now()))
                compacted = compacted or name == "0008_compact_documents"
        if compacted and db.dialect == "sqlite" and str(self.location) != ":memory:":
            db.execute("VACUUM")  # the space the documents' text held goes back to the file system
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # and VACUUM's copy leaves the journal

    def applied_migrations(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM schema_migrations ORDER BY name")]

    def size_bytes(self) -> int:
        """The store's size on disk: the file and its journal, or the PostgreSQL database."""
        if self.shared:
            return int(self._db.execute("SELECT pg_database_size(current_database())").fetchone()[0])
        return sum(p.stat().st_size for p in self.path.parent.glob(f"{self.path.name}*") if p.is_file())

    # hosts --------------------------------------------------------------------------------

    def save_host(self, name: str, fingerprint: str, probe: dict[str, Any],
                  link_gbps: float | None = None, role: str | None = None) -> None:
        """Adds or refreshes a host; a link speed and role set earlier are kept unless given
        (a new host is a 'client')."""
        with self._transaction() as db:
            kept = db.execute("SELECT link_gbps, role FROM hosts WHERE name = ?",
                              (name,)).fetchone()
            db.execute(
                "INSERT INTO hosts (name, added_at, fingerprint, probe_json, link_gbps, role) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                "added_at = excluded.added_at, fingerprint = excluded.fingerprint, "
                "probe_json = excluded.probe_json, link_gbps = excluded.link_gbps, role = excluded.role",
                (name, _now(), fingerprint, json.dumps(probe),
                 link_gbps if link_gbps is not None else (kept[0] if kept else None),
                 role or (kept[1] if kept else "client")))

    def set_host_role(self, name: str, role: str) -> bool:
        """'client' (runs the I/O) or 'monitor' (only watched during runs); False if no such host."""
        with self._transaction() as db:
            return db.execute("UPDATE hosts SET role = ? WHERE name = ?", (role, name)).rowcount > 0

    def monitor_hosts(self) -> list[str]:
        """The hosts marked monitor-only, watched during every run on SSH hosts."""
        rows = self._db.execute("SELECT name FROM hosts WHERE role = 'monitor' ORDER BY name")
        return [r[0] for r in rows]

    def set_host_link(self, name: str, link_gbps: float | None) -> bool:
        """The link speed the user set for a host (None: none, the NIC and its shaping decide); False if no such host."""
        with self._transaction() as db:
            return db.execute("UPDATE hosts SET link_gbps = ? WHERE name = ?", (link_gbps, name)).rowcount > 0

    def host_links(self) -> dict[str, float]:
        """Host name -> the link speed in Gb/s the user set, for the hosts that have one."""
        rows = self._db.execute("SELECT name, link_gbps FROM hosts WHERE link_gbps IS NOT NULL")
        return {r[0]: float(r[1]) for r in rows}

    def hosts(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT name, added_at, fingerprint, probe_json, link_gbps, role "
                                "FROM hosts ORDER BY name")
        return [{"name": r[0], "added_at": r[1], "fingerprint": r[2], "probe": json.loads(r[3]),
                 "link_gbps": r[4], "role": r[5]} for r in rows]

    def remove_host(self, name: str) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM hosts WHERE name = ?", (name,)).rowcount > 0


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
