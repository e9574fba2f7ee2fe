"""The results store: SQLite in the user's data folder, WAL mode, named ordered migrations.

Every finished point is committed as it finishes, with the tool's raw output beside the parsed
result, so a crash loses at most the point in flight and a parser bug loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import platformdirs

from ssdprof.model.results import BIN_FIELDS, RunResult
from ssdprof.model.status import SweepKind, SweepState
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.drive_state import DriveStateRecords, LedgerEntry, StoredPts
from ssdprof.store.migrations import MIGRATIONS
from ssdprof.store.spec_choices import SpecChoiceRecords

__all__ = ["MIGRATIONS", "LedgerEntry", "RunFilter", "Store", "StoredPts", "StoredSweep", "SweepRow",
           "default_db_path"]

_LIGHT_PATHS = ", ".join(f"'$.{d}.{b}'" for d in ("read", "write") for b in BIN_FIELDS)
"""The top-level histogram bins, dropped by SQLite for light listings."""


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("ssdprof")) / "results.sqlite3"


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


@dataclass(frozen=True)
class RunFilter:
    tag: str | None = None
    """``key=value`` or a bare value matched against any tag."""
    text: str | None = None
    """Matched against target, device model and engine."""
    since: str | None = None
    sweep_id: int | None = None
    limit: int | None = 500
    """The newest ``limit`` matching runs (returned oldest first); None for all of them."""


class Store(DriveStateRecords, SpecChoiceRecords):
    def __init__(self, path: Path | str):
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._migrate()

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        self._db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
        applied = {row[0] for row in self._db.execute("SELECT name FROM schema_migrations")}
        for name, step in MIGRATIONS:
            if name in applied:
                continue
            with self._transaction() as db:
                if callable(step):
                    step(db)
                else:
                    for statement in (s for s in step.split(";") if s.strip()):
                        db.execute(statement)
                db.execute("INSERT INTO schema_migrations VALUES (?, ?)", (name, _now()))

    def applied_migrations(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM schema_migrations ORDER BY name")]

    # sweeps -------------------------------------------------------------------------------

    def create_sweep(self, spec: SweepSpec) -> int:
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO sweeps (created_at, name, spec_json) VALUES (?, ?, ?)",
                                (_now(), spec.name, spec.model_dump_json()))
        return int(cursor.lastrowid or 0)

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
        rows = self._db.execute("SELECT id, point_index, result_json FROM runs WHERE sweep_id = ? AND repeat = 0 AND "
                                "status IN ('ok', 'partial') ORDER BY id", (sweep_id,))
        return {row["point_index"]: self._load(row["result_json"], row["id"]) for row in rows if row["point_index"] is not None}

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

    def save_host(self, name: str, fingerprint: str, probe: dict[str, Any], link_gbps: float | None = None) -> None:
        """Adds or refreshes a host; a link speed set earlier is kept unless one is given."""
        with self._transaction() as db:
            kept = db.execute("SELECT link_gbps FROM hosts WHERE name = ?", (name,)).fetchone()
            db.execute("INSERT OR REPLACE INTO hosts (name, added_at, fingerprint, probe_json, link_gbps) VALUES (?, ?, ?, ?, ?)",
                       (name, _now(), fingerprint, json.dumps(probe), link_gbps if link_gbps is not None else (kept[0] if kept else None)))

    def set_host_link(self, name: str, link_gbps: float | None) -> bool:
        """The link speed the user set for a host (None: none, the NIC and its shaping decide); False if no such host."""
        with self._transaction() as db:
            return db.execute("UPDATE hosts SET link_gbps = ? WHERE name = ?", (link_gbps, name)).rowcount > 0

    def host_links(self) -> dict[str, float]:
        """Host name -> the link speed in Gb/s the user set, for the hosts that have one."""
        rows = self._db.execute("SELECT name, link_gbps FROM hosts WHERE link_gbps IS NOT NULL")
        return {r[0]: float(r[1]) for r in rows}

    def hosts(self) -> list[dict[str, Any]]:
        rows = self._db.execute("SELECT name, added_at, fingerprint, probe_json, link_gbps FROM hosts ORDER BY name")
        return [{"name": r[0], "added_at": r[1], "fingerprint": r[2], "probe": json.loads(r[3]), "link_gbps": r[4]} for r in rows]

    def remove_host(self, name: str) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM hosts WHERE name = ?", (name,)).rowcount > 0

    # runs ---------------------------------------------------------------------------------

    def add_run(self, result: RunResult, point_index: int | None = None) -> RunResult:
        """Commit one finished point; returns it with its id."""
        host_key = ",".join(sorted(h.host for h in result.hosts)) or "local"
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO runs (sweep_id, point_index, repeat, workload_key, host_key, started_at, finished_at, status,"
                " engine, target, device_model, source, result_json, raw_output, target_identity)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (result.sweep_id, point_index, result.repeat, result.workload.key(), host_key, result.started_at,
                 result.finished_at, result.status, result.engine.name, result.workload.target,
                 result.environment.device_model, result.source, "{}", result.raw_output,
                 result.drive_state.target_identity if result.drive_state else ""))
            run_id = int(cursor.lastrowid or 0)
            stored = result.model_copy(update={"id": run_id})
            db.execute("UPDATE runs SET result_json = ? WHERE id = ?", (stored.model_dump_json(), run_id))
            db.executemany("INSERT INTO run_tags VALUES (?, ?, ?)", [(run_id, k, v) for k, v in result.tags.items()])
        return stored

    def run(self, run_id: int) -> RunResult | None:
        row = self._db.execute("SELECT result_json, raw_output FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return self._load(row["result_json"], run_id).model_copy(update={"raw_output": row["raw_output"]})

    def runs(self, where: RunFilter | None = None, *, light: bool = False) -> list[RunResult]:
        """Matching runs; ``light`` leaves out the per-second progress and the top-level histogram bins
        (SQLite drops them before Python parses anything: a long list loads several times faster)."""
        where = where or RunFilter()
        sql, params = self._where(where)
        column = f"json_remove(r.result_json, '$.progress', {_LIGHT_PATHS})" if light else "r.result_json"
        if where.limit is not None:
            sql = f"SELECT * FROM (SELECT r.id, {column} AS result_json FROM runs r WHERE {sql} ORDER BY r.id DESC LIMIT ?) ORDER BY id"
            params.append(where.limit)
        else:
            sql = f"SELECT r.id, {column} AS result_json FROM runs r WHERE {sql} ORDER BY r.id"
        return [self._load(row["result_json"], row["id"]) for row in self._db.execute(sql, params)]

    def count_runs(self, where: RunFilter | None = None) -> int:
        """How many runs match, ignoring the limit (so a caller can say what a list left out)."""
        sql, params = self._where(where or RunFilter())
        return int(self._db.execute(f"SELECT COUNT(*) FROM runs r WHERE {sql}", params).fetchone()[0])

    @staticmethod
    def _where(where: RunFilter) -> tuple[str, list[object]]:
        clauses: list[str] = ["1 = 1"]
        params: list[object] = []
        if where.sweep_id is not None:
            clauses.append("r.sweep_id = ?")
            params.append(where.sweep_id)
        if where.tag:
            key, _, value = where.tag.partition("=")
            if value:
                clauses.append("EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.key = ? AND t.value = ?)")
                params += [key, value]
            else:
                clauses.append("EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND (t.key = ? OR t.value = ?))")
                params += [key, key]
        if where.text:
            clauses.append("(r.target LIKE ? OR r.device_model LIKE ? OR r.engine LIKE ? OR r.source LIKE ?)")
            params += [f"%{where.text}%"] * 4
        if where.since:
            clauses.append("r.started_at >= ?")
            params.append(where.since)
        return " AND ".join(clauses), params

    def raw_output(self, run_id: int) -> str:
        row = self._db.execute("SELECT raw_output FROM runs WHERE id = ?", (run_id,)).fetchone()
        return str(row[0]) if row else ""

    def set_tags(self, run_id: int, tags: dict[str, str]) -> RunResult:
        result = self.run(run_id)
        if result is None:
            raise KeyError(f"run {run_id} does not exist")
        updated = result.model_copy(update={"tags": {**result.tags, **tags}})
        with self._transaction() as db:
            db.executemany("INSERT OR REPLACE INTO run_tags VALUES (?, ?, ?)", [(run_id, k, v) for k, v in tags.items()])
            db.execute("UPDATE runs SET result_json = ? WHERE id = ?", (updated.model_dump_json(), run_id))
        return updated

    def delete_run(self, run_id: int) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount > 0

    @staticmethod
    def _load(result_json: str, run_id: int) -> RunResult:
        return RunResult.model_validate_json(result_json).model_copy(update={"id": run_id})


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
