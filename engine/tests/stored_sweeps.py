"""Stored sweeps for tests, as the store keeps them: one that ended with a status and runs kept, or one
whose engine was killed in the middle (its process gone, nothing renews its lease)."""

from __future__ import annotations

from claimants import ended_process

from ssdprof.model.results import DirectionStats, EngineInfo, RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import Store


def a_sweep(store: Store, status: str, *, runs: int = 1) -> int:
    """A sweep that ended with ``status``; "running": one whose engine was killed mid-sweep."""
    if status == "running":
        killed = Store(store.location, claimant=ended_process())
        try:
            sweep_id = killed.create_sweep(SweepSpec(name="killed sweep", points=[Workload(target="/data")]))
        finally:
            killed.release_all()  # its process is gone: nothing renews the lease
            killed.close()
        return sweep_id
    sweep_id = store.create_sweep(SweepSpec(name=f"{status} sweep", points=[Workload(target="/data")]))
    for _ in range(runs):
        store.add_run(RunResult(engine=EngineInfo(name="fio"), workload=Workload(target="/data"), sweep_id=sweep_id,
                                read=DirectionStats(io_count=10, iops=5.0), started_at="2026-11-01T00:00:00"),
                      point_index=0)
    store.set_sweep_status(sweep_id, status)
    return sweep_id
