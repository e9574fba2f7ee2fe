"""Migrations 0007 and 0008: summary rows for the runs stored before them, and their documents compressed.

Both read every stored run once, in batches (a study's store holds thousands of runs of several
hundred kB each), inside the migration's transaction: a store is migrated whole or not at all.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence

from ssdprof.store.backend import Connection, pg_ddl
from ssdprof.store.documents import pack
from ssdprof.store.summaries import SUMMARY_TABLES, write_summary

__all__ = ["compact_documents", "run_summaries"]

_log = logging.getLogger("ssdprof.store")
_BATCH = 200


def _ddl(db: Connection, script: str) -> None:
    for statement in (s for s in script.split(";") if s.strip()):
        db.execute(pg_ddl(statement) if db.dialect == "postgresql" else statement)


def _batches(db: Connection) -> Iterator[Sequence[int]]:
    ids = [int(row[0]) for row in db.execute("SELECT id FROM runs ORDER BY id").fetchall()]
    for start in range(0, len(ids), _BATCH):
        yield ids[start:start + _BATCH]


def run_summaries(db: Connection) -> None:
    """0007: the summary tables, who stored each run and its unique key; summary rows for every stored run."""
    _ddl(db, SUMMARY_TABLES)
    for batch in _batches(db):
        from pydantic import ValidationError  # a new store has no runs: its models are not built for it

        from ssdprof.model.results import RunResult

        marks = ", ".join("?" * len(batch))
        for row in db.execute(f"SELECT id, result_json FROM runs WHERE id IN ({marks})", batch).fetchall():
            try:
                run = RunResult.model_validate_json(row[1]).model_copy(update={"id": int(row[0])})
            except ValidationError as exc:  # summarised from its document when next read, or said then
                _log.warning("ssdprof: run %s has no summary: its stored document does not read (%s)", row[0],
                             str(exc).splitlines()[0])
                continue
            write_summary(db, int(row[0]), run)


def compact_documents(db: Connection) -> None:
    """0008: each run's document and raw output compressed into ``document`` and ``raw``."""
    _ddl(db, "ALTER TABLE runs ADD COLUMN document BLOB; ALTER TABLE runs ADD COLUMN raw BLOB")
    for batch in _batches(db):
        marks = ", ".join("?" * len(batch))
        rows = db.execute(f"SELECT id, result_json, raw_output FROM runs WHERE id IN ({marks})", batch).fetchall()
        db.executemany("UPDATE runs SET document = ?, raw = ?, result_json = '', raw_output = '' WHERE id = ?",
                       [(pack(row[1]), pack(row[2] or ""), row[0]) for row in rows])
