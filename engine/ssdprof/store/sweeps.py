"""The store's part for sweeps: stored with their spec, held by the process running them (a lease it
renews, :mod:`ssdprof.store.leases`), listed as running, interrupted or ended, and resumed only where
no live process holds them.

A sweep is claimed when it starts or resumes (a compare-and-set on its lease, so two processes
resuming it at once cannot both win), and released when it ends. Without an id, a resume takes the
newest interrupted sweep of the caller's own (the same login on the same machine; sweeps stored
before owners were kept count as anyone's); another person's is resumed only when named by its id,
and a live one never.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ssdprof.model.status import SweepKind, SweepStanding, SweepState
from ssdprof.store.backend import Connection, Row, StorePart
from ssdprof.store.errors import SweepHeld
from ssdprof.store.leases import Claimant, Holder, LeaseKeeper, iso, new_lease_id
from ssdprof.store.location import Location
from ssdprof.store.pending import Write
from ssdprof.store.writes import applies

if TYPE_CHECKING:
    from ssdprof.model.sweep import SweepSpec  # loaded when a sweep is read, not with the store
    from ssdprof.model.sweep_info import SweepInfo

__all__ = ["RESUME_COMMANDS", "StoredSweep", "SweepRecords"]

_WORDS = {"sweep": "sweep", "pts": "PTS test", "sustain": "sustained-write test", "replay": "trace replay"}
RESUME_COMMANDS = {"sweep": "ssdprof sweep --resume", "pts": "ssdprof pts resume", "sustain": "ssdprof sustain --resume",
                   "replay": "ssdprof replay --resume"}
"""How each kind is named, and resumed on the command line."""
_HOLDER = "owner, owner_host, owner_process, owner_pid, owner_started, lease_id, lease_since, lease_renewed_at, lease_until"


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
    standing: SweepStanding = "done"
    """running (a live process holds it), interrupted (its process died or a host was lost), or how it ended."""
    holder: Holder | None = field(default=None, compare=False)
    """Who last ran it, where and since when (None: stored before owners were kept)."""


class SweepRecords(StorePart):
    """Mixed into :class:`ssdprof.store.db.Store`, which gives the connection, transactions and the write path."""

    location: Location | str
    claimant: Claimant
    lease_s: float
    _leases: dict[int, LeaseKeeper | str]
    """Sweeps this store holds: their keeper (a file or server store), or the lease id (in memory)."""

    if TYPE_CHECKING:  # given by WritePath and RunRecords beside this in the Store
        def _write(self, write: Write) -> Any: ...

        def run(self, run_id: int) -> Any: ...

    def create_sweep(self, spec: SweepSpec, kind: SweepKind = "sweep",
                     then: Callable[[Connection, int], None] | None = None) -> int:
        """A new sweep, held by this process; ``then`` adds its kind's rows in the same transaction."""
        lease = new_lease_id()
        me = self.claimant
        with self._transaction() as db:
            now = db.clock_s()
            row = db.execute(
                f"INSERT INTO sweeps (created_at, name, spec_json, kind, status, {_HOLDER}) "
                "VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (_now(), spec.name, spec.model_dump_json(), kind, me.user, me.host, me.process_space, me.pid,
                 me.started_s, lease, iso(now), iso(now), now + self.lease_s)).fetchone()
            sweep_id = int(row[0])
            if then is not None:
                then(db, sweep_id)
        self._hold(sweep_id, lease)
        return sweep_id

    def resumable_sweep(self, sweep_id: int, kind: SweepKind | None = None) -> StoredSweep:
        """A stored sweep (of ``kind``, if given) that could be resumed now: KeyError if there is no
        such sweep, SweepHeld while another live process holds it. Claims nothing."""
        stored = self.sweep(sweep_id)
        if stored is None:
            raise KeyError(f"sweep {sweep_id} does not exist")
        if kind is not None and stored.kind != kind:
            raise KeyError(f"sweep {sweep_id} is a {_WORDS[stored.kind]}, not a {_WORDS[kind]}: continue it with "
                           f"{RESUME_COMMANDS[stored.kind]} {sweep_id}")
        if stored.standing == "running" and not self._holds(stored):
            raise SweepHeld(f"sweep {sweep_id} is running: {_held_by(stored)}; it cannot be resumed while it runs")
        return stored

    def claim_sweep(self, sweep_id: int, kind: SweepKind | None = None) -> StoredSweep:
        """Hold a stored sweep (of ``kind``, if given) to resume it; refused while a live process
        holds it, or when another process claimed it first (both read it lapsed; one wins)."""
        stored = self.resumable_sweep(sweep_id, kind)
        if self._holds(stored):
            return stored
        lease, me = new_lease_id(), self.claimant
        with self._transaction() as db:
            now = db.clock_s()
            claimed = db.execute(
                "UPDATE sweeps SET status = 'running', owner = ?, owner_host = ?, owner_process = ?, owner_pid = ?, "
                "owner_started = ?, lease_id = ?, lease_since = ?, lease_renewed_at = ?, lease_until = ? "
                "WHERE id = ? AND lease_id = ?",
                (me.user, me.host, me.process_space, me.pid, me.started_s, lease, iso(now), iso(now),
                 now + self.lease_s, sweep_id, stored.holder.lease_id if stored.holder else "")).rowcount
        if claimed != 1:
            now_held = self.sweep(sweep_id)
            raise SweepHeld(f"sweep {sweep_id} was resumed a moment ago by "
                            f"{_held_by(now_held) if now_held else 'another process'}")
        self._hold(sweep_id, lease)
        return self.sweep(sweep_id) or stored

    def resumable(self, kind: SweepKind = "sweep", *, ended: tuple[SweepState, ...] = ("stopped",),
                  accept: Callable[[StoredSweep], bool] | None = None) -> StoredSweep:
        """The newest interrupted sweep of the caller's own (``ended``: the end statuses also taken,
        e.g. a cancelled PTS test; ``accept``: only such sweeps, e.g. curves); KeyError saying why none,
        naming others' that could be resumed by their id."""
        mine: list[StoredSweep] = []
        others: list[StoredSweep] = []
        live: list[StoredSweep] = []
        for stored in self._sweeps_of(kind):
            if accept is not None and not accept(stored):
                continue
            if stored.standing == "running":
                live.append(stored)
            elif stored.status == "running" or stored.status in ended:
                (mine if self._is_mine(stored) else others).append(stored)
        if mine:
            return mine[0]
        words = _WORDS[kind]
        reasons = [f"no interrupted {words} of yours ({self.claimant.user} on {self.claimant.host}) to resume"]
        reasons += [f"{words} {s.id} is running: {_held_by(s)}" for s in live if self._is_mine(s)][:1]
        reasons += [f"{words} {s.id} ({_held_by(s)}) is interrupted: resume it by its id if you mean to take it over"
                    for s in others][:3]
        raise KeyError("; ".join(reasons))

    def lease_lost(self, sweep_id: int) -> str | None:
        """Why this process no longer holds a sweep it ran (resumed elsewhere after its lease lapsed), or None."""
        keeper = self._leases.get(sweep_id)
        return keeper.lost if isinstance(keeper, LeaseKeeper) else None

    def sweep(self, sweep_id: int) -> StoredSweep | None:
        from ssdprof.model.sweep import SweepSpec

        row = self._db.execute("SELECT * FROM sweeps WHERE id = ?", (sweep_id,)).fetchone()
        if row is None:
            return None
        done = {(r[0], r[1]) for r in self._db.execute(
            "SELECT point_index, repeat FROM runs WHERE sweep_id = ? AND status IN ('ok', 'partial')", (sweep_id,))}
        holder = _holder(row)
        standing = self._standing(row["status"], holder, self._db.clock_s())
        return StoredSweep(row["id"], row["created_at"], row["name"], SweepSpec.model_validate_json(row["spec_json"]),
                           row["status"], done, row["kind"], standing, holder)

    def sweep_results(self, sweep_id: int) -> dict[int, Any]:
        """A sweep's finished points (first repeat) by point index: what a curve or a search grows from."""
        rows = self._db.execute("SELECT id, point_index FROM runs WHERE sweep_id = ? AND repeat = 0 AND "
                                "status IN ('ok', 'partial') ORDER BY id", (sweep_id,)).fetchall()
        found = {row["point_index"]: self.run(row["id"]) for row in rows if row["point_index"] is not None}
        return {index: run for index, run in found.items() if run is not None}

    def last_unfinished_sweep(self) -> StoredSweep | None:
        """The newest interrupted sweep of the caller's own, or None."""
        try:
            return self.resumable("sweep")
        except KeyError:
            return None

    def set_sweep_spec(self, sweep_id: int, spec: SweepSpec) -> None:
        """A curve's or a search's points, extended or cut as its results come in."""
        self._write(Write("sweep_spec", {"sweep_id": sweep_id, "spec_json": spec.model_dump_json(),
                                         "lease_id": _lease_id(self._leases.get(sweep_id, ""))}))

    def set_sweep_status(self, sweep_id: int, status: SweepState) -> None:
        """How a sweep this process ran ended (its lease released), or "running": claim it."""
        if status == "running":
            self.claim_sweep(sweep_id)
            return
        held = self._leases.pop(sweep_id, "")
        if isinstance(held, LeaseKeeper):
            held.stop()
        self._write(Write("sweep_status", {"sweep_id": sweep_id, "status": status, "lease_id": _lease_id(held)}))

    def list_sweeps(self) -> list[SweepInfo]:
        from ssdprof.model.sweep_info import SweepInfo  # loaded when sweeps are listed, not with the store

        rows = self._db.execute(
            f"SELECT s.id, s.created_at, s.name, s.status, s.kind, {', '.join('s.' + c for c in _HOLDER.split(', '))}, "
            "(SELECT COUNT(*) FROM runs r WHERE r.sweep_id = s.id) AS runs FROM sweeps s ORDER BY s.id DESC").fetchall()
        listed, now = [], self._db.clock_s()
        for row in rows:
            holder = _holder(row)
            listed.append(SweepInfo(id=row["id"], created_at=row["created_at"], name=row["name"], status=row["status"],
                                   runs=row["runs"], kind=row["kind"], standing=self._standing(row["status"], holder, now),
                                   owner=holder.user if holder else "", owner_host=holder.host if holder else "",
                                   owner_pid=holder.pid if holder else 0, since=holder.since if holder else "",
                                   renewed_at=holder.renewed_at if holder else ""))
        return listed

    def release_all(self) -> None:
        """Stop renewing every lease this store holds (it is closing): a sweep still running then reads interrupted."""
        for held in self._leases.values():
            if isinstance(held, LeaseKeeper):
                held.stop()
        self._leases.clear()

    # --------------------------------------------------------------------------------- held

    def _hold(self, sweep_id: int, lease: str) -> None:
        memory = str(self.location) == ":memory:"  # no other process can see it: nothing to renew
        self._leases[sweep_id] = lease if memory else LeaseKeeper(self.location, sweep_id, lease, self.lease_s)

    def _holds(self, stored: StoredSweep) -> bool:
        """Whether this store holds the sweep's current lease."""
        ours = self._leases.get(stored.id)
        return ours is not None and stored.holder is not None and stored.holder.lease_id == _lease_id(ours)

    def _standing(self, status: SweepState, holder: Holder | None, now_s: float) -> SweepStanding:
        if status == "stopped":
            return "interrupted"
        if status != "running":
            return status
        if holder is None:
            return "interrupted"
        held = any(_lease_id(v) == holder.lease_id for v in self._leases.values())
        return "running" if held or holder.live(now_s, self.claimant) else "interrupted"

    def _sweeps_of(self, kind: SweepKind) -> list[StoredSweep]:
        rows = self._db.execute("SELECT id FROM sweeps WHERE kind = ? AND status != 'done' ORDER BY id DESC", (kind,))
        return [s for s in (self.sweep(int(r[0])) for r in rows.fetchall()) if s is not None]

    def _is_mine(self, stored: StoredSweep) -> bool:
        holder = stored.holder
        return holder is None or not holder.user or (holder.user == self.claimant.user and holder.host == self.claimant.host)


