"""The summary tables against the whole documents, for every kind of run stored today, on a new store and
on one the previous release wrote (migrated when opened)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import EMPTY_DIRECTION, direction, summarise
from ssdprof.store.db import MIGRATIONS, RunFilter, Store

PREVIOUS = Path(__file__).resolve().parents[1] / "data" / "store" / "previous-release.sqlite3"
KINDS = {"portable", "local", "imported", "curve", "pts"}


def previous_runs() -> list[RunResult]:
    """The runs of the previous release's store, read as that release stored them."""
    db = sqlite3.connect(f"file:{PREVIOUS}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT id, result_json, raw_output FROM runs ORDER BY id").fetchall()
    finally:
        db.close()
    return [RunResult.model_validate_json(text).model_copy(update={"id": run_id, "raw_output": raw})
            for run_id, text, raw in rows]


@pytest.fixture
def migrated(tmp_path: Path) -> Iterator[Store]:
    copy = tmp_path / "results.sqlite3"
    shutil.copy(PREVIOUS, copy)
    store = Store(copy)
    yield store
    store.close()


def test_the_previous_release_store_holds_every_kind_of_run() -> None:
    runs = previous_runs()
    assert {r.tags.get("kind") for r in runs} == KINDS
    assert any(len(r.hosts) == 2 for r in runs), "a multi-host run"
    assert any(r.engine.name == "portable" for r in runs)
    assert any(r.workload.rate_iops for r in runs), "a curve's point under offered load"
    assert any(r.drive_state is not None and r.drive_state.pts_round for r in runs), "a PTS round"
    assert any(r.read.lat_bins_ns for r in runs), "a run with total-latency bins"


def test_opening_the_previous_release_store_migrates_it_in_order(migrated: Store) -> None:
    assert migrated.applied_migrations() == sorted(name for name, _ in MIGRATIONS)
    assert {"0007_run_summaries", "0008_compact_documents"} <= set(migrated.applied_migrations())


def test_every_migrated_run_reads_back_whole_as_the_previous_release_stored_it(migrated: Store) -> None:
    for before in previous_runs():
        after = migrated.run(before.id or 0)
        assert after is not None
        assert after.model_dump() == before.model_dump()
        assert after.raw_output == before.raw_output
        assert migrated.raw_output(before.id or 0) == before.raw_output


def test_every_migrated_runs_summary_is_its_documents_figures(migrated: Store) -> None:
    runs = {r.id: r for r in previous_runs()}
    summaries = migrated.summaries(RunFilter(limit=None))
    assert [s.id for s in summaries] == sorted(runs)
    for found in summaries:
        assert found == summarise(runs[found.id])
        assert found.measured_by == "" and found.measured_on == ""  # not known for runs stored before


def test_a_migrated_store_compacts_its_documents(migrated: Store) -> None:
    db = sqlite3.connect(migrated.path)
    try:
        left = db.execute("SELECT COUNT(*) FROM runs WHERE result_json != '' OR raw_output != '' OR document IS NULL").fetchone()
    finally:
        db.close()
    assert left == (0,)
    assert migrated.size_bytes() < PREVIOUS.stat().st_size


