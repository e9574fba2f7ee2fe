"""The one path every write a run makes to the store takes: applied at once, or on a shared store
whose server does not answer, retried for ``retry_s``, then kept on this machine
(:mod:`ssdprof.store.pending`) and sent, in order, by the next write or start that reaches it.

Once something is kept, later writes do not wait again: each tries the server once and, still no
answer, is kept behind the others, so a sweep carries on measuring at its own pace while the server
is away. A kept write is applied once only: a finished point by its unique key, any other write by
its id recorded in ``applied_writes`` in the same transaction.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, TypeVar

from ssdprof.store.backend import Connection, StorePart
from ssdprof.store.documents import pack, unpack
from ssdprof.store.errors import StoreUnavailable
from ssdprof.store.location import DatabaseUrl, Location
from ssdprof.store.pending import PendingWrites, Write, pending_path

if TYPE_CHECKING:
    from ssdprof.model.results import RunResult

__all__ = ["APPLIERS", "WritePath", "applies"]

_log = logging.getLogger("ssdprof.store")

Applier = Callable[[Connection, dict[str, Any]], None]
APPLIERS: dict[str, Applier] = {}
"""Each kind of write by name, filled by the record modules' ``@applies``."""
F = TypeVar("F", bound=Applier)


def applies(kind: str) -> Callable[[F], F]:
    """Marks a function ``(db, args)`` as how a write of ``kind`` is applied, inside its transaction."""
    def mark(function: F) -> F:
        APPLIERS[kind] = function
        return function

    return mark


class WritePath(StorePart):
    """Mixed into :class:`ssdprof.store.db.Store`, which gives the connection and transactions."""

    location: Location | str
    retry_s: float

    @property
    def shared(self) -> bool:
        raise NotImplementedError

    if TYPE_CHECKING:  # given by RunRecords beside this in the Store (a stub here would shadow it)
        def _insert_run(self, result: RunResult, uid: str, point_index: int | None) -> RunResult: ...

        def _stamped(self, result: RunResult) -> RunResult: ...

    @property
    def _pending(self) -> PendingWrites:
        assert isinstance(self.location, DatabaseUrl)
        return PendingWrites(pending_path(self.location))

    def add_run(self, result: RunResult, point_index: int | None = None, uid: str | None = None) -> RunResult:
        """Commit one finished point; returns it with its id (and who measured it, where). On a
        shared store whose server does not answer, the point is kept on this machine, the run says
        so (no id yet), and it is sent with the next write or the next start. ``uid``: the run's key,
        where the caller has one (an import's, so the same file is one run however often imported)."""
        from ssdprof.model.results import ValidityWarning

        stamped = self._stamped(result)
        write = Write("run", {"point_index": point_index}, document=pack(stamped.model_dump_json()),
                      raw=pack(stamped.raw_output), **({"uid": uid} if uid else {}))
        if not self.shared:
            return self._insert_run(stamped, write.uid, point_index)
        saved = self._write(write)
        if saved is not None:
            return saved
        note = ValidityWarning(code="kept_locally", message=(
            f"the results database {self.location} did not answer; this point is kept in {self._pending.path} "
            "and is sent when the database answers again (with the next write, or the next start)"))
        return stamped.model_copy(update={"warnings": [*stamped.warnings, note]})

    def _write(self, write: Write) -> RunResult | None:
        """Apply ``write`` now, or keep it; a finished point comes back stored (None: kept here)."""
        if not self.shared:
            return self._apply(write)
        waiting = self._pending.count()[0] > 0
        deadline, wait_s = time.monotonic() + (0.0 if waiting else self.retry_s), 0.5
        while True:
            try:
                self.send_kept()
                return self._apply(write)
            except StoreUnavailable as exc:
                if time.monotonic() + wait_s > deadline:
                    self._pending.keep(write)
                    if not waiting:
                        _log.warning("ssdprof: waited %g s for the results database, then kept this write and the ones "
                                     "after it in %s, to send when it answers again (%s)", self.retry_s,
                                     self._pending.path, exc)
                    return None
                time.sleep(wait_s)
                wait_s = min(wait_s * 2, 5.0)

    def _apply(self, write: Write) -> RunResult | None:
        from ssdprof.model.results import RunResult

        if write.kind == "run":
            run = RunResult.model_validate_json(unpack(write.document))
            run = run.model_copy(update={"warnings": [w for w in run.warnings if w.code != "kept_locally"],
                                         "raw_output": unpack(write.raw)})
            return self._insert_run(run, write.uid, write.args.get("point_index"))
        with self._transaction() as db:
            if self.shared and db.execute("INSERT INTO applied_writes (uid, applied_at) VALUES (?, ?) ON CONFLICT (uid) "
                                          "DO NOTHING RETURNING uid", (write.uid, _now())).fetchone() is None:
                return None  # applied before, by a try whose answer was lost with the connection
            APPLIERS[write.kind](db, write.args)
        return None

    def send_kept(self) -> int:
        """Writes kept on this machine while the server was away, applied now in their order; how
        many. Raises :class:`StoreUnavailable` (the rest stay kept) if the server is still away."""
        if not self.shared:
            return 0
        pending = self._pending
        sent = 0
        for write in pending.waiting():
            try:
                self._apply(write)
            except StoreUnavailable:
                raise
            except Exception as exc:  # refused (its sweep deleted meanwhile, say): set aside, never blocking every later start
                pending.refuse(write.uid, f"{type(exc).__name__}: {exc}")
                _log.warning("ssdprof: the results database %s refused a %s write kept on this machine (%s); it is "
                             "set aside in %s", self.location, write.kind, " ".join(str(exc).split()), pending.path)
                continue
            pending.sent(write.uid)
            sent += 1
        if sent:
            _log.warning("ssdprof: %d write(s) kept on this machine were saved to %s", sent, self.location)
        return sent

    def kept(self) -> tuple[int, int]:
        """(writes, of which finished points) kept on this machine for this store, not yet sent."""
        return self._pending.count() if self.shared else (0, 0)

    def kept_where(self) -> str:
        return str(self._pending.path) if self.shared else ""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
