"""The store's summary tables: each run's figures as analysis reads them, written when the run is saved
(and by migration 0007 for runs stored before), read back as :class:`RunSummary` without opening the
run's document.

``run_summaries`` holds one row per run: the workload's factors as indexed columns, and the small
typed parts (workload, engine, environment, drive state, hosts, tags) as JSON parsed once per
distinct text. ``run_figures`` holds the figures per run, per host ('' for the run's aggregate)
and per direction: I/O counts, bytes, IOPS, bytes/s, total, completion and submission latency with
their percentiles. Its direction ``mixed`` is all of a run's I/Os, reads and writes together
(:attr:`RunResult.mixed`), kept for the run's aggregate where the run did both (a run of one direction
is its own ``mixed``); a run stored before it was kept is summarised again from its document when next
read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ssdprof.model.run_summary import (
    EMPTY_DIRECTION,
    DirectionSummary,
    HostSummary,
    LatencySummary,
    RunSummary,
    SpanSummary,
    direction,
    node_count,
)
from ssdprof.store.backend import Connection

if TYPE_CHECKING:
    from ssdprof.model.results import DirectionStats, RunResult

__all__ = ["SUMMARY_COLUMNS", "SUMMARY_TABLES", "SummaryReader", "write_summary"]

_LATENCY = ("samples", "mean", "stddev", "min", "max", "p50", "p90", "p95", "p99", "p99_9", "p99_99", "from_bins")
_SPAN = ("samples", "mean", "stddev", "min", "max")
_FIGURES = ("io_count", "io_bytes", "runtime_ms", "iops", "bw_bytes_per_s",
            *(f"lat_{n}" for n in _LATENCY), *(f"clat_{n}" for n in _LATENCY), *(f"slat_{n}" for n in _SPAN))
"""run_figures' figure columns, in DirectionSummary's order."""

_TYPES = {"io_count": "INTEGER NOT NULL", "io_bytes": "INTEGER NOT NULL", "runtime_ms": "REAL NOT NULL",
          "iops": "REAL NOT NULL", "bw_bytes_per_s": "REAL NOT NULL"}


def _type(column: str) -> str:
    if column in _TYPES:
        return _TYPES[column]
    if column.endswith("_samples") or column.endswith("_from_bins"):
        return "INTEGER NOT NULL"
    return "REAL"


SUMMARY_TABLES = f"""
    ALTER TABLE runs ADD COLUMN measured_by TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN uid TEXT;
    ALTER TABLE runs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    CREATE UNIQUE INDEX runs_uid ON runs(uid);
    CREATE INDEX runs_measured ON runs(measured_by, measured_on);
    CREATE INDEX runs_started ON runs(started_at);
    CREATE TABLE run_summaries (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        pattern TEXT NOT NULL,
        read_pct INTEGER NOT NULL,
        block_size_bytes INTEGER NOT NULL,
        queue_depth INTEGER NOT NULL,
        numjobs INTEGER NOT NULL,
        rate_iops INTEGER NOT NULL,
        outstanding_ios INTEGER NOT NULL,
        host_count INTEGER NOT NULL,
        nodes INTEGER,
        label TEXT NOT NULL,
        iops REAL NOT NULL,
        bw_bytes_per_s REAL NOT NULL,
        cpu_busy_pct REAL,
        start_skew_ms REAL,
        workload_json TEXT NOT NULL,
        engine_json TEXT NOT NULL,
        environment_json TEXT NOT NULL,
        drive_state_json TEXT,
        hosts_json TEXT NOT NULL,
        tags_json TEXT NOT NULL
    );
    CREATE INDEX run_summaries_access ON run_summaries(pattern, block_size_bytes, queue_depth, numjobs);
    CREATE INDEX run_summaries_nodes ON run_summaries(nodes);
    CREATE TABLE run_figures (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        direction TEXT NOT NULL,
        {", ".join(f"{c} {_type(c)}" for c in _FIGURES)},
        PRIMARY KEY (run_id, host, direction)
    );
    CREATE INDEX run_figures_host ON run_figures(host, direction)