def test_a_new_store_writes_each_kinds_summary_as_it_saves_the_run(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.sqlite3")
    try:
        saved = [store.add_run(run.model_copy(update={"id": None, "sweep_id": None})) for run in previous_runs()]
        found = {s.id: s for s in store.summaries(RunFilter(limit=None))}
        for run in saved:
            whole = store.run(run.id or 0)
            assert whole is not None and found[run.id] == summarise(whole)
            assert found[run.id].measured_by == whole.measured_by and whole.measured_on
        hosts = store.host_figures([r.id or 0 for r in saved])
        for run in saved:
            expected = {h.host: (direction(h.read), direction(h.write)) for h in run.hosts}
            assert hosts.get(run.id or 0, {}) == expected
    finally:
        store.close()


def test_summaries_follow_tags_and_drive_state_changed_after_saving(migrated: Store) -> None:
    migrated.set_tags(2, {"nodes": "3", "interface": "SATA"})
    migrated.set_run_steady_state([26], "reached")
    by_id = {s.id: s for s in migrated.summaries(RunFilter(limit=None))}
    assert by_id[2].tags["nodes"] == "3" and by_id[2] == summarise(migrated.run(2))  # type: ignore[arg-type]
    assert by_id[26].drive_state is not None and by_id[26].drive_state.steady_state == "reached"


def test_light_runs_read_again_are_the_same_and_follow_a_tag_changed_between(migrated: Store) -> None:
    first = migrated.runs(RunFilter(limit=None), light=True)
    assert [r.id for r in first] == [r.id for r in migrated.runs(RunFilter(limit=None))]
    assert all(not r.progress and not r.read.lat_bins_ns for r in first)
    assert migrated.runs(RunFilter(limit=None), light=True)[0] is first[0]  # kept: its document parsed once
    migrated.set_tags(first[0].id or 0, {"nodes": "5"})
    again = migrated.runs(RunFilter(run_ids=(first[0].id or 0,), limit=None), light=True)
    assert again[0].tags["nodes"] == "5" and again[0] is not first[0]


def test_a_direction_without_io_is_the_shared_empty_one(migrated: Store) -> None:
    reads_only = [s for s in migrated.summaries(RunFilter(limit=None)) if s.workload.pattern.value == "randread"]
    assert reads_only and all(s.write is EMPTY_DIRECTION for s in reads_only)


def test_a_run_without_summary_rows_is_summarised_from_its_document_when_read(migrated: Store) -> None:
    db = sqlite3.connect(migrated.path)
    db.execute("DELETE FROM run_summaries WHERE run_id = 5")
    db.commit()
    db.close()
    found = {s.id: s for s in migrated.summaries(RunFilter(limit=None))}
    assert found[5] == summarise(migrated.run(5))  # type: ignore[arg-type]


def test_pages_selection_and_people_read_the_summaries(migrated: Store) -> None:
    page, total = migrated.page(RunFilter(text="kind=imported"), 0, 4)
    assert total == 11 and [r.id for r in page] == [22, 21, 20, 19]
    assert migrated.run_ids(RunFilter(tags=("kind=curve",))) == [23, 24, 25]
    assert "kind" in migrated.tag_keys(RunFilter())
    migrated.add_run(previous_runs()[0].model_copy(update={"id": None, "measured_by": "ana", "measured_on": "lab-7"}))
    assert migrated.people() == (["ana"], ["lab-7"])
    assert migrated.run_ids(RunFilter(measured_by="ana", measured_on="lab-7")) == [28]



def _mixed_and_reads(store: Store) -> tuple[RunResult, RunResult]:
    from conftest import FIO_DATA

    from ssdprof.store.interchange import import_fio_output

    return (store.add_run(import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]),
            store.add_run(import_fio_output(FIO_DATA / "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")[0]))


def test_a_mixed_runs_summary_keeps_all_its_ios_and_a_one_direction_run_is_its_own(fresh_store: Store) -> None:
    both, reads = _mixed_and_reads(fresh_store)
    found = {s.id: s for s in fresh_store.summaries(RunFilter(limit=None))}
    assert found[both.id].mixed == direction(both.mixed) and found[both.id].mixed.lat_ns.p99 == both.mixed.lat_ns.p99
    assert found[reads.id].mixed is found[reads.id].read
    rows = fresh_store._db.execute("SELECT run_id FROM run_figures WHERE direction = 'mixed'").fetchall()
    assert [tuple(r) for r in rows] == [(both.id,)], "a row of all I/Os only where a run read and wrote"


def test_a_mixed_run_stored_before_all_its_ios_were_kept_is_summarised_again_when_read(fresh_store: Store) -> None:
    both, _ = _mixed_and_reads(fresh_store)
    fresh_store._db.execute("DELETE FROM run_figures WHERE direction = 'mixed'")
    fresh_store._kept.clear()
    found = {s.id: s for s in fresh_store.summaries(RunFilter(limit=None))}
    assert found[both.id].mixed.lat_ns.p99 == both.mixed.lat_ns.p99 is not None
    assert fresh_store._db.execute("SELECT COUNT(*) FROM run_figures WHERE direction = 'mixed'").fetchone()[0] == 1


def test_a_runs_latency_bins_are_read_from_its_document(fresh_store: Store) -> None:
    both, reads = _mixed_and_reads(fresh_store)
    found = fresh_store.latency_bins([both.id or 0, reads.id or 0])
    assert found[both.id or 0] == (both.read.lat_bins_ns, both.write.lat_bins_ns)
    assert found[reads.id or 0] == (reads.read.lat_bins_ns, {})