def _lease_id(held: LeaseKeeper | str) -> str:
    return held.lease_id if isinstance(held, LeaseKeeper) else held


def _holder(row: Row) -> Holder | None:
    if not row["owner"] and not row["lease_id"]:
        return None
    return Holder(user=row["owner"], host=row["owner_host"], process_space=row["owner_process"], pid=int(row["owner_pid"]),
                  started_s=float(row["owner_started"]), lease_id=row["lease_id"], since=row["lease_since"],
                  renewed_at=row["lease_renewed_at"], lease_until_s=float(row["lease_until"]))


def _held_by(stored: StoredSweep) -> str:
    return f"held by {stored.holder.words()}" if stored.holder else "held by a process stored before owners were kept"


@applies("sweep_status")
def _apply_status(db: Connection, args: dict[str, Any]) -> None:
    """An end is recorded only by the run that held the sweep: a status kept here while someone resumed
    the sweep elsewhere is dropped, not laid over theirs."""
    db.execute("UPDATE sweeps SET status = ?, lease_until = 0 WHERE id = ? AND lease_id = ?",
               (args["status"], args["sweep_id"], args["lease_id"]))


@applies("sweep_spec")
def _apply_spec(db: Connection, args: dict[str, Any]) -> None:
    db.execute("UPDATE sweeps SET spec_json = ? WHERE id = ? AND lease_id = ?",
               (args["spec_json"], args["sweep_id"], args["lease_id"]))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
