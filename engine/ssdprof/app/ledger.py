"""The per-target ledger as the runners use it: a target's drive state before each run, and every byte
ssdprof writes to it (layout, preconditioning, measured writes) added as it is written."""

from __future__ import annotations

from pathlib import Path

from ssdprof.model.drive_state import DriveState
from ssdprof.store.db import Store
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

    @classmethod
    def of(cls, store: Store, plan: TargetPlan, region_bytes: int) -> TargetLedger:
        folder = plan.kind is TargetKind.DIRECTORY
        where: Path = plan.path.parent if folder else plan.path
        identity = target_identity(where, plan.device, folder=folder)
        return cls(store, identity, _describe(where, plan.device, folder), region_bytes)

    def state(self) -> DriveState:
        return self.store.ledger_entry(self.identity, self.description).state(self.region_bytes)

    def wrote(self, n_bytes: int) -> None:
        self.store.add_written(self.identity, self.description, n_bytes)


def _describe(where: Path, device: BlockDevice | None, folder: bool) -> str:
    if device is not None:
        return device.describe()
    return f"{'test files in ' if folder else ''}{where}"
