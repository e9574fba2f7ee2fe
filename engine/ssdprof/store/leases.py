"""Who runs a stored sweep: its holder (who, on which machine, which process, since when) and a lease
the running process renews, so that a sweep whose process died reads as interrupted, not running.

A lease is live while its process runs. On the machine that holds it (the same machine and process
namespace) that is known at once: the recorded process, told from a reused pid by its start time, is
alive or not. From any other machine it is the lease's expiry, on the database's own clock (one clock
for every machine sharing the store), renewed every quarter of its length while the sweep runs.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from ssdprof.store.backend import Connection, connect
from ssdprof.store.errors import StoreError
from ssdprof.store.location import Location
from ssdprof.store.run_records import who_and_where

__all__ = ["Claimant", "Holder", "LeaseKeeper", "iso", "new_lease_id"]

_log = logging.getLogger("ssdprof.store")


def new_lease_id() -> str:
    return uuid.uuid4().hex


def iso(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Claimant:
    """A process that runs sweeps: who (login name), where (host name), and the process itself."""

    user: str
    host: str
    process_space: str
    """This machine and pid namespace: where ``pid`` means this process."""
    pid: int
    started_s: float
    """The process's start time (epoch seconds): a later process given the same pid is not it."""

    @classmethod
    def here(cls) -> Claimant:
        user, host = who_and_where()
        pid = os.getpid()
        return cls(user=user, host=host, process_space=process_space(), pid=pid, started_s=_started(pid) or 0.0)


@dataclass(frozen=True)
class Holder:
    """A stored sweep's holder and lease, as its row has them."""

    user: str
    host: str
    process_space: str
    pid: int
    started_s: float
    lease_id: str
    since: str
    renewed_at: str
    lease_until_s: float

    def live(self, now_s: float, here: Claimant) -> bool:
        """Whether the process holding the lease still runs (see the module's rule)."""
        if not self.lease_id:
            return False
        if self.pid and self.process_space == here.process_space:
            started = _started(self.pid)
            return started is not None and abs(started - self.started_s) < 1.0
        return self.lease_until_s > now_s

    def words(self) -> str:
        who = self.user or "someone"
        where = f" on {self.host}" if self.host else ""
        process = f" (pid {self.pid})" if self.pid else ""
        since = f", since {self.since}" if self.since else ""
        renewed = f", last heard from {self.renewed_at}" if self.renewed_at and self.renewed_at != self.since else ""
        return f"{who}{where}{process}{since}{renewed}"


class LeaseKeeper:
    """Renews one sweep's lease from its own connection (the run's own may be mid-transaction) until
    stopped; notices when the lease was taken over (the sweep resumed elsewhere after its lease
    lapsed), which :attr:`lost` then says."""

    def __init__(self, location: Location | str, sweep_id: int, lease_id: str, lease_s: float):
        self.location, self.sweep_id, self.lease_id, self.lease_s = location, sweep_id, lease_id, lease_s
        self.lost: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"ssdprof-lease-{sweep_id}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)  # a renewal stuck on an unreachable server must not hold the run's end

    def _run(self) -> None:
        db: Connection | None = None
        while not self._stop.wait(self.lease_s / 4):
            try:
                db = db or connect(self.location)
                self._renew(db)
            except (StoreError, OSError) as exc:  # the server away: the lease lapses unless it comes back in time
                _log.debug("lease of sweep %d not renewed: %s", self.sweep_id, exc)
                _closed(db)
                db = None
            except Exception:  # a renewal must never end the run it serves
                _log.exception("lease of sweep %d not renewed", self.sweep_id)
                _closed(db)
                db = None
            if self.lost:
                break
        _closed(db)

    def _renew(self, db: Connection) -> None:
        now = db.clock_s()
        renewed = db.execute("UPDATE sweeps SET lease_until = ?, lease_renewed_at = ? WHERE id = ? AND lease_id = ?",
                             (now + self.lease_s, iso(now), self.sweep_id, self.lease_id)).rowcount
        if renewed == 0:
            row = db.execute("SELECT owner, owner_host, owner_pid FROM sweeps WHERE id = ?", (self.sweep_id,)).fetchone()
            by = f"{row[0] or 'someone'} on {row[1]} (pid {row[2]})" if row else "someone (the sweep was deleted)"
            self.lost = f"sweep {self.sweep_id} was resumed by {by} after its lease lapsed"


def _closed(db: Connection | None) -> None:
    if db is not None:
        with suppress(Exception):  # closing a broken connection
            db.close()


def process_space() -> str:
    """This machine and pid namespace: two processes in it see each other's pids."""
    machine = next((p.read_text().strip() for p in (Path("/etc/machine-id"), Path("/var/lib/dbus/machine-id"))
                    if _readable(p)), "") or f"node-{uuid.getnode():012x}"
    try:
        namespace = f"/pid-ns-{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:  # not Linux: one pid space per machine
        namespace = ""
    return machine + namespace


def _readable(path: Path) -> bool:
    try:
        return bool(path.read_text().strip())
    except OSError:
        return False


def _started(pid: int) -> float | None:
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.Error, OSError):
        return None
