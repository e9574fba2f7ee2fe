"""One store for a lab: several people writing to a PostgreSQL server at once, a server that goes away
mid-sweep, who measured each run, and credentials kept out of results, messages and logs."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pg_fixtures import *  # noqa: F403  # pg_server, pg_url: a real PostgreSQL server
from pg_server import PgServer

from ssdprof.app.rpc import EngineService
from ssdprof.model.results import DirectionStats, EngineInfo, RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.backend import StoreUnavailable
from ssdprof.store.db import MIGRATIONS, RunFilter, Store
from ssdprof.store.documents import pack
from ssdprof.store.errors import StoreUrlError
from ssdprof.store.location import DatabaseUrl, location_of
from ssdprof.store.pending import PendingWrites, Write, pending_path

WRITER = """
import sys
from ssdprof.model.results import DirectionStats, EngineInfo, RunResult
from ssdprof.model.workload import Workload
from ssdprof.store.db import Store
from ssdprof.store.location import location_of

store = Store(location_of(sys.argv[1]))
for i in range(int(sys.argv[3])):
    store.add_run(RunResult(engine=EngineInfo(name="fio"), workload=Workload(target="/data"),
                            read=DirectionStats(io_count=10, iops=5.0 + i),
                            tags={"writer": sys.argv[2], "i": str(i)}, measured_by=f"user{sys.argv[2]}"))
