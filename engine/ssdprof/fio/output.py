"""Parsing fio's JSON output, whatever version and mode produced it.

Real output is not one clean document: fio prints notes and "fio: terminating on signal"
before the JSON, ``--status-interval`` prints back-to-back cumulative documents, fio 2.x
reports microseconds under ``clat`` where 3.x reports nanoseconds under ``clat_ns``, json+
adds histogram bins (for total latency ``lat_ns`` only when the job ran with ``lat_percentiles=1``),
and client/server output lists jobs under ``client_stats`` (with an
"All clients" entry only when there are several clients). Everything is converted to
nanoseconds and bytes here, once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ssdprof.model import histogram
from ssdprof.model.aggregate import combine, latency_from_bins
from ssdprof.model.quantities import parse_duration_s
from ssdprof.model.results import DirectionStats, FioSteadyState, LatencyStats, SpanStats

__all__ = [
    "ALL_CLIENTS",
    "FioJob",
    "FioOutputError",
    "FioReport",
    "combine",
    "latency_from_bins",
    "parse_document",
    "parse_report",
    "parse_steadystate",
    "split_documents",
]

ALL_CLIENTS = "All clients"
_DIRECTIONS = ("read", "write")


class FioOutputError(ValueError):
    """The text holds no fio result document."""


@dataclass(frozen=True)
class FioJob:
    name: str
    groupid: int
    host: str
    read: DirectionStats
    write: DirectionStats
    error: int = 0
    elapsed_s: float = 0.0
    job_start_ms: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    steadystate: FioSteadyState | None = None

    def direction(self, name: str) -> DirectionStats:
        return self.read if name == "read" else self.write


@dataclass(frozen=True)
class FioReport:
    fio_version: str
    timestamp_ms: int | None
    jobs: list[FioJob]
    client_server: bool
    global_options: dict[str, Any]
    notes: list[str]
    fio_all_clients: list[FioJob] = field(default_factory=list)
    """fio's own "All clients" sums, kept for cross-checks only."""

    @property
    def hosts(self) -> list[str]:
        return list(dict.fromkeys(job.host for job in self.jobs))

    @property
    def groups(self) -> list[int]:
        return sorted({job.groupid for job in self.jobs})


