"""The store's schema changes: named, applied in order, each once, each in its own transaction.

A step is SQL, or a function for changes SQL cannot express, such as re-reading stored raw output.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ssdprof.store.backend import Connection
from ssdprof.store.light_runs import LIGHT_TABLE
from ssdprof.store.migrations_summaries import compact_documents, run_summaries

if TYPE_CHECKING:
    from ssdprof.model.results import DirectionStats

__all__ = ["MIGRATIONS"]

_SIDES = ("read", "write")


def _total_latency(db: Connection) -> None:
    """Runs stored before latency meant total latency: ``bins_ns`` becomes ``clat_bins_ns``, and
    ``lat_ns`` is filled where it can be known — the portable engine and psync timed the whole call
    (their clat is the total); fio runs re-read it from the raw output kept beside them (fio always
    printed lat's mean/min/max, and its bins where lat_percentiles was set). Anything else keeps an
    empty ``lat_ns``, which the results show as "completion latency only", never as total."""
    rows = db.execute("SELECT id, engine, result_json, raw_output FROM runs").fetchall()
    for row_id, engine, result_json, raw_output in rows:
        data = json.loads(result_json)
        parts = [data, *data.get("hosts", [])]
        for part in parts:
            for side in _SIDES:
                stats = part.setdefault(side, {})
                if "bins_ns" in stats:
                    stats["clat_bins_ns"] = stats.pop("bins_ns")
        whole_call = engine == "portable" or (engine == "fio" and data.get("engine", {}).get("ioengine") in ("psync", "sync", "pvsync"))
        if whole_call:
            _copy_clat_to_lat(parts)
        elif engine == "fio":
            _reread_fio(data, raw_output)
        elif engine == "imported" and "clat" not in raw_output.split("\n", 1)[0].lower():
            _copy_clat_to_lat(parts)  # a table's latency column that did not say clat: what its author measured as latency
        for sample in data.get("progress", []):
            for side in _SIDES:
                for stat in ("mean", "p99"):
                    value = sample.pop(f"{side}_clat_ns_{stat}", None)
                    sample[f"{side}_lat_ns_{stat}"] = value if whole_call else None
        db.execute("UPDATE runs SET result_json = ? WHERE id = ?", (json.dumps(data), row_id))


def _copy_clat_to_lat(parts: list[dict[str, Any]]) -> None:
    for part in parts:
        for side in _SIDES:
            stats = part[side]
            if "clat_ns" in stats and "lat_ns" not in stats:
                stats["lat_ns"] = stats["clat_ns"]
                stats["lat_bins_ns"] = stats.get("clat_bins_ns", {})


def _reread_fio(data: dict[str, Any], raw_output: str) -> None:
    """Total and submission latency from fio's own output, host by host; left empty where it cannot be matched."""
    # fio's parser loads only for this old migration: opening a store (ssdprof compare) needs no fio
    from ssdprof.fio.output import FioOutputError, combine, parse_report

    try:
        report = parse_report(raw_output)
    except FioOutputError:
        return
    hosts = data.get("hosts", [])
    if len(report.groups) != 1 or len(hosts) != len(report.hosts):
        return  # several groups in one imported file, or a host list that does not match: cannot tell which is which
    names = [h.get("host") for h in hosts]
    by_host = {name: [j for j in report.jobs if j.host == name] for name in report.hosts}
    if len(hosts) == 1:
        by_host = {names[0]: report.jobs}
    elif set(names) != set(by_host):
        return
    totals: dict[str, list[DirectionStats]] = {side: [] for side in _SIDES}
    for host in hosts:
        for side in _SIDES:
            parsed = combine(j.read if side == "read" else j.write for j in by_host[host["host"]])
            totals[side].append(parsed)
            _put_total(host[side], parsed)
    for side in _SIDES:
        _put_total(data[side], combine(totals[side]))


def _put_total(stats: dict[str, Any], parsed: DirectionStats) -> None:
    stats["lat_ns"] = parsed.lat_ns.model_dump(mode="json")
    stats["slat_ns"] = parsed.slat_ns.model_dump(mode="json")
    stats["lat_bins_ns"] = {str(k): v for k, v in parsed.lat_bins_ns.items()}


MIGRATIONS: list[tuple[str, str | Callable[[Connection], None]]] = [
    ("0001_create_runs_and_sweeps", """
        CREATE TABLE sweeps (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            name TEXT NOT NULL,
            spec_json TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'running'
        );
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            sweep_id INTEGER REFERENCES sweeps(id) ON DELETE CASCADE,
            point_index INTEGER,
            repeat INTEGER NOT NULL DEFAULT 0,
            workload_key TEXT NOT NULL,
            host_key TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            status TEXT NOT NULL,
            engine TEXT NOT NULL,
            target TEXT NOT NULL,
            device_model TEXT NOT NULL,
            source TEXT NOT NULL,
            result_json TEXT NOT NULL,
            raw_output TEXT NOT NULL
        );
        CREATE INDEX runs_sweep_point ON runs(sweep_id, point_index, repeat);
        CREATE INDEX runs_key ON runs(workload_key, host_key);
        CREATE TABLE run_tags (
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (run_id, key)
        );
        CREATE INDEX run_tags_key_value ON run_tags(key, value);
    """),
    ("0002_create_hosts", """
        CREATE TABLE hosts (
            name TEXT PRIMARY KEY,
            added_at TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            probe_json TEXT NOT NULL
        );
    """),
    ("0003_total_latency", _total_latency),
    ("0004_host_link_speed", """
        ALTER TABLE hosts ADD COLUMN link_gbps REAL;
    """),
    # Drive state: a sweep may be a PTS test (its repeats are the rounds, its spec kept beside it), and a
    # ledger of what ssdprof wrote to each target since it last purged it, keyed by the target's identity.
    ("0005_drive_state_and_pts", """
        ALTER TABLE sweeps ADD COLUMN kind TEXT NOT NULL DEFAULT 'sweep';
        CREATE TABLE pts_tests (
            sweep_id INTEGER PRIMARY KEY REFERENCES sweeps(id) ON DELETE CASCADE,
            test TEXT NOT NULL,
            profile TEXT NOT NULL,
            spec_json TEXT NOT NULL,
            drive_state_json TEXT,
            reason TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE target_ledger (
            identity TEXT PRIMARY KEY,
            description TEXT NOT NULL,
            first_seen_at TEXT NOT NULL,
            bytes_written INTEGER NOT NULL DEFAULT 0,
            purged_at TEXT,
            purge_json TEXT,
            precondition_json TEXT,
            steady_state TEXT NOT NULL DEFAULT 'not-checked',
            updated_at TEXT NOT NULL
        );
        ALTER TABLE runs ADD COLUMN target_identity TEXT NOT NULL DEFAULT '';
        CREATE INDEX runs_target_identity ON runs(target_identity);
    """),
    # The spec sheet chosen for a device (a virtual disk reports no model to match), applied next time.
    ("0006_device_spec_choices", """
        CREATE TABLE device_spec_choices (
            device_key TEXT PRIMARY KEY,
            description TEXT NOT NULL,
            spec_id TEXT NOT NULL,
            chosen_at TEXT NOT NULL
        );
    """),
    # Analysis reads summaries: each run's figures per direction and host in indexed tables, written at save
    # time and here for stored runs; runs carry who stored them, where, and a key that makes a retried save
    # the same run (a shared PostgreSQL store).
    ("0007_run_summaries", run_summaries),
    # Documents and raw output compressed: progress, bins and fio's JSON shrink five- to twentyfold.
    ("0008_compact_documents", compact_documents),
    # A host's role: a client runs the I/O; a monitor-only host (a storage node) is only watched
    # during runs.
    ("0009_host_roles", """
        ALTER TABLE hosts ADD COLUMN role TEXT NOT NULL DEFAULT 'client';
    """),
    # Who runs a sweep: its holder (login, host, the process and its start time) and a lease the running
    # process renews on the database's clock, so a sweep whose process died reads as interrupted and is
    # resumed by its owner only, never under a live process (store/sweeps.py, store/leases.py).
    ("0010_sweep_owner_and_lease", """
        ALTER TABLE sweeps ADD COLUMN owner TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN owner_host TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN owner_process TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN owner_pid INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sweeps ADD COLUMN owner_started REAL NOT NULL DEFAULT 0;
        ALTER TABLE sweeps ADD COLUMN lease_id TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN lease_since TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN lease_renewed_at TEXT NOT NULL DEFAULT '';
        ALTER TABLE sweeps ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;
    """),
    # The writes a run makes, applied once each: a write kept on a machine while the shared server was
    # away, sent again after an answer was lost with the connection, is recognised by its id here
    # (finished points by the runs' own uid) (store/writes.py).
    ("0011_applied_writes", """
        CREATE TABLE applied_writes (
            uid TEXT PRIMARY KEY,
            applied_at TEXT NOT NULL
        );
    """),
    # Each run's light document and total-latency bins beside the whole one, so lists and pooled
    # percentiles parse a tenth of it; made for older runs when first read (store/light_runs.py).
    ("0012_light_runs", LIGHT_TABLE),
    # Every run's id and revision in an index: what each analysis reads first to know which summaries it
    # holds are current (without it SQLite walks past each run's document to reach its revision).
    ("0013_run_revisions", """
        CREATE INDEX runs_revision ON runs(id, revision);
    """),
]
