"""The results store: a SQLite file in the user's data folder (WAL mode), or a PostgreSQL database a
lab shares (``--db postgresql://...``), with the same named, ordered migrations on both.

Every finished point is committed as it finishes, with the tool's raw output beside the parsed
result, so a crash loses at most the point in flight and a parser bug loses nothing. A shared
server that goes away mid-sweep loses nothing either: a point that cannot be saved after retrying
is kept on this machine and sent when the server is back (:mod:`ssdprof.store.pending`).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ssdprof.model.results import RunResult, ValidityWarning
from ssdprof.model.run_summary import RunSummary
from ssdprof.model.status import SweepKind, SweepState
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.backend import Connection, StoreUnavailable, connect, connection_lost, pg_ddl, transaction
from ssdprof.store.documents import pack, unpack
from ssdprof.store.drive_state import DriveStateRecords, LedgerEntry, StoredPts
from ssdprof.store.location import DatabaseUrl, Location
from ssdprof.store.migrations import MIGRATIONS
from ssdprof.store.pending import PendingPoint, PendingPoints, pending_path
from ssdprof.store.query import RunFilter
from ssdprof.store.run_records import RunRecords
from ssdprof.store.spec_choices import SpecChoiceRecords
from ssdprof.store.summaries import SummaryReader

__all__ = ["MIGRATIONS", "LedgerEntry", "RunFilter", "Store", "StoreUnavailable", "StoredPts", "StoredSweep",
           "SweepRow"]

_log = logging.getLogger("ssdprof.store")
_MIGRATION_LOCK = 2_814_028  # PostgreSQL advisory lock: one process migrates, the others wait and see it done


@dataclass(frozen=True)
class StoredSweep:
    id: int
    created_at: str
    name: str
    spec: SweepSpec
    status: SweepState
    done: set[tuple[int, int]]
    """(point index, repeat) pairs already finished."""
    kind: SweepKind = "sweep"
    """sweep, or pts: a PTS test, whose repeats are its rounds (resumed by ``ssdprof pts resume``)."""


@dataclass(frozen=True)
class SweepRow:
    """A stored sweep as listed: newest first, with how many runs it kept."""

    id: int
    created_at: str
    name: str
    status: SweepState
    runs: int


class Store(RunRecords, DriveStateRecords, SpecChoiceRecords):
    """``location``: a SQLite file (or ':memory:'), or a :class:`DatabaseUrl`. ``retry_s``: how long a
    shared store keeps trying to save a point before keeping it on this machine."""

    def __init__(self, location: Location | str, *, retry_s: float = 20.0):
        self.location: Location | str = location
        self.retry_s = retry_s
        self.path = Path(str(location)) if not isinstance(location, DatabaseUrl) else Path()
        if not isinstance(location, DatabaseUrl) and str(location) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn: Connection = connect(location)
        self._reader = SummaryReader()
        self._kept: dict[int, tuple[int, RunSummary]] = {}
        self._migrate()
        if self.shared:
            self._send_pending()

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
        self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with transaction(self._db) as db:
            yield db

    def _migrate(self) -> None:
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

    # a shared store's points ---------------------------------------------------------------

    def add_run(self, result: RunResult, point_index: int | None = None, uid: str | None = None) -> RunResult:
        """Commit one finished point; returns it with its id (and who measured it, where). A shared
        store retries for ``retry_s``; then the point is kept on this machine, the run says so, and
        it is sent with the next point saved or the next start. ``uid``: the run's key, where the
        caller has one (an import's, so the same file is one run however often imported)."""
        stamped, uid = self._stamped(result), uid or uuid.uuid4().hex
        if not self.shared:
            return self._insert_run(stamped, uid, point_index)
        deadline, wait_s = time.monotonic() + self.retry_s, 0.5
        while True:
            try:
                self._send_pending()
                return self._insert_run(stamped, uid, point_index)
            except Exception as exc:
                if not (connection_lost(exc) or isinstance(exc, StoreUnavailable)):
                    raise
                if time.monotonic() + wait_s > deadline:
                    return self._keep_here(stamped, uid, point_index, exc)
                time.sleep(wait_s)
                wait_s = min(wait_s * 2, 5.0)

    def _keep_here(self, result: RunResult, uid: str, point_index: int | None, exc: BaseException) -> RunResult:
        assert isinstance(self.location, DatabaseUrl)
        spool = PendingPoints(pending_path(self.location))
        note = ValidityWarning(code="kept_locally", message=(
            f"the results database {self.location} did not answer for {self.retry_s:g} s "
            f"({str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}); this point is kept in "
            f"{spool.path} and is sent when the database answers again (with the next point, or the next start)"))
        kept = result.model_copy(update={"warnings": [*result.warnings, note]})
        spool.keep(PendingPoint(uid, point_index, pack(kept.model_dump_json()), pack(result.raw_output)))
        _log.warning("ssdprof: %s", note.message)
        return kept

    def _send_pending(self) -> int:
        """Points kept on this machine while the server was away, saved now; how many."""
        assert isinstance(self.location, DatabaseUrl)
        spool = PendingPoints(pending_path(self.location))
        sent = 0
        for point in spool.waiting():
            run = RunResult.model_validate_json(unpack(point.document))
            run = run.model_copy(update={"warnings": [w for w in run.warnings if w.code != "kept_locally"],
                                         "raw_output": unpack(point.raw)})
            self._insert_run(run, point.uid, point.point_index)
            spool.sent(point.uid)
            sent += 1
        if sent:
            _log.warning("ssdprof: %d point(s) kept on this machine were saved to %s", sent, self.location)
        return sent

    # sweeps -------------------------------------------------------------------------------

    def create_sweep(self, spec: SweepSpec, kind: SweepKind = "sweep") -> int:
        with self._transaction() as db:
            row = db.execute("INSERT INTO sweeps (created_at, name, spec_json, kind) VALUES (?, ?, ?, ?) RETURNING id",
                             (_now(), spec.name, spec.model_dump_json(), kind)).fetchone()
        return int(row[0])

    def sweep(self, sweep_id: int) -> StoredSweep | None:
        row = self._db.execute("SELECT * FROM sweeps WHERE id = ?", (sweep_id,)).fetchone()
        if row is None:
            return None
        done = {(r[0], r[1]) for r in self._db.execute(
            "SELECT point_index, repeat FROM runs WHERE sweep_id = ? AND status IN ('ok', 'partial')", (sweep_id,))}
        return StoredSweep(row["id"], row["created_at"], row["name"], SweepSpec.model_validate_json(row["spec_json"]),
                           row["status"], done, row["kind"])

    def sweep_results(self, sweep_id: int) -> dict[int, RunResult]:
        """A sweep's finished points (first repeat) by point index: what a curve or a search grows from."""
        rows = self._db.execute("SELECT id, point_index FROM runs WHERE sweep_id = ? AND repeat = 0 AND "
                                "status IN ('ok', 'partial') ORDER BY id", (sweep_id,)).fetchall()
        found = {row["point_index"]: self.run(row["id"]) for row in rows if row["point_index"] is not None}
        return {index: run for index, run in found.items() if run is not None}

    def last_unfinished_sweep(self) -> StoredSweep | None:
        row = self._db.execute("SELECT id FROM sweeps WHERE status != 'done' AND kind = 'sweep' ORDER BY id DESC LIMIT 1").fetchone()
        return self.sweep(row[0]) if row else None

    def set_sweep_spec(self, sweep_id: int, spec: SweepSpec) -> None:
        """A curve's or a search's points, extended or cut as its results come in."""
        self._db.execute("UPDATE sweeps SET spec_json = ? WHERE id = ?", (spec.model_dump_json(), sweep_id))

    def set_sweep_status(self, sweep_id: int, status: SweepState) -> None:
        self._db.execute("UPDATE sweeps SET status = ? WHERE id = ?", (status, sweep_id))

    def list_sweeps(self) -> list[SweepRow]:
        rows = self._db.execute(
            "SELECT s.id, s.created_at, s.name, s.status, COUNT(r.id) AS runs FROM sweeps s "
            "LEFT JOIN runs r ON r.sweep_id = s.id GROUP BY s.id ORDER BY s.id DESC")
        return [SweepRow(**dict(row)) for row in rows]

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
