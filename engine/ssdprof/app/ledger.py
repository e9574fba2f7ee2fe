"""The per-target ledger as the runners use it: a target's drive state before each run, and every byte
ssdprof writes to it (layout, preconditioning, measured writes) added as it is written.

The bytes go through the store's one write path (kept on this machine while a shared server is
away); the state before a point is read from the store, or, while its server is away, is the last
state read plus what was written since, so a sweep carries on measuring with the right count."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ssdprof.model.drive_state import DriveState
from ssdprof.store.db import Store
from ssdprof.store.drive_state import LedgerEntry
from ssdprof.store.errors import StoreUnavailable
from ssdprof.target.devices import BlockDevice
from ssdprof.target.plan import TargetKind, TargetPlan
from ssdprof.target.purge import target_identity

__all__ = ["TargetLedger"]


class TargetLedger:
    def __init__(self, store: Store, identity: str, description: str, region_bytes: int):
        self.store = store
        self.identity = identity
        self.description = description
        self.region_bytes = region_bytes
        self._last: LedgerEntry | None = None
        self._unread_bytes = 0
        """Written since ``_last`` was read."""

    @classmethod
    def of(cls, store: Store, plan: TargetPlan, region_bytes: int) -> TargetLedger:
        folder = plan.kind is TargetKind.DIRECTORY
        where: Path = plan.path.parent if folder else plan.path
        identity = target_identity(where, plan.device, folder=folder)
        return cls(store, identity, _describe(where, plan.device, folder), region_bytes)

    def state(self) -> DriveState:
        try:
            self.store.send_kept()  # bytes kept while the server was away count before it is read
            entry = self.store.ledger(self.identity) or self.store.ledger_entry(self.identity, self.description)
        except StoreUnavailable:
            if self._last is None:
                raise
            return _plus(self._last, self._unread_bytes).state(self.region_bytes)
        self._last, self._unread_bytes = entry, 0
        return entry.state(self.region_bytes)

    def wrote(self, n_bytes: int) -> None:
        self.store.add_written(self.identity, self.description, n_bytes)
        self._unread_bytes += max(n_bytes, 0)


def _plus(entry: LedgerEntry, n_bytes: int) -> LedgerEntry:
    return replace(entry, bytes_written=entry.bytes_written + n_bytes)


def _describe(where: Path, device: BlockDevice | None, folder: bool) -> str:
    if device is not None:
        return device.describe()
    return f"{'test files in ' if folder else ''}{where}"
