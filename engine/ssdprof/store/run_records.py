"""The store's part for runs: saved whole (compressed) with their summary rows in one transaction, read
back whole, light (no progress, no bins) or as summaries, paged, searched, tagged and deleted."""

from __future__ import annotations

import getpass
import socket
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ssdprof.model.run_summary import DirectionSummary, RunSummary, node_count, summarise
from ssdprof.store.backend import StorePart
from ssdprof.store.documents import Bins, document_of, pack, raw_of
from ssdprof.store.light_runs import light_texts, stored_bins, write_light
from ssdprof.store.query import RunFilter, where_sql
from ssdprof.store.summaries import (
    SUMMARY_COLUMNS,
    SUMMARY_JOINS,
    SummaryReader,
    host_figures,
    set_summary_tags,
    write_summary,
)

if TYPE_CHECKING:
    from ssdprof.model.results import RunResult

__all__ = ["RunRecords", "who_and_where"]

_CHUNK = 5000
_KEPT = 200_000
"""Summaries kept in memory at most (a few hundred bytes each, their parts shared)."""
_LIGHT_KEPT = 1_000
"""Light runs kept (tens of kB each with their hosts): a few sweeps' worth."""
_SCAN_IDS = 1_000
"""From this many run ids on, their revisions may be read by scanning (``RunRecords._most_of``)."""