def split_documents(text: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Every JSON document in ``text`` (in order) and the non-JSON lines around them."""
    decoder = json.JSONDecoder(object_pairs_hook=_keep_last)
    documents: list[dict[str, Any]] = []
    notes: list[str] = []
    position = 0
    while position < len(text):
        start = _next_document_start(text, position)
        if start < 0:
            notes.extend(_note_lines(text[position:]))
            break
        notes.extend(_note_lines(text[position:start]))
        try:
            document, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            end = text.find("\n", start)
            notes.extend(_note_lines(text[start : end if end >= 0 else len(text)]))
            position = end + 1 if end >= 0 else len(text)
            continue
        if isinstance(document, dict):
            documents.append(document)
        position = end
    return documents, notes


def parse_report(text: str) -> FioReport:
    """The final result in fio's output (the last document when status reports precede it)."""
    documents, notes = split_documents(text)
    results = [d for d in documents if _is_result(d)]
    if not results:
        raise FioOutputError("no fio JSON result found: expected output of fio --output-format=json or json+")
    return parse_document(results[-1], notes)


def parse_document(document: dict[str, Any], notes: list[str] | None = None) -> FioReport:
    if not _is_result(document):
        raise FioOutputError("not a fio result: it has neither 'jobs' nor 'client_stats'")
    client_server = "client_stats" in document
    raw_jobs = document.get("client_stats" if client_server else "jobs") or []
    jobs: list[FioJob] = []
    all_clients: list[FioJob] = []
    entries = [raw for raw in raw_jobs if isinstance(raw, dict) and "read" in raw]
    for raw in entries:
        job = _parse_job(raw, _host_name(raw, entries) if client_server else "local")
        (all_clients if job.name == ALL_CLIENTS else jobs).append(job)
    return FioReport(
        fio_version=str(document.get("fio version", "")),
        timestamp_ms=_int_or_none(document.get("timestamp_ms")) or _seconds_to_ms(document.get("timestamp")),
        jobs=jobs,
        client_server=client_server,
        global_options=_options(document.get("global options")),
        notes=notes or [],
        fio_all_clients=all_clients,
    )


def _host_name(raw: dict[str, Any], entries: list[dict[str, Any]]) -> str:
    """The client's host name, with its port when several clients share one host name."""
    hostname = str(raw.get("hostname", "unknown"))
    ports = {e.get("port") for e in entries if e.get("hostname") == hostname and e.get("jobname") != ALL_CLIENTS}
    return f"{hostname}:{raw['port']}" if len(ports) > 1 and "port" in raw else hostname


def _parse_job(raw: dict[str, Any], host: str) -> FioJob:
    return FioJob(
        name=str(raw.get("jobname", "")),
        groupid=int(raw.get("groupid", 0)),
        host=host,
        read=_parse_direction(raw.get("read") or {}),
        write=_parse_direction(raw.get("write") or {}),
        error=int(raw.get("error", 0) or 0),
        elapsed_s=float(raw.get("elapsed", 0) or 0),
        job_start_ms=_int_or_none(raw.get("job_start")),
        options=_options(raw.get("job options")),
        steadystate=parse_steadystate(raw.get("steadystate"), _options(raw.get("job options"))),
    )


def parse_steadystate(raw: Any, options: dict[str, Any]) -> FioSteadyState | None:
    """fio's ``steadystate`` object (written when a job ran with ``--ss``), or None. fio 3.x prints the window as
    ``duration`` and the ramp only among the job options (``ss_ramp``/``steadystate_ramp_time``)."""
    if not isinstance(raw, dict) or "ss" not in raw:
        return None
    data: dict[str, Any] = raw["data"] if isinstance(raw.get("data"), dict) else {}
    ramp = next((options[k] for k in ("steadystate_ramp_time", "ss_ramp") if k in options), raw.get("ss_ramp", 0))
    duration = raw.get("duration", raw.get("ss_dur", 0))
    return FioSteadyState(
        ss=str(raw.get("ss", "")), duration_s=_duration_s(duration), ramp_s=_duration_s(ramp),
        attained=bool(raw.get("attained")), criterion=str(raw.get("criterion", "")),
        max_deviation=float(raw.get("max_deviation", 0) or 0), slope=float(raw.get("slope", 0) or 0),
        iops_samples=[float(v) for v in data.get("iops", []) if _is_number(str(v))],
        bw_samples=[float(v) for v in data.get("bw", []) if _is_number(str(v))])


def _duration_s(value: Any) -> float:
    """fio's durations: plain seconds, or with a unit (``30s``, ``2m``, ``500ms``)."""
    text = str(value).strip()
    try:
        return float(parse_duration_s(text))
    except ValueError:
        return 0.0


def _parse_direction(raw: dict[str, Any]) -> DirectionStats:
    runtime_ms = float(raw.get("runtime", 0) or 0)
    iops = float(raw.get("iops", 0) or 0)
    # fio 3.x: io_bytes in bytes (beside io_kbytes); fio 2.x: io_bytes in KiB, bw in KiB/s.
    io_bytes = int(raw.get("io_bytes", 0) or 0) * (1 if "io_kbytes" in raw else 1024)
    bw_bytes = float(raw["bw_bytes"]) if "bw_bytes" in raw else float(raw.get("bw", 0) or 0) * 1024
    io_count = int(raw["total_ios"]) if "total_ios" in raw else round(iops * runtime_ms / 1000)
    clat, clat_bins = _latency(raw, "clat", io_count)
    lat, lat_bins = _latency(raw, "lat", io_count)
    if io_count == 0 and clat.samples == 0:
        return DirectionStats()
    slat_raw, to_ns = _span_raw(raw, "slat")
    return DirectionStats(io_count=io_count, io_bytes=io_bytes, runtime_ms=runtime_ms, iops=iops, bw_bytes_per_s=bw_bytes,
                          lat_ns=lat, clat_ns=clat, slat_ns=_span(slat_raw, to_ns, io_count), lat_bins_ns=lat_bins,
                          clat_bins_ns=clat_bins)


def _span_raw(raw: dict[str, Any], name: str) -> tuple[dict[str, Any], int]:
    """fio 3.x writes ``<name>_ns`` in ns; fio 2.x wrote ``<name>`` in µs."""
    if f"{name}_ns" in raw:
        return raw[f"{name}_ns"] or {}, 1
    return raw.get(name) or {}, 1000


def _span(raw: dict[str, Any], to_ns: int, io_count: int) -> SpanStats:
    samples = int(raw.get("N", 0) or 0)
    mean = _scaled(raw.get("mean"), to_ns)
    if not samples and not mean:  # fio prints zeros for a span it did not time (slat on sync engines)
        return SpanStats()
    return SpanStats(samples=samples or io_count, mean=mean, stddev=_scaled(raw.get("stddev"), to_ns),
                     min=_scaled(raw.get("min"), to_ns), max=_scaled(raw.get("max"), to_ns))


def _latency(raw: dict[str, Any], name: str, io_count: int) -> tuple[LatencyStats, dict[int, int]]:
    """A latency with percentiles from its own bins, else from fio's own table for it; never from
    another latency's (old output with only ``clat`` percentiles keeps ``lat``'s empty)."""
    span_raw, to_ns = _span_raw(raw, name)
    bins = _bins_ns(span_raw.get("bins"), to_ns)
    span = _span(span_raw, to_ns, sum(bins.values()) if bins else io_count)
    if bins:
        return latency_from_bins(bins, span), bins
    return LatencyStats(**span.model_dump(), **_fio_percentiles(span_raw.get("percentile"), to_ns)), {}


def _bins_ns(raw: Any, to_ns: int) -> dict[int, int]:
    if not isinstance(raw, dict) or not raw:
        return {}
    if "FIO_IO_U_PLAT_NR" in raw:  # fio 2.x json+: bucket index -> count
        return {histogram.index_to_value(int(k)) * to_ns: int(v) for k, v in raw.items()
                if k.isdigit() and int(v) > 0}
    return {int(k) * to_ns: int(v) for k, v in raw.items() if int(v) > 0}


def _fio_percentiles(raw: Any, to_ns: int) -> dict[str, float | None]:
    """fio's own percentile table, used only when there are no bins to compute from."""
    if not isinstance(raw, dict):
        return {}
    table = {Fraction(k): v for k, v in raw.items() if _is_number(k)}
    return {name: (float(table[p]) * to_ns if p in table else None) for name, p in histogram.REPORTED_PERCENTILES.items()}


def _is_result(document: dict[str, Any]) -> bool:
    return "jobs" in document or "client_stats" in document


def _options(raw: Any) -> dict[str, Any]:
    """``global options`` / ``job options``: a dict, or in some client/server versions a list."""
    if isinstance(raw, dict):
        return dict(raw)
    if isinstance(raw, list):
        merged: dict[str, Any] = {}
        for item in raw:
            if isinstance(item, dict):
                merged.update(item)
        return merged
    return {}


def _keep_last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """fio sometimes repeats a key; like fio's own option handling, the last one wins."""
    return dict(pairs)


def _next_document_start(text: str, position: int) -> int:
    """A document starts with '{' at the beginning of a line."""
    while True:
        start = text.find("{", position)
        if start <= 0 or text[start - 1] == "\n":
            return start
        position = start + 1


def _note_lines(chunk: str) -> Iterator[str]:
    return (line.strip() for line in chunk.splitlines() if line.strip())


def _scaled(value: Any, factor: int) -> float | None:
    return float(value) * factor if isinstance(value, (int, float)) else None


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and value else None


def _seconds_to_ms(value: Any) -> int | None:
    return int(value) * 1000 if isinstance(value, (int, float)) and value else None


def _is_number(text: str) -> bool:
    try:
        Fraction(text)
    except ValueError:
        return False
    return True