store.close()
"""


def a_point(i: int, sweep_id: int | None = None) -> RunResult:
    return RunResult(engine=EngineInfo(name="fio"), workload=Workload(target="/data"), sweep_id=sweep_id,
                     read=DirectionStats(io_count=10, iops=100.0 + i), raw_output=f"RAW {i}", tags={"point": str(i)})


def write_at_once(location: str, runs_each: int) -> None:
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, location, str(w), str(runs_each)],
                                stderr=subprocess.PIPE, text=True) for w in (1, 2)]
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err


def assert_every_run_once(store: Store, runs_each: int) -> None:
    runs = store.summaries(RunFilter(limit=None))
    assert len(runs) == 2 * runs_each
    assert len({r.id for r in runs}) == 2 * runs_each
    for writer in ("1", "2"):
        mine = sorted(int(r.tags["i"]) for r in runs if r.tags["writer"] == writer)
        assert mine == list(range(runs_each)), f"writer {writer} lost or doubled runs"
        assert {r.measured_by for r in runs if r.tags["writer"] == writer} == {f"user{writer}"}


def test_two_people_writing_200_runs_each_at_once_to_postgresql_store_400(pg_url: DatabaseUrl) -> None:
    Store(pg_url).close()  # migrated once; the writers' starts find it done
    write_at_once(pg_url.url, 200)
    store = Store(pg_url)
    try:
        assert_every_run_once(store, 200)
    finally:
        store.close()


def test_two_processes_writing_at_once_to_a_sqlite_file_store_every_run(tmp_path: Path) -> None:
    write_at_once(str(tmp_path / "shared.sqlite3"), 200)
    store = Store(tmp_path / "shared.sqlite3")
    try:
        assert_every_run_once(store, 200)
    finally:
        store.close()


def test_processes_opening_a_new_database_at_once_migrate_it_once(pg_url: DatabaseUrl) -> None:
    write_at_once(pg_url.url, 1)  # both start on an empty database: one migrates, the other waits and sees it done
    store = Store(pg_url)
    try:
        names = store.applied_migrations()
        assert len(names) == len(set(names)) and names[-1] == MIGRATIONS[-1][0]
        assert_every_run_once(store, 1)
    finally:
        store.close()


def test_a_server_that_goes_away_mid_sweep_loses_no_point(pg_server: PgServer, pg_url: DatabaseUrl,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    store = Store(pg_url, retry_s=1.0)
    spool = PendingWrites(pending_path(pg_url))
    try:
        sweep = store.create_sweep(SweepSpec(name="lab sweep", points=[Workload(target="/data")], repeats=5))
        saved = [store.add_run(a_point(i, sweep)) for i in range(2)]
        pg_server.stop()
        with caplog.at_level(logging.WARNING, logger="ssdprof.store"):
            kept = store.add_run(a_point(2, sweep))
        assert kept.id is None and [w.code for w in kept.warnings] == ["kept_locally"]
        assert "is sent when the database answers again" in kept.warnings[0].message
        assert str(spool.path) in caplog.text and len(spool.waiting()) == 1
        pg_server.start()
        saved += [store.add_run(a_point(i, sweep)) for i in (3, 4)]  # the kept point goes first
        points = store.summaries(RunFilter(limit=None))
        assert sorted(int(r.tags["point"]) for r in points) == [0, 1, 2, 3, 4]
        assert spool.waiting() == []
        again = store.run(next(r.id for r in points if r.tags["point"] == "2") or 0)
        assert again is not None and again.warnings == [] and again.raw_output == "RAW 2"
        assert "were saved to" in caplog.text
    finally:
        store.close()


def test_a_point_kept_here_is_sent_by_the_next_start_if_no_point_follows(pg_server: PgServer, pg_url: DatabaseUrl) -> None:
    store = Store(pg_url, retry_s=0.5)
    pg_server.stop()
    try:
        assert store.add_run(a_point(7)).warnings[0].code == "kept_locally"
    finally:
        pg_server.start()
    store.close()
    reopened = Store(pg_url)
    try:
        assert [r.tags["point"] for r in reopened.summaries(RunFilter(limit=None))] == ["7"]
    finally:
        reopened.close()


def test_a_database_password_is_never_shown(pg_server: PgServer, pg_url: DatabaseUrl, tmp_path: Path) -> None:
    secret = "s3cret-lab-pass"
    url = DatabaseUrl(f"{pg_url.url.replace('@/', f':{secret}@/', 1)}")
    assert secret not in str(url) and secret not in repr(url) and ":***@" in str(url)
    with pytest.raises(StoreUnavailable) as refused:
        Store(DatabaseUrl(f"postgresql://lab:{secret}@127.0.0.1:1/ssdprof?connect_timeout=2"))
    assert secret not in str(refused.value) and "lab:***@127.0.0.1:1" in str(refused.value)
    service = EngineService(url, lambda *_: None, default_dir=tmp_path)  # trust auth: the password is not needed
    try:
        assert secret not in service.engine_info(None).db_path  # type: ignore[arg-type]
        stored = service.store.add_run(a_point(1))
        assert secret not in stored.model_dump_json()
    finally:
        service.close()


def test_a_location_is_a_file_or_a_postgresql_url_and_the_environment_names_the_default(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert location_of("postgresql:///ssdprof?host=/run/postgresql") == DatabaseUrl("postgresql:///ssdprof?host=/run/postgresql")
    assert location_of(str(tmp_path / "r.sqlite3")) == tmp_path / "r.sqlite3"
    monkeypatch.setenv("SSDPROF_DB", "postgresql://lab@db.lab/ssdprof")
    assert location_of(None, tmp_path / "default.sqlite3") == DatabaseUrl("postgresql://lab@db.lab/ssdprof")


def test_every_write_a_run_makes_is_kept_in_order_while_the_server_is_away_and_sent_once(
        pg_server: PgServer, pg_url: DatabaseUrl) -> None:
    store = Store(pg_url, retry_s=0.5)
    spool = PendingWrites(pending_path(pg_url))
    try:
        sweep = store.create_sweep(SweepSpec(name="lab sweep", points=[Workload(target="/data")], repeats=3))
        store.add_written("file:/data", "/data", 1000)
        pg_server.stop()
        try:
            store.add_written("file:/data", "/data", 500)  # waits 0.5 s, then kept
            started = time.monotonic()
            kept = store.add_run(a_point(1, sweep), point_index=0)
            store.add_written("file:/data", "/data", 250)
            store.set_sweep_status(sweep, "done")
            assert time.monotonic() - started < 0.5  # once something is kept, later writes do not wait again
            assert kept.id is None and [w.kind for w in spool.waiting()] == ["written", "run", "written", "sweep_status"]
            assert store.kept() == (4, 1)
        finally:
            pg_server.start()
        assert store.send_kept() == 4 and spool.waiting() == []
        again = Write("written", {"identity": "file:/data", "description": "/data", "n_bytes": 250},
                      uid=f"{'0' * 31}1")
        store._apply(again)
        store._apply(again)  # an answer lost with the connection: sent again, applied once
        entry = store.ledger("file:/data")
        assert entry is not None and entry.bytes_written == 1000 + 500 + 250 + 250
        stored = store.sweep(sweep)
        assert stored is not None and stored.status == "done" and stored.done == {(0, 0)}
    finally:
        store.close()


def test_points_kept_by_an_earlier_version_are_sent_as_writes(pg_url: DatabaseUrl) -> None:
    path = pending_path(pg_url)
    path.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE pending (uid TEXT PRIMARY KEY, point_index INTEGER, document BLOB NOT NULL, "
                "raw BLOB NOT NULL, kept_at TEXT NOT NULL)")
    point = a_point(3)
    old.execute("INSERT INTO pending VALUES ('u1', 0, ?, ?, '2026-01-01T00:00:00')",
                (pack(point.model_dump_json()), pack(point.raw_output)))
    old.commit()
    old.close()
    store = Store(pg_url)  # its start sends what was kept
    try:
        runs = store.summaries(RunFilter(limit=None))
        assert [r.tags["point"] for r in runs] == ["3"] and PendingWrites(path).waiting() == []
    finally:
        store.close()


@pytest.mark.parametrize(("url", "said"), [
    ("postgresql://", "names no server and no database"),
    ("postgresql:///ssdprof", "names no server"),
    ("postgresql://lab@db.lab", "names no database"),
    ("postgresql://lab@db.lab:70000/ssdprof", "the port '70000' is not a number from 1 to 65535"),
    ("postgresql://lab:s3cret@db.lab/ssdprof?colour=blue", 'invalid URI query parameter: "colour"'),
])
def test_what_is_wrong_with_a_url_is_said_before_connecting(url: str, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PGHOST", "PGHOSTADDR", "PGDATABASE", "PGSERVICE", "PGPORT"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(StoreUrlError) as wrong:
        Store(DatabaseUrl(url))
    assert said in str(wrong.value) and "s3cret" not in str(wrong.value) and "\n" not in str(wrong.value)


def test_a_socket_url_keeps_its_empty_server_when_shown() -> None:
    assert str(DatabaseUrl("postgresql:///ssdprof?host=/run/postgresql")) == "postgresql:///ssdprof?host=/run/postgresql"
    assert str(DatabaseUrl("postgresql://")) == "postgresql://"


def test_a_kept_write_the_server_refuses_is_set_aside_and_does_not_block_later_starts(pg_url: DatabaseUrl) -> None:
    spool = PendingWrites(pending_path(pg_url))
    orphan = a_point(5, sweep_id=999)  # its sweep is not in the store (deleted meanwhile)
    spool.keep(Write("run", {"point_index": 0}, document=pack(orphan.model_dump_json()), raw=pack(orphan.raw_output)))
    spool.keep(Write("written", {"identity": "file:/data", "description": "/data", "n_bytes": 4096}))
    store = Store(pg_url)
    try:
        entry = store.ledger("file:/data")
        assert entry is not None and entry.bytes_written == 4096  # the write after the refused one was sent
        assert spool.waiting() == [] and store.count_runs() == 0
        refused = sqlite3.connect(spool.path).execute("SELECT kind, reason FROM refused").fetchall()
        assert [kind for kind, _ in refused] == ["run"] and "sweep" in refused[0][1]
    finally:
        store.close()


def test_an_rpc_call_while_the_server_is_away_answers_a_store_error_in_one_line(pg_server: PgServer, pg_url: DatabaseUrl,
                                                                                   tmp_path: Path) -> None:
    from ssdprof.app.contract.errors import ERROR_CODES
    from ssdprof.app.rpc import handle_message

    service = EngineService(pg_url, lambda *_: None, default_dir=tmp_path)
    try:
        pg_server.stop()
        try:
            answer = handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": "sweeps.list", "params": {}})
        finally:
            pg_server.start()
        error = answer["error"]
        assert error["code"] == ERROR_CODES["store_error"] and "\n" not in error["message"]
        assert error["message"].startswith(f"results database {pg_url}")
        again = handle_message(service, {"jsonrpc": "2.0", "id": 2, "method": "sweeps.list", "params": {}})
        assert again["result"]["sweeps"] == []  # the next call reconnects
    finally:
        service.close()