"""
"""Migration 0007's tables: ``host`` is '' for the run's aggregate, and a direction without I/O has no row;
``uid`` makes a retried save the same run; ``revision`` counts changes to a stored run (its tags, its drive
state), so a summary read before is known to be current."""

_HOST_FIELDS = ("host", "jobs", "error", "target", "link_limit_bytes_per_s", "link_limit_source")
_SUMMARY_INSERT = ("INSERT INTO run_summaries (run_id, pattern, read_pct, block_size_bytes, queue_depth, numjobs, "
                   "rate_iops, outstanding_ios, host_count, nodes, label, iops, bw_bytes_per_s, cpu_busy_pct, "
                   "start_skew_ms, workload_json, engine_json, environment_json, drive_state_json, hosts_json, "
                   f"tags_json) VALUES ({', '.join('?' * 21)})")
_FIGURES_INSERT = (f"INSERT INTO run_figures (run_id, host, direction, {', '.join(_FIGURES)}) "
                   f"VALUES ({', '.join('?' * (len(_FIGURES) + 3))})")


def _figure_values(stats: DirectionStats) -> list[object]:
    lat, clat, slat = stats.lat_ns, stats.clat_ns, stats.slat_ns
    return [stats.io_count, stats.io_bytes, stats.runtime_ms, stats.iops, stats.bw_bytes_per_s,
            *(int(getattr(lat, n)) if n == "from_bins" else getattr(lat, n) for n in _LATENCY),
            *(int(getattr(clat, n)) if n == "from_bins" else getattr(clat, n) for n in _LATENCY),
            *(getattr(slat, n) for n in _SPAN)]


def write_summary(db: Connection, run_id: int, run: RunResult) -> None:
    """The run's rows in run_summaries and run_figures (inside the caller's transaction)."""
    w = run.workload
    hosts = [[getattr(h, f) for f in _HOST_FIELDS] for h in run.hosts]
    db.execute(_SUMMARY_INSERT, (
        run_id, w.pattern.value, w.read_pct, w.block_size_bytes, w.queue_depth, w.numjobs, w.rate_iops,
        run.engine.effective_queue_depth * w.numjobs, len(run.hosts), node_count(run), w.label,
        run.read.iops + run.write.iops, run.read.bw_bytes_per_s + run.write.bw_bytes_per_s, run.cpu_busy_pct,
        run.start_skew_ms, w.model_dump_json(), run.engine.model_dump_json(), run.environment.model_dump_json(),
        run.drive_state.model_dump_json() if run.drive_state else None, json.dumps(hosts),
        json.dumps(run.tags, sort_keys=True)))
    parts = [("", run.read, run.write), *((h.host, h.read, h.write) for h in run.hosts)]
    rows = [(run_id, host, side, *_figure_values(stats)) for host, read, write in parts
            for side, stats in (("read", read), ("write", write)) if direction(stats) is not EMPTY_DIRECTION]
    if run.read.active and run.write.active:
        rows.append((run_id, "", "mixed", *_figure_values(run.mixed)))
    db.executemany(_FIGURES_INSERT, rows)


def set_summary_tags(db: Connection, run_id: int, tags: dict[str, str], nodes: int | None) -> None:
    db.execute("UPDATE run_summaries SET tags_json = ?, nodes = ? WHERE run_id = ?",
               (json.dumps(tags, sort_keys=True), nodes, run_id))


SUMMARY_COLUMNS = ("r.id, r.sweep_id, r.repeat, r.status, r.started_at, r.finished_at, r.source, r.measured_by, "
                   "r.measured_on, s.workload_json, s.engine_json, s.environment_json, s.drive_state_json, "
                   "s.hosts_json, s.tags_json, s.cpu_busy_pct, s.start_skew_ms, "
                   + ", ".join(f"{a}.{c}" for a in ("fr", "fw", "fm") for c in _FIGURES))
"""The columns :meth:`SummaryReader.summary` reads, in its order."""

SUMMARY_JOINS = ("LEFT JOIN run_summaries s ON s.run_id = r.id "
                 "LEFT JOIN run_figures fr ON fr.run_id = r.id AND fr.host = '' AND fr.direction = 'read' "
                 "LEFT JOIN run_figures fw ON fw.run_id = r.id AND fw.host = '' AND fw.direction = 'write' "
                 "LEFT JOIN run_figures fm ON fm.run_id = r.id AND fm.host = '' AND fm.direction = 'mixed'")

_FIRST_FIGURE = 17
_WIDTH = len(_FIGURES)


class SummaryReader:
    """Rows of SUMMARY_COLUMNS as RunSummary; each distinct JSON text is parsed once and shared (a
    study's 8,640 runs hold a few dozen workloads and one host list)."""

    _LIMIT = 20_000

    def __init__(self) -> None:
        self._parsed: dict[tuple[str, str], Any] = {}
        self._parsers: dict[str, Callable[[str], Any]] = {}

    def _cached(self, kind: str, text: str) -> Any:
        key = (kind, text)
        found = self._parsed.get(key)
        if found is None:
            if len(self._parsed) > self._LIMIT:
                self._parsed.clear()
            found = self._parsed[key] = self._parser(kind)(text)
        return found

    def _parser(self, kind: str) -> Callable[[str], Any]:
        """The model a kind of JSON text is read as; their pydantic models load with the first summary read
        (a store opened to list nothing, or to write, never builds them)."""
        if not self._parsers:
            from ssdprof.model.drive_state import DriveState
            from ssdprof.model.results import EngineInfo, Environment
            from ssdprof.model.workload import Workload

            self._parsers = {"workload": Workload.model_validate_json, "engine": EngineInfo.model_validate_json,
                             "environment": Environment.model_validate_json, "drive": DriveState.model_validate_json,
                             "hosts": _hosts, "tags": _tags}
        return self._parsers[kind]

    def summary(self, row: Sequence[Any]) -> RunSummary | None:
        """None for a run with no summary row, or none for all its I/Os where it read and wrote (stored
        before they were kept): the caller summarises its document."""
        if row[9] is None:
            return None
        first = _FIRST_FIGURE
        read = _direction(row[first:first + _WIDTH])
        write = _direction(row[first + _WIDTH:first + 2 * _WIDTH])
        both = _direction(row[first + 2 * _WIDTH:first + 3 * _WIDTH])
        if both is EMPTY_DIRECTION:
            if read.active and write.active:
                return None
            both = read if read.active else write
        return RunSummary(
            id=row[0], sweep_id=row[1], repeat=row[2], status=row[3], started_at=row[4], finished_at=row[5],
            source=row[6], measured_by=row[7], measured_on=row[8],
            workload=self._cached("workload", row[9]), engine=self._cached("engine", row[10]),
            environment=self._cached("environment", row[11]),
            drive_state=None if row[12] is None else self._cached("drive", row[12]),
            hosts=self._cached("hosts", row[13]), tags=dict(self._cached("tags", row[14])),
            cpu_busy_pct=row[15], start_skew_ms=row[16],
            read=read, write=write, mixed=both)


def _hosts(text: str) -> tuple[HostSummary, ...]:
    return tuple(HostSummary(*item) for item in json.loads(text))


def _tags(text: str) -> dict[str, str]:
    found: dict[str, str] = json.loads(text)
    return found


def _direction(v: Sequence[Any]) -> DirectionSummary:
    """A stored direction's figures; no row (NULLs from the join) is a direction without I/O."""
    return EMPTY_DIRECTION if v[0] is None else DirectionSummary(*_parts(v))


def _parts(v: Sequence[Any]) -> tuple[Any, ...]:
    return (v[0], v[1], v[2], v[3], v[4], LatencySummary._make((*v[5:16], bool(v[16]))),
            LatencySummary._make((*v[17:28], bool(v[28]))), SpanSummary._make(v[29:34]))


def host_figures(db: Connection, run_ids: Iterable[int]) -> dict[int, dict[str, tuple[DirectionSummary, DirectionSummary]]]:
    """Each run's hosts' figures by host name: (read, write); what a per-host view reads."""
    out: dict[int, dict[str, tuple[DirectionSummary, DirectionSummary]]] = {}
    for chunk in _chunks(list(run_ids)):
        marks = ", ".join("?" * len(chunk))
        for run_id, hosts in db.execute(f"SELECT run_id, hosts_json FROM run_summaries WHERE run_id IN ({marks})", chunk):
            out[run_id] = {h.host: (EMPTY_DIRECTION, EMPTY_DIRECTION) for h in _hosts(hosts)}
        rows = db.execute(f"SELECT run_id, host, direction, {', '.join(_FIGURES)} FROM run_figures "
                          f"WHERE host != '' AND run_id IN ({marks}) ORDER BY run_id, host, direction", chunk)
        for row in rows:
            read, write = out.setdefault(row[0], {}).get(row[1], (EMPTY_DIRECTION, EMPTY_DIRECTION))
            found = _direction(list(row[3:]))
            out[row[0]][row[1]] = (found, write) if row[2] == "read" else (read, found)
    return {run_id: hosts for run_id, hosts in out.items() if hosts}


def _chunks(ids: Sequence[int], size: int = 5000) -> Iterable[Sequence[int]]:
    for start in range(0, len(ids), size):
        yield ids[start:start + size]
