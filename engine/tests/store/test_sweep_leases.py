"""Who runs a stored sweep: a sweep held by a live process reads running and is never resumed under
it; one whose process ended reads interrupted; without an id a resume takes only the caller's own,
another person's only by its id; two processes claiming one sweep at once, one wins. On a SQLite
file two stores opened on it, and on a real PostgreSQL server two connections, stand for two
processes; other people are other claimants (``claimants.py``: another login on another machine,
whose lease's expiry decides)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from claimants import another_person, ended_process
from pg_fixtures import *  # noqa: F403  # pg_server, pg_url: a real PostgreSQL server

from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.store.db import Store
from ssdprof.store.errors import SweepHeld
from ssdprof.store.leases import Claimant

Opener = Callable[..., Store]


@pytest.fixture(params=["sqlite-file", "postgresql"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens another store on one shared location, as another process would."""
    location = tmp_path / "lab.sqlite3" if request.param == "sqlite-file" else request.getfixturevalue("pg_url")
    opened: list[Store] = []

    def opener(**options: object) -> Store:
        store = Store(location, **options)  # type: ignore[arg-type]
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()


def a_spec(name: str = "lab sweep") -> SweepSpec:
    return SweepSpec(name=name, points=[Workload(target="/data")], repeats=3)


def test_a_sweep_held_by_a_live_process_reads_running_and_is_not_resumed_under_it(open_store: Opener) -> None:
    bob = open_store(claimant=another_person("bob"), lease_s=60)
    sweep_id = bob.create_sweep(a_spec())
    me = open_store()
    listed = me.list_sweeps()[0]
    assert (listed.standing, listed.owner, listed.owner_host) == ("running", "bob", "lab-pc-2")
    with pytest.raises(SweepHeld, match=rf"sweep {sweep_id} is running: held by bob on lab-pc-2 \(pid 4242\), since "):
        me.claim_sweep(sweep_id)
    with pytest.raises(KeyError, match="no interrupted sweep of yours"):
        me.resumable()


def test_a_sweep_whose_process_ended_on_this_machine_reads_interrupted_at_once(open_store: Opener) -> None:
    killed = open_store(claimant=ended_process(), lease_s=3600)  # its lease would last an hour
    sweep_id = killed.create_sweep(a_spec())
    killed.release_all()
    me = open_store()
    assert me.list_sweeps()[0].standing == "interrupted"
    assert me.resumable().id == sweep_id
    assert me.claim_sweep(sweep_id).standing == "running"


def test_another_persons_lapsed_sweep_is_resumed_only_when_named(open_store: Opener) -> None:
    bob = open_store(claimant=another_person("bob"), lease_s=0.4)
    sweep_id = bob.create_sweep(a_spec())
    bob.release_all()  # bob's machine went silent: nothing renews the lease
    time.sleep(0.6)
    me = open_store()
    assert me.list_sweeps()[0].standing == "interrupted"
    with pytest.raises(KeyError, match=rf"sweep {sweep_id} \(held by bob on lab-pc-2 .*\) is interrupted: resume it by its id"):
        me.resumable()
    claimed = me.claim_sweep(sweep_id)  # named: taken over
    assert claimed.holder is not None and claimed.holder.user == me.claimant.user and claimed.standing == "running"


def test_a_running_sweeps_lease_is_renewed_while_it_runs(open_store: Opener) -> None:
    alice = open_store(claimant=another_person("alice", "lab-pc-1"), lease_s=0.4)
    sweep_id = alice.create_sweep(a_spec())
    watcher = open_store()
    time.sleep(1.2)  # three lease lengths: alive only because it was renewed
    row = watcher.list_sweeps()[0]
    assert row.standing == "running" and row.renewed_at >= row.since
    alice.release_all()
    time.sleep(0.6)
    assert watcher.sweep(sweep_id).standing == "interrupted"  # type: ignore[union-attr]


def test_two_processes_resuming_one_sweep_at_once_one_wins(open_store: Opener) -> None:
    gone = open_store(claimant=ended_process())
    sweep_id = gone.create_sweep(a_spec())
    gone.release_all()
    claimants = [open_store(), open_store()]
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def claim(store: Store) -> None:
        start.wait()
        try:
            store.claim_sweep(sweep_id)
            outcomes.append("claimed")
        except SweepHeld as refused:
            outcomes.append(str(refused))

    threads = [threading.Thread(target=claim, args=(store,)) for store in claimants]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("claimed") == 1
    assert any(o.startswith((f"sweep {sweep_id} was resumed a moment ago", f"sweep {sweep_id} is running"))
               for o in outcomes if o != "claimed")


def test_a_process_cut_off_from_the_store_learns_its_sweep_was_taken_over_and_its_end_is_not_laid_over(
        open_store: Opener) -> None:
    alice = open_store(claimant=another_person("alice", "lab-pc-1"), lease_s=0.4)
    sweep_id = alice.create_sweep(a_spec())
    expire = open_store()
    # a fake of alice's renewals not reaching the store (her link down): her lease's expiry set past
    expire._db.execute("UPDATE sweeps SET lease_until = 0 WHERE id = ?", (sweep_id,))
    bob = open_store(claimant=another_person("bob"), lease_s=60)
    bob.claim_sweep(sweep_id)
    deadline = time.monotonic() + 5
    while alice.lease_lost(sweep_id) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alice.lease_lost(sweep_id) == f"sweep {sweep_id} was resumed by bob on lab-pc-2 (pid 4242) after its lease lapsed"
    alice.set_sweep_status(sweep_id, "done")  # her end arrives after bob took it
    stored = expire.sweep(sweep_id)
    assert stored is not None and stored.status == "running" and stored.holder and stored.holder.user == "bob"


def test_sweeps_stored_before_owners_were_kept_count_as_anyones_and_read_interrupted(tmp_path: Path) -> None:
    store = Store(tmp_path / "old.sqlite3")
    try:
        store._db.execute("INSERT INTO sweeps (created_at, name, spec_json) VALUES ('2026-01-01', 'old', ?)",
                          (a_spec("old").model_dump_json(),))
        old = store.list_sweeps()[0]
        assert (old.standing, old.owner) == ("interrupted", "")
        assert store.resumable().name == "old"
    finally:
        store.close()


def test_a_claimant_is_this_login_machine_and_process() -> None:
    here = Claimant.here()
    assert here.pid > 0 and here.started_s > 0 and here.host and here.process_space
