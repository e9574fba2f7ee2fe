import json
import sqlite3
from pathlib import Path

from conftest import FIO_DATA
from pg_fixtures import *  # noqa: F403  # fresh_store: every test here on SQLite and on PostgreSQL

from ssdprof.model.results import DirectionStats, EngineInfo, RunResult, SpanStats
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import MIGRATIONS, RunFilter, Store
from ssdprof.store.interchange import import_fio_output


def a_run(**changes: object) -> RunResult:
    base = RunResult(engine=EngineInfo(name="fio"), workload=Workload(target="/data"), read=DirectionStats(io_count=10, iops=5.0),
                     started_at="2026-11-01T00:00:00", raw_output="RAW fio output")
    return base.model_copy(update=changes)


def test_a_new_database_applies_every_named_migration_in_order(fresh_store: Store) -> None:
    assert fresh_store.applied_migrations() == [name for name, _ in MIGRATIONS]


def test_reopening_a_database_does_not_reapply_migrations(tmp_path: Path) -> None:
    Store(tmp_path / "r.db").close()
    store = Store(tmp_path / "r.db")
    assert store.applied_migrations() == [name for name, _ in MIGRATIONS]
    store.close()


def test_the_database_runs_in_wal_mode(tmp_path: Path) -> None:
    Store(tmp_path / "r.db").close()
    assert sqlite3.connect(tmp_path / "r.db").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_stored_run_comes_back_equal_with_its_raw_output(fresh_store: Store) -> None:
    stored = fresh_store.add_run(a_run())
    loaded = fresh_store.run(stored.id or 0)
    assert loaded is not None
    assert loaded.read == stored.read and loaded.workload == stored.workload
    assert loaded.raw_output == "RAW fio output"


def test_runs_are_found_by_tag_by_text_and_by_date(fresh_store: Store) -> None:
    fresh_store.add_run(a_run(tags={"interface": "SATA"}))
    fresh_store.add_run(a_run(tags={"interface": "NVMe"}, started_at="2026-11-20T00:00:00"))
    assert len(fresh_store.runs(RunFilter(tag="interface=SATA"))) == 1
    assert len(fresh_store.runs(RunFilter(tag="NVMe"))) == 1
    assert len(fresh_store.runs(RunFilter(text="/data"))) == 2
    assert len(fresh_store.runs(RunFilter(since="2026-11-10"))) == 1


def test_a_limited_list_keeps_the_newest_runs_and_counts_what_it_left_out(fresh_store: Store) -> None:
    ids = [fresh_store.add_run(a_run()).id for _ in range(5)]
    newest = fresh_store.runs(RunFilter(limit=2))
    assert [r.id for r in newest] == ids[3:]
    assert fresh_store.count_runs(RunFilter(limit=2)) == 5
    assert [r.id for r in fresh_store.runs(RunFilter(limit=None))] == ids


def test_tags_can_be_added_later_and_runs_deleted(fresh_store: Store) -> None:
    run_id = fresh_store.add_run(a_run()).id or 0
    assert fresh_store.set_tags(run_id, {"nodes": "3"}).tags == {"nodes": "3"}
    assert len(fresh_store.runs(RunFilter(tag="nodes=3"))) == 1
    assert fresh_store.delete_run(run_id)
    assert fresh_store.run(run_id) is None


def test_a_sweep_remembers_which_points_finished(fresh_store: Store) -> None:
    spec = SweepSpec(name="s", points=[Workload(), Workload(queue_depth=2)], repeats=2)
    sweep_id = fresh_store.create_sweep(spec)
    fresh_store.add_run(a_run(sweep_id=sweep_id, repeat=1), point_index=0)
    stored = fresh_store.sweep(sweep_id)
    assert stored is not None and stored.done == {(0, 1)} and stored.spec == spec
    assert stored.standing == "running" and fresh_store.last_unfinished_sweep() is None  # held by this store
    fresh_store.set_sweep_status(sweep_id, "stopped")
    assert fresh_store.last_unfinished_sweep() == fresh_store.sweep(sweep_id)