def who_and_where() -> tuple[str, str]:
    """This process's user (login name) and machine (host name): who measured a run stored now."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no login name in a bare container
        user = ""
    return user, socket.gethostname()


class RunRecords(StorePart):
    """Mixed into :class:`ssdprof.store.db.Store`, which gives the connection and transactions."""

    _reader: SummaryReader
    _kept: dict[int, tuple[int, RunSummary]]
    """Run id -> (its revision when read, its summary)."""
    _light_kept: dict[int, tuple[int, RunResult]]
    """Run id -> (its revision when read, the run without its progress and bins): shared by every
    caller, which must not change it."""

    # saving -------------------------------------------------------------------------------

    def _insert_run(self, result: RunResult, uid: str, point_index: int | None) -> RunResult:
        """One run, its tags and its summary rows, in one transaction; a uid already stored is that run."""
        host_key = ",".join(sorted(h.host for h in result.hosts)) or "local"
        with self._transaction() as db:
            row = db.execute(
                "INSERT INTO runs (sweep_id, point_index, repeat, workload_key, host_key, started_at, finished_at, status,"
                " engine, target, device_model, source, result_json, raw_output, target_identity, measured_by,"
                " measured_on, uid) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,'','',?,?,?,?) ON CONFLICT (uid) DO NOTHING RETURNING id",
                (result.sweep_id, point_index, result.repeat, result.workload.key(), host_key, result.started_at,
                 result.finished_at, result.status, result.engine.name, result.workload.target,
                 result.environment.device_model, result.source,
                 result.drive_state.target_identity if result.drive_state else "", result.measured_by,
                 result.measured_on, uid)).fetchone()
            if row is None:  # saved before, by a try whose answer was lost with the connection
                found = db.execute("SELECT id FROM runs WHERE uid = ?", (uid,)).fetchone()
                return result.model_copy(update={"id": int(found[0])})
            run_id = int(row[0])
            stored = result.model_copy(update={"id": run_id})
            document = stored.model_dump_json()
            db.execute("UPDATE runs SET document = ?, raw = ? WHERE id = ?", (pack(document), pack(result.raw_output), run_id))
            write_light(db, run_id, 0, document)
            db.executemany("INSERT INTO run_tags VALUES (?, ?, ?)", [(run_id, k, v) for k, v in result.tags.items()])
            write_summary(db, run_id, stored)
        return stored

    @staticmethod
    def _stamped(result: RunResult) -> RunResult:
        if result.measured_by or result.measured_on:
            return result
        user, machine = who_and_where()
        return result.model_copy(update={"measured_by": user, "measured_on": machine})

    def stored_uids(self, uids: Sequence[str]) -> dict[str, int]:
        """Which of these run keys are stored already, and as which run."""
        found: dict[str, int] = {}
        keys = list(dict.fromkeys(uids))
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start:start + _CHUNK]
            rows = self._db.execute(f"SELECT uid, id FROM runs WHERE uid IN ({', '.join('?' * len(chunk))})", chunk)
            found.update({str(row[0]): int(row[1]) for row in rows})
        return found

    # reading ------------------------------------------------------------------------------

    def run(self, run_id: int) -> RunResult | None:
        row = self._db.execute("SELECT document, result_json, raw, raw_output FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return _load(document_of(row), run_id).model_copy(update={"raw_output": raw_of(row)})

    def runs(self, where: RunFilter | None = None, *, light: bool = False) -> list[RunResult]:
        """Matching runs, whole; ``light`` leaves out the per-second progress and the histogram bins
        (they are dropped before validation: a long list loads several times faster)."""
        where = where or RunFilter()
        if light:
            return self._light_runs(where)
        sql, params = where_sql(where)
        columns = "r.id, r.document, r.result_json"
        if where.limit is not None:
            sql = f"SELECT * FROM (SELECT {columns} FROM runs r WHERE {sql} ORDER BY r.id DESC LIMIT ?) AS newest ORDER BY id"
            params.append(where.limit)
        else:
            sql = f"SELECT {columns} FROM runs r WHERE {sql} ORDER BY r.id"
        return [_load(document_of(row), row["id"]) for row in self._db.execute(sql, params)]

    def _light_runs(self, where: RunFilter) -> list[RunResult]:
        """Matching runs without progress and bins, oldest first, from their light documents
        (:mod:`ssdprof.store.light_runs`); those read before are kept while their revision stands
        (Results lists a sweep, then its summary reads the same runs: each is validated once)."""
        current = self._revisions(where)
        kept = self._light_kept
        stale = [run_id for run_id, revision in current if kept.get(run_id, (-1,))[0] != revision]
        if len(kept) + len(stale) > _LIGHT_KEPT:
            kept.clear()
            stale = [run_id for run_id, _ in current]
        revisions = dict(current)
        for run_id, text in light_texts(self._db, self._transaction, stale).items():
            kept[run_id] = (revisions[run_id], _load(text, run_id))
        return [kept[run_id][1] for run_id, _ in current if run_id in kept]

    def summaries(self, where: RunFilter | None = None) -> list[RunSummary]:
        """Every matching run's summary, oldest first (no limit unless the filter has one). Summaries read
        before are kept while their run's revision stands (a GUI asks about one study many times)."""
        current = self._revisions(where or RunFilter(limit=None))
        stale = [run_id for run_id, revision in current if self._kept.get(run_id, (-1,))[0] != revision]
        if len(self._kept) + len(stale) > _KEPT:
            self._kept.clear()
            stale = [run_id for run_id, _ in current]
        revisions = dict(current)
        for start in range(0, len(stale), _CHUNK):
            chunk = stale[start:start + _CHUNK]
            rows = self._db.execute(f"SELECT {SUMMARY_COLUMNS} FROM runs r {SUMMARY_JOINS} "
                                    f"WHERE r.id IN ({', '.join('?' * len(chunk))})", chunk)
            for row in rows:
                self._kept[row[0]] = (revisions[row[0]], self._reader.summary(row) or self._summarise(row[0]))
        return [self._kept[run_id][1] for run_id, _ in current if run_id in self._kept]

    def _revisions(self, where: RunFilter) -> list[tuple[int, int]]:
        """The matching runs' ids and revisions, oldest first."""
        if where.run_ids is not None and where.limit is None and len(where.run_ids) >= _SCAN_IDS and self._most_of(where):
            wanted = set(where.run_ids)
            return [found for found in self._revisions(_with_ids(where, None)) if found[0] in wanted]
        if where.run_ids is not None and len(where.run_ids) > _CHUNK:
            ids = list(where.run_ids)
            return sorted(found for start in range(0, len(ids), _CHUNK)
                          for found in self._revisions(_with_ids(where, ids[start:start + _CHUNK])))
        sql, params = where_sql(where)
        if where.limit is not None:
            rows = self._db.execute(f"SELECT r.id, r.revision FROM runs r WHERE {sql} ORDER BY r.id DESC LIMIT ?",
                                    [*params, where.limit]).fetchall()
            return sorted((int(r[0]), int(r[1])) for r in rows)
        return [(int(r[0]), int(r[1])) for r in self._db.execute(
            f"SELECT r.id, r.revision FROM runs r WHERE {sql} ORDER BY r.id", params)]

    def _most_of(self, where: RunFilter) -> bool:
        """The filter's run ids are a good part of the store: reading every run's id and revision (an
        index) and keeping those asked costs less than an IN list of thousands (a tenth of it)."""
        newest = self._db.execute("SELECT MAX(id) FROM runs").fetchone()[0]
        return newest is not None and len(where.run_ids or ()) * 4 >= int(newest)

    def summaries_of(self, run_ids: Sequence[int]) -> list[RunSummary]:
        """The runs' summaries in the order asked; KeyError names the first that does not exist."""
        found = {s.id: s for s in self.summaries(RunFilter(limit=None, run_ids=tuple(dict.fromkeys(run_ids))))}
        missing = next((i for i in run_ids if i not in found), None)
        if missing is not None:
            raise KeyError(f"run {missing} does not exist")
        return [found[i] for i in run_ids]

    def _summarise(self, run_id: int) -> RunSummary:
        """A run stored without summary rows: summarised from its document, and the rows written now."""
        run = self.run(run_id)
        if run is None:
            raise KeyError(f"run {run_id} does not exist")
        with self._transaction() as db:
            db.execute("DELETE FROM run_figures WHERE run_id = ?", (run_id,))
            db.execute("DELETE FROM run_summaries WHERE run_id = ?", (run_id,))
            write_summary(db, run_id, run)
        return summarise(run)

    def page(self, where: RunFilter, offset: int, limit: int) -> tuple[list[RunSummary], int]:
        """A page of matching runs' summaries, newest first, and how many match in all."""
        sql, params = where_sql(where)
        rows = self._db.execute(f"SELECT {SUMMARY_COLUMNS} FROM runs r {SUMMARY_JOINS} WHERE {sql} "
                                "ORDER BY r.id DESC LIMIT ? OFFSET ?", [*params, limit, offset])
        page = [found or self._summarise(row[0]) for row in rows for found in (self._reader.summary(row),)]
        return page, self.count_runs(where)

    def run_ids(self, where: RunFilter) -> list[int]:
        """Every matching run's id, oldest first: what 'select all matching' selects."""
        sql, params = where_sql(where)
        return [int(row[0]) for row in self._db.execute(f"SELECT r.id FROM runs r WHERE {sql} ORDER BY r.id", params)]

    def count_runs(self, where: RunFilter | None = None) -> int:
        """How many runs match, ignoring the limit (so a caller can say what a list left out)."""
        sql, params = where_sql(where or RunFilter())
        return int(self._db.execute(f"SELECT COUNT(*) FROM runs r WHERE {sql}", params).fetchone()[0])

    def tag_keys(self, where: RunFilter) -> list[str]:
        """The tag keys the matching runs carry, sorted."""
        sql, params = where_sql(where)
        # the matching runs first, then their tags: a join ran the filter once per tag (0.2 s on 8,640 runs)
        rows = self._db.execute(f"SELECT DISTINCT t.key FROM run_tags t WHERE t.run_id IN (SELECT r.id FROM runs r "
                                f"WHERE {sql}) ORDER BY t.key", params)
        return [str(row[0]) for row in rows]

    def tag_counts(self, word: str) -> list[tuple[str, str, int]]:
        """Every tag whose key or value is ``word``, with how many runs carry it: (key, value, runs)."""
        rows = self._db.execute("SELECT key, value, COUNT(*) FROM run_tags WHERE key = ? OR value = ? "
                                "GROUP BY key, value ORDER BY key, value", (word, word))
        return [(str(key), str(value), int(count)) for key, value, count in rows]

    def people(self) -> tuple[list[str], list[str]]:
        """Every user and every machine that stored runs here, for History's filters."""
        users = [str(r[0]) for r in self._db.execute("SELECT DISTINCT measured_by FROM runs WHERE measured_by != '' "
                                                     "ORDER BY measured_by")]
        machines = [str(r[0]) for r in self._db.execute("SELECT DISTINCT measured_on FROM runs WHERE measured_on != '' "
                                                        "ORDER BY measured_on")]
        return users, machines

    def host_figures(self, run_ids: Sequence[int]) -> dict[int, dict[str, tuple[DirectionSummary, DirectionSummary]]]:
        """Each run's hosts' figures (read, write) by host name, from the summary tables."""
        return host_figures(self._db, run_ids)

    def latency_bins(self, run_ids: Sequence[int]) -> dict[int, Bins]:
        """Each run's total-latency bins (reads', writes'), kept beside its document: what a percentile
        of several runs is read from (``analysis.pooled``)."""
        return stored_bins(self._db, self._transaction, run_ids)

    def raw_output(self, run_id: int) -> str:
        row = self._db.execute("SELECT raw, raw_output FROM runs WHERE id = ?", (run_id,)).fetchone()
        return raw_of(row) if row else ""

    # changing -----------------------------------------------------------------------------

    def set_tags(self, run_id: int, tags: dict[str, str]) -> RunResult:
        result = self.run(run_id)
        if result is None:
            raise KeyError(f"run {run_id} does not exist")
        updated = result.model_copy(update={"tags": {**result.tags, **tags}})
        with self._transaction() as db:
            db.executemany("INSERT INTO run_tags VALUES (?, ?, ?) ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value",
                           [(run_id, k, v) for k, v in tags.items()])
            db.execute("UPDATE runs SET document = ?, result_json = '', revision = revision + 1 WHERE id = ?",
                       (pack(updated.model_dump_json()), run_id))
            set_summary_tags(db, run_id, updated.tags, node_count(updated))
        return updated

    def delete_run(self, run_id: int) -> bool:
        with self._transaction() as db:
            return db.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount > 0


def _load(text: str, run_id: int) -> RunResult:
    from ssdprof.model.results import RunResult  # pydantic's models load with the first run read

    return RunResult.model_validate_json(text).model_copy(update={"id": run_id})


def _with_ids(where: RunFilter, ids: Sequence[int] | None) -> RunFilter:
    return replace(where, run_ids=None if ids is None else tuple(ids))
