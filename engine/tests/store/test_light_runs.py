"""Each run's light document and bins kept beside its whole document: lists and pooled percentiles read
them, never the whole document, and a run whose row is missing or older than its document has them made
again when next read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIO_DATA
from pg_fixtures import *  # noqa: F403  # fresh_store on SQLite and on a real PostgreSQL server

from ssdprof.model.results import RunResult
from ssdprof.store.db import RunFilter, Store
from ssdprof.store.documents import pack
from ssdprof.store.interchange import import_fio_output

PREVIOUS = Path(__file__).resolve().parents[1] / "data" / "store" / "previous-release.sqlite3"


def _light_of(run: RunResult) -> RunResult:
    return run.model_copy(update={"progress": [], "raw_output": ""})


@pytest.fixture
def stored(fresh_store: Store) -> list[RunResult]:
    return [fresh_store.add_run(import_fio_output(FIO_DATA / name)[0])
            for name in ("fio-3.33_randrw_psync_lat.jsonplus.json", "fio-3.33_randread_qd1_io_uring_lat.jsonplus.json")]


def _spoil_documents(store: Store) -> None:
    """Every whole document made unreadable: what still reads did not parse one."""
    store._db.execute("UPDATE runs SET document = ?", (pack("not a document"),))


def test_a_saved_runs_light_form_and_bins_are_read_without_its_document(fresh_store: Store,
                                                                          stored: list[RunResult]) -> None:
    _spoil_documents(fresh_store)
    light = fresh_store.runs(RunFilter(limit=None), light=True)
    assert [r.id for r in light] == [r.id for r in stored]
    assert all(not r.progress and not r.read.lat_bins_ns and not r.write.lat_bins_ns for r in light)
    assert light[0].mixed == stored[0].mixed and light[0].read.lat_ns == stored[0].read.lat_ns
    assert fresh_store.latency_bins([r.id or 0 for r in stored]) == {
        r.id: (r.read.lat_bins_ns, r.write.lat_bins_ns) for r in stored}


def test_a_run_changed_after_saving_has_its_light_form_made_again_from_its_document(fresh_store: Store,
                                                                                   stored: list[RunResult]) -> None:
    first = stored[0].id or 0
    fresh_store.set_tags(first, {"nodes": "3"})
    (light,) = fresh_store.runs(RunFilter(run_ids=(first,), limit=None), light=True)
    assert light.tags["nodes"] == "3"
    row = fresh_store._db.execute("SELECT l.revision, r.revision FROM run_light l JOIN runs r ON r.id = l.run_id "
                                  "WHERE r.id = ?", (first,)).fetchone()
    assert row[0] == row[1] == 1, "kept again with the document's revision"


def test_runs_stored_before_the_light_rows_have_them_made_when_first_read_and_kept(tmp_path: Path) -> None:
    copy = tmp_path / "results.sqlite3"
    shutil.copy(PREVIOUS, copy)
    store = Store(copy)
    try:
        assert store._db.execute("SELECT COUNT(*) FROM run_light").fetchone()[0] == 0, "migrated: no row made yet"
        whole = store.runs(RunFilter(limit=None))
        light = store.runs(RunFilter(limit=None), light=True)
        # all I/Os of a run stored before they were kept are made from its bins before they are dropped
        assert [r.model_dump(exclude={"mixed"}) for r in light] == [_light_of(r).model_dump(exclude={"mixed"})
                                                                     for r in _stripped(whole)]
        bins = store.latency_bins([r.id or 0 for r in whole])
        assert bins == {r.id: (r.read.lat_bins_ns, r.write.lat_bins_ns) for r in whole}
        assert store._db.execute("SELECT COUNT(*) FROM run_light").fetchone()[0] == len(whole)
        _spoil_documents(store)
        store._light_kept.clear()
        assert [r.id for r in store.runs(RunFilter(limit=None), light=True)] == [r.id for r in whole]
    finally:
        store.close()


def test_a_deleted_run_takes_its_light_row_with_it(fresh_store: Store, stored: list[RunResult]) -> None:
    assert fresh_store.delete_run(stored[0].id or 0)
    assert [row[0] for row in fresh_store._db.execute("SELECT run_id FROM run_light")] == [stored[1].id]
    assert fresh_store.latency_bins([stored[0].id or 0]) == {}


def _stripped(runs: list[RunResult]) -> list[RunResult]:
    """Runs as a light list has them: no bins in any direction, the run's or its hosts'."""
    def bare(part: RunResult) -> RunResult:
        sides = {side: getattr(part, side).model_copy(update={"lat_bins_ns": {}, "clat_bins_ns": {}})
                 for side in ("read", "write")}
        hosts = [h.model_copy(update={side: getattr(h, side).model_copy(update={"lat_bins_ns": {}, "clat_bins_ns": {}})
                                      for side in ("read", "write")}) for h in part.hosts]
        return part.model_copy(update={**sides, "hosts": hosts})
    return [bare(r) for r in runs]