def _as_stored_before_total_latency(run: RunResult) -> str:
    """The JSON a run had in the store before migration 0003: completion latency only, bins under ``bins_ns``."""
    data = run.model_dump(mode="json")
    for part in (data, *data["hosts"]):
        for side in ("read", "write"):
            stats = part[side]
            stats["bins_ns"] = stats.pop("clat_bins_ns")
            for gone in ("lat_ns", "slat_ns", "lat_bins_ns", "latency_kind"):
                stats.pop(gone)
    for sample in data["progress"]:
        for side in ("read", "write"):
            for stat in ("mean", "p99"):
                sample[f"{side}_clat_ns_{stat}"] = sample.pop(f"{side}_lat_ns_{stat}")
    return json.dumps(data)


def _old_database(path: Path, rows: list[tuple[str, RunResult]]) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, sql in MIGRATIONS[:2]:
        assert isinstance(sql, str)
        db.executescript(sql)
        db.execute("INSERT INTO schema_migrations VALUES (?, '2026-11-01')", (name,))
    for engine, run in rows:
        db.execute("INSERT INTO runs (workload_key, host_key, started_at, finished_at, status, engine, target, device_model,"
                   " source, result_json, raw_output) VALUES ('k', 'local', '', '', 'ok', ?, '', '', 'measured', ?, ?)",
                   (engine, _as_stored_before_total_latency(run), run.raw_output))
    db.commit()
    db.close()


def test_runs_stored_before_total_latency_get_it_from_their_raw_output_or_their_engine(tmp_path: Path) -> None:
    fio = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")[0]
    old_fio = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")[0]
    portable_read = fio.read.model_copy(update={"lat_ns": fio.read.clat_ns, "lat_bins_ns": fio.read.clat_bins_ns, "slat_ns": SpanStats()})
    portable = fio.model_copy(update={"engine": EngineInfo(name="portable"), "read": portable_read, "hosts": [], "raw_output": "{}"})
    _old_database(tmp_path / "old.db", [("fio", fio), ("fio", old_fio), ("portable", portable)])

    store = Store(tmp_path / "old.db")
    assert "0003_total_latency" in store.applied_migrations()
    assert store.applied_migrations()[-1] == MIGRATIONS[-1][0]
    migrated_fio, migrated_old, migrated_portable = (store.run(i) for i in (1, 2, 3))
    assert migrated_fio is not None and migrated_old is not None and migrated_portable is not None
    assert migrated_fio.read.lat_ns == fio.read.lat_ns and migrated_fio.read.lat_bins_ns == fio.read.lat_bins_ns
    assert migrated_fio.read.slat_ns == fio.read.slat_ns and migrated_fio.read.clat_bins_ns == fio.read.clat_bins_ns
    assert migrated_fio.hosts[0].read.lat_ns == fio.hosts[0].read.lat_ns
    assert migrated_old.read.latency_kind == "total_mean_only" and migrated_old.read.lat_ns.p99 is None
    assert migrated_portable.read.lat_ns == portable.read.clat_ns and migrated_portable.read.latency_kind == "total"
    store.close()


def test_the_ledger_counts_bytes_since_the_last_purge(fresh_store: Store) -> None:
    from ssdprof.model.drive_state import PurgeRecord

    fresh_store.add_written("device:X:1", "/dev/x", 1000)
    fresh_store.add_written("device:X:1", "/dev/x", 500)
    entry = fresh_store.ledger("device:X:1")
    assert entry is not None and entry.bytes_written == 1500 and entry.purged_at is None
    assert entry.state(4096).ledger_since == "first-use" and entry.state(4096).condition == "as-found"
    fresh_store.record_purge("device:X:1", "/dev/x", PurgeRecord(method="blkdiscard", at="2026-11-24T00:00:00", detail="all"))
    purged = fresh_store.ledger("device:X:1")
    assert purged is not None and purged.bytes_written == 0 and purged.purge is not None
    assert purged.state(4096).condition == "fresh"
    fresh_store.add_written("device:X:1", "/dev/x", 8192)
    assert fresh_store.ledger_entry("device:X:1", "/dev/x").state(4096).condition == "as-found"


def test_runs_carry_their_drive_state_and_target_identity(fresh_store: Store) -> None:
    from ssdprof.model.drive_state import DriveState

    state = DriveState(target_identity="file:/var/tmp/a.dat", bytes_written_since_purge=42)
    stored = fresh_store.add_run(RunResult(engine=EngineInfo(name="fio"), workload=Workload(), drive_state=state))
    assert stored.id is not None
    again = fresh_store.run(stored.id)
    assert again is not None and again.drive_state == state
