"""The store's part for drive state: the per-target ledger of bytes ssdprof wrote since its last purge, and
PTS tests (a sweep whose repeats are rounds, with the test's spec and starting drive state beside it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ssdprof.store.backend import Connection, StorePart
from ssdprof.store.documents import document_of, pack
from ssdprof.store.pending import Write
from ssdprof.store.sweeps import StoredSweep
from ssdprof.store.writes import applies

if TYPE_CHECKING:  # pydantic's models load when a record is read or written, not with the store
    from ssdprof.model.drive_state import DriveState, PreconditionRecord, PurgeRecord
    from ssdprof.model.pts import PtsSpec
    from ssdprof.model.status import SweepKind, SweepState
    from ssdprof.model.sweep import SweepSpec

__all__ = ["DriveStateRecords", "LedgerEntry", "StoredPts"]


@dataclass(frozen=True)
class LedgerEntry:
    identity: str
    description: str
    first_seen_at: str
    bytes_written: int
    purged_at: str | None
    purge: PurgeRecord | None
    preconditioning: PreconditionRecord | None
    steady_state: str

    def state(self, region_bytes: int) -> DriveState:
        """The target's state before the next run, as the ledger knows it (nothing done right before)."""
        from ssdprof.model.drive_state import DriveState

        return DriveState(target_identity=self.identity, bytes_written_since_purge=self.bytes_written,
                          ledger_since="purge" if self.purged_at else "first-use", region_bytes=region_bytes,
                          steady_state=self.steady_state if self.steady_state in ("reached", "not-reached") else "not-checked",
                          purge=self.purge, preconditioning=self.preconditioning)


@dataclass(frozen=True)
class StoredPts:
    id: int
    created_at: str
    name: str
    spec: PtsSpec
    status: str
    drive_state: DriveState | None
    reason: str
    done: set[tuple[int, int]]
    """(point index, round - 1) pairs already measured."""


class DriveStateRecords(StorePart):
    """Mixed into :class:`ssdprof.store.db.Store`, which provides the connection and transactions."""

    if TYPE_CHECKING:  # given by WritePath and SweepRecords beside this in the Store (a stub here would shadow them)
        def _write(self, write: Write) -> Any: ...

        def create_sweep(self, spec: SweepSpec, kind: SweepKind = "sweep",
                         then: Callable[[Connection, int], None] | None = None) -> int: ...

        def resumable(self, kind: SweepKind = "sweep", *, ended: tuple[SweepState, ...] = ("stopped",),
                      accept: Callable[[StoredSweep], bool] | None = None) -> StoredSweep: ...

    # ledger -------------------------------------------------------------------------------

    def ledger(self, identity: str) -> LedgerEntry | None:
        from ssdprof.model.drive_state import PreconditionRecord, PurgeRecord

        row = self._db.execute("SELECT * FROM target_ledger WHERE identity = ?", (identity,)).fetchone()
        if row is None:
            return None
        return LedgerEntry(identity=row["identity"], description=row["description"], first_seen_at=row["first_seen_at"],
                           bytes_written=row["bytes_written"], purged_at=row["purged_at"],
                           purge=PurgeRecord.model_validate_json(row["purge_json"]) if row["purge_json"] else None,
                           preconditioning=PreconditionRecord.model_validate_json(row["precondition_json"])
                           if row["precondition_json"] else None, steady_state=row["steady_state"])

    def ledger_entry(self, identity: str, description: str) -> LedgerEntry:
        """The target's entry, made on first use."""
        with self._transaction() as db:
            db.execute("INSERT INTO target_ledger (identity, description, first_seen_at, updated_at) "
                       "VALUES (?, ?, ?, ?) ON CONFLICT (identity) DO NOTHING", (identity, description, _now(), _now()))
        entry = self.ledger(identity)
        assert entry is not None
        return entry

    def add_written(self, identity: str, description: str, n_bytes: int) -> None:
        """Bytes ssdprof wrote to the target (measured writes, layout, preconditioning)."""
        self._write(Write("written", {"identity": identity, "description": description, "n_bytes": n_bytes}))

    def record_purge(self, identity: str, description: str, purge: PurgeRecord) -> None:
        """A purge resets the count, the preconditioning and any steady state shown."""
        self._write(Write("purge", {"identity": identity, "description": description, "purge_json": purge.model_dump_json()}))

    def record_precondition(self, identity: str, description: str, record: PreconditionRecord) -> None:
        self._write(Write("precondition", {"identity": identity, "description": description,
                                           "record_json": record.model_dump_json()}))

    def set_ledger_steady_state(self, identity: str, value: str) -> None:
        self._write(Write("ledger_steady_state", {"identity": identity, "value": value}))

    # PTS tests ----------------------------------------------------------------------------

    def create_pts(self, spec: PtsSpec) -> int:
        """A PTS test, stored as a sweep (kind 'pts') of one round's points whose repeats are the rounds."""
        from ssdprof.model.sweep import MAX_REPEATS, SweepSpec

        rounds = SweepSpec(name=spec.name, points=spec.points(), repeats=min(spec.rule.max_rounds, MAX_REPEATS), tags=spec.tags)

        def test_row(db: Connection, sweep_id: int) -> None:
            db.execute("INSERT INTO pts_tests (sweep_id, test, profile, spec_json) VALUES (?, ?, ?, ?)",
                       (sweep_id, spec.test.value, spec.profile.value, spec.model_dump_json()))

        return self.create_sweep(rounds, kind="pts", then=test_row)

    def pts(self, pts_id: int) -> StoredPts | None:
        from ssdprof.model.drive_state import DriveState
        from ssdprof.model.pts import PtsSpec

        row = self._db.execute("SELECT s.id, s.created_at, s.name, s.status, p.spec_json, p.drive_state_json, p.reason "
                               "FROM sweeps s JOIN pts_tests p ON p.sweep_id = s.id WHERE s.id = ?", (pts_id,)).fetchone()
        if row is None:
            return None
        done = {(r[0], r[1]) for r in self._db.execute(
            "SELECT point_index, repeat FROM runs WHERE sweep_id = ? AND status IN ('ok', 'partial')", (pts_id,))}
        state = DriveState.model_validate_json(row["drive_state_json"]) if row["drive_state_json"] else None
        return StoredPts(row["id"], row["created_at"], row["name"], PtsSpec.model_validate_json(row["spec_json"]),
                         row["status"], state, row["reason"], done)

    def last_unfinished_pts(self) -> StoredPts:
        """The newest PTS test of the caller's own that did not end done (KeyError saying why none)."""
        found = self.pts(self.resumable("pts", ended=("stopped", "cancelled", "failed")).id)
        assert found is not None
        return found

    def set_pts_drive_state(self, pts_id: int, state: DriveState) -> None:
        self._write(Write("pts_drive_state", {"pts_id": pts_id, "state_json": state.model_dump_json()}))

    def set_pts_reason(self, pts_id: int, reason: str) -> None:
        self._write(Write("pts_reason", {"pts_id": pts_id, "reason": reason}))

    def list_pts(self) -> list[dict[str, Any]]:
        from ssdprof.model.pts import PtsSpec

        rows = self._db.execute(
            "SELECT s.id, s.created_at, s.name, s.status, p.test, p.profile, p.spec_json, "
            "(SELECT COUNT(DISTINCT r.repeat) FROM runs r WHERE r.sweep_id = s.id) AS rounds "
            "FROM sweeps s JOIN pts_tests p ON p.sweep_id = s.id ORDER BY s.id DESC")
        return [{**dict(row), "spec": PtsSpec.model_validate_json(row["spec_json"])} for row in rows]

    def set_run_steady_state(self, run_ids: list[int], value: str) -> None:
        """Mark runs measured by a PTS test with the verdict of the round they belong to."""
        self._write(Write("run_steady_state", {"run_ids": run_ids, "value": value}))


