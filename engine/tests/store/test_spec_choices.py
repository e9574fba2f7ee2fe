"""The spec sheet remembered per device, kept in the results store across sessions."""

from __future__ import annotations

from pathlib import Path

from pg_fixtures import *  # noqa: F403  # fresh_store: every test here on SQLite and on PostgreSQL

from ssdprof.store.db import Store


def test_a_chosen_sheet_is_remembered_after_the_store_is_reopened(tmp_path: Path) -> None:
    store = Store(tmp_path / "results.sqlite3")
    store.set_spec_choice("host=vm|disk=vda", "disk vda on vm", "crucial-p3-1tb")
    store.close()
    reopened = Store(tmp_path / "results.sqlite3")
    assert reopened.spec_choice("host=vm|disk=vda") == "crucial-p3-1tb"
    assert reopened.spec_choice("host=vm|disk=vdb") is None
    reopened.close()


def test_choosing_again_replaces_the_choice_and_none_forgets_it(fresh_store: Store) -> None:
    fresh_store.set_spec_choice("k", "disk vda on vm", "crucial-p3-1tb")
    fresh_store.set_spec_choice("k", "disk vda on vm", "samsung-970-evo-plus-1tb")
    assert fresh_store.spec_choice("k") == "samsung-970-evo-plus-1tb"
    fresh_store.set_spec_choice("k", "disk vda on vm", None)
    assert fresh_store.spec_choice("k") is None