@applies("written")
def _apply_written(db: Connection, args: dict[str, Any]) -> None:
    _ledger_row(db, args)
    if args["n_bytes"] > 0:
        db.execute("UPDATE target_ledger SET bytes_written = bytes_written + ?, updated_at = ? WHERE identity = ?",
                   (args["n_bytes"], _now(), args["identity"]))


@applies("purge")
def _apply_purge(db: Connection, args: dict[str, Any]) -> None:
    from ssdprof.model.drive_state import PurgeRecord

    _ledger_row(db, args)
    purge = PurgeRecord.model_validate_json(args["purge_json"])
    db.execute("UPDATE target_ledger SET bytes_written = 0, purged_at = ?, purge_json = ?, precondition_json = NULL, "
               "steady_state = 'not-checked', updated_at = ? WHERE identity = ?",
               (purge.at, args["purge_json"], _now(), args["identity"]))


@applies("precondition")
def _apply_precondition(db: Connection, args: dict[str, Any]) -> None:
    from ssdprof.model.drive_state import PreconditionRecord

    record = PreconditionRecord.model_validate_json(args["record_json"])
    _apply_written(db, {**args, "n_bytes": record.bytes_written})
    db.execute("UPDATE target_ledger SET precondition_json = ?, steady_state = 'not-checked', updated_at = ? "
               "WHERE identity = ?", (args["record_json"], _now(), args["identity"]))


@applies("ledger_steady_state")
def _apply_ledger_steady_state(db: Connection, args: dict[str, Any]) -> None:
    db.execute("UPDATE target_ledger SET steady_state = ?, updated_at = ? WHERE identity = ?",
               (args["value"], _now(), args["identity"]))


@applies("pts_drive_state")
def _apply_pts_drive_state(db: Connection, args: dict[str, Any]) -> None:
    db.execute("UPDATE pts_tests SET drive_state_json = ? WHERE sweep_id = ?", (args["state_json"], args["pts_id"]))


@applies("pts_reason")
def _apply_pts_reason(db: Connection, args: dict[str, Any]) -> None:
    db.execute("UPDATE pts_tests SET reason = ? WHERE sweep_id = ?", (args["reason"], args["pts_id"]))


@applies("run_steady_state")
def _apply_run_steady_state(db: Connection, args: dict[str, Any]) -> None:
    from ssdprof.model.drive_state import DriveState

    for run_id in args["run_ids"]:
        row = db.execute("SELECT document, result_json FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            continue
        data = json.loads(document_of(row))
        if data.get("drive_state"):
            data["drive_state"]["steady_state"] = args["value"]
            db.execute("UPDATE runs SET document = ?, result_json = '', revision = revision + 1 WHERE id = ?",
                       (pack(json.dumps(data)), run_id))
            db.execute("UPDATE run_summaries SET drive_state_json = ? WHERE run_id = ?",
                       (DriveState.model_validate(data["drive_state"]).model_dump_json(), run_id))


def _ledger_row(db: Connection, args: dict[str, Any]) -> None:
    """The target's entry, made on first use."""
    db.execute("INSERT INTO target_ledger (identity, description, first_seen_at, updated_at) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (identity) DO NOTHING", (args["identity"], args["description"], _now(), _now()))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
