"""Results in and out: fio output files imported as earlier runs; CSV and JSON out (a run's fio job file
is :func:`ssdprof.fio.jobfile.reproducible_job`)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from ssdprof.fio.jobfile import reproducible_job
from ssdprof.fio.output import FioOutputError, FioReport, combine, parse_report
from ssdprof.fio.runner import measurement_from_report
from ssdprof.model.curves import CurveSummary
from ssdprof.model.provenance import Provenance, SourceFigure
from ssdprof.model.quantities import parse_duration_s, parse_size_bytes
from ssdprof.model.results import DirectionStats, EngineInfo, Environment, RunResult, ValidityWarning
from ssdprof.model.workload import Pattern, Workload
from ssdprof.store.crosscheck import check_bandwidth
from ssdprof.store.imports.sources import MAX_FILE_BYTES, ImportFailure, SourceFile

__all__ = ["CSV_COLUMNS", "ImportError_", "curve_csv", "export_csv", "export_json", "fio_runs", "import_fio_output",
           "workload_from_fio_options"]

ImportError_ = ImportFailure
"""The file is not something ssdprof can import (the name older callers use)."""


def import_fio_output(path: Path, tags: dict[str, str] | None = None) -> list[RunResult]:
    """One earlier run per (group) in a fio output file of any version, json or json+."""
    if path.stat().st_size > MAX_FILE_BYTES:
        raise ImportError_(f"{path.name}: larger than {MAX_FILE_BYTES >> 20} MiB; not a fio result file")
    return fio_runs(SourceFile(path.name, path.read_bytes()), tags)


def fio_runs(source: SourceFile, tags: dict[str, str] | None = None) -> list[RunResult]:
    """One earlier run per (group) in a fio output of any version, json or json+, its provenance fio's own."""
    text = source.data.decode("utf-8", errors="replace")
    try:
        report = parse_report(text)
    except FioOutputError as exc:
        raise ImportError_(f"{source.path}: {exc}") from None
    if not report.jobs:
        raise ImportError_(f"{source.path}: the fio output holds no job results")
    runs = []
    for group in report.groups:
        jobs = [j for j in report.jobs if j.groupid == group]
        sub = FioReport(report.fio_version, report.timestamp_ms, jobs, report.client_server, report.global_options, report.notes)
        options = {**report.global_options, **jobs[0].options}
        measurement = measurement_from_report(sub, raw_output=text, engine=EngineInfo(
            name="fio", version=report.fio_version, ioengine=str(options.get("ioengine", "")),
            reason=f"imported from {source.name}", effective_queue_depth=_int(options.get("iodepth"), 1),
            direct=str(options.get("direct", "0")) == "1"))
        read = combine(h.read for h in measurement.hosts)
        write = combine(h.write for h in measurement.hosts)
        workload = workload_from_fio_options(options, len(jobs))
        run = RunResult(
            started_at=_iso(report.timestamp_ms), finished_at=_iso(report.timestamp_ms), status="ok",
            engine=measurement.engine, workload=workload,
            environment=Environment(tool_versions={"fio": report.fio_version}), hosts=measurement.hosts,
            warnings=_unit_checks(f"{source.name} group {group}", read, write, options, workload.block_size_bytes),
            read=read, write=write, tags=dict(tags or {}), source=f"imported:{source.name}", raw_output=text,
            fio_steadystate=measurement.fio_steadystate, imported=_fio_provenance(source, report.fio_version, group))
        runs.append(run.model_copy(update={"job_text": reproducible_job(run)}))
    return runs


def _fio_provenance(source: SourceFile, version: str, group: int) -> Provenance:
    return Provenance(tool="fio", tool_version=version, file=source.path, part=f"group {group}", digest=source.digest,
                      latency="fio's own: total latency (lat_ns) and completion latency (clat_ns) as this fio version "
                              "wrote them (fio 2.x: clat only, in µs)",
                      figures=[SourceFigure(field=f"{side}.{name}", source=f"'{side}' of each job of group {group}",
                                            meaning="added over the group's jobs; percentiles from the added bins")
                               for side in ("read", "write") for name in ("iops", "bw_bytes_per_s", "lat_ns")])


def _unit_checks(where: str, read: DirectionStats, write: DirectionStats, options: dict[str, Any],
                 block_size_bytes: int) -> list[ValidityWarning]:
    """fio's bandwidth against its IOPS x the job's one access size (none to check with bssplit or a bs range)."""
    if any(key in options for key in ("bssplit", "bsrange", "blocksize_range")) or "," in str(options.get("bs", "")):
        return []
    found = []
    for direction, stats in (("read", read), ("write", write)):
        check = check_bandwidth(stats.bw_bytes_per_s, "b/s", iops=stats.iops, block_size_bytes=block_size_bytes)
        message = check.message(f"{where}, {direction}", "b/s")
        if message:
            found.append(ValidityWarning(code="bandwidth_contradicts_iops", message=message,
                                         concerns=[f"{direction}.bw_bytes_per_s", f"{direction}.iops"]))
    return found


def workload_from_fio_options(options: dict[str, Any], n_jobs: int) -> Workload:
    """Best effort: what the imported job measured, as far as its options tell."""
    rw = str(options.get("rw", options.get("readwrite", "read"))).split(":")[0]
    pattern = Pattern(rw) if rw in {p.value for p in Pattern} else Pattern.RANDRW if rw.startswith("rand") else Pattern.RW
    fixed = pattern.fixed_read_pct
    bs = _size(options.get("bs") or options.get("blocksize"), 4096)
    numjobs = _int(options.get("numjobs"), 1)
    return Workload(
        pattern=pattern,
        read_pct=fixed if fixed is not None else _int(options.get("rwmixread"), 50),
        block_size_bytes=max(bs // 512 * 512, 512),
        queue_depth=min(_int(options.get("iodepth"), 1), 4096),
        numjobs=min(max(numjobs, 1) if n_jobs == 1 else n_jobs, 256),
        runtime_s=max(_seconds(options.get("runtime"), 1.0), 0.001),
        ramp_s=_seconds(options.get("ramp_time"), 0.0),
        size_bytes=max(_size(options.get("size"), 1 << 30) // 512 * 512, bs // 512 * 512 * n_jobs, 512),
        target=str(options.get("filename", options.get("directory", "")))[:4096],
        direct=str(options.get("direct", "0")) == "1",
    )


def _int(value: Any, default: int) -> int:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def _size(value: Any, default: int) -> int:
    try:
        return parse_size_bytes(str(value).split(",")[0].split("-")[0]) if value is not None else default
    except ValueError:
        return default


def _seconds(value: Any, default: float) -> float:
    try:
        return parse_duration_s(str(value)) if value is not None else default
    except ValueError:
        return default


def _iso(timestamp_ms: int | None) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(timestamp_ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds") if timestamp_ms else ""


# ------------------------------------------------------------------------------------------- export

DRIVE_COLUMNS = (
    "drive_model", "drive_firmware", "drive_serial", "drive_temp_before_c", "drive_temp_after_c",
    "drive_temp_max_c", "drive_written_bytes", "drive_throttled_s", "drive_write_amplification",
)
"""The drive's own word around the run (``drive_health``), empty where it was not asked or told:
its identity, temperatures, the bytes it counted written, seconds throttled, and flash writes over
host writes where it counts its flash writes."""

CSV_COLUMNS = [
    "run_id", "started_at", "status", "engine", "ioengine", "pattern", "read_pct", "block_size_bytes", "queue_depth",
    "numjobs", "runtime_s", "ramp_s", "direct", "device_model", "interface", "direction", "io_count", "iops",
    "bw_bytes_per_s", "bw_MB_per_s", "bw_MiB_per_s", "latency_kind",
    "lat_ns_mean", "lat_ns_stddev", "lat_ns_min", "lat_ns_max", "lat_ns_p50", "lat_ns_p90", "lat_ns_p95", "lat_ns_p99",
    "lat_ns_p99_9", "lat_ns_p99_99", "slat_ns_mean", "clat_ns_mean", "clat_ns_p50", "clat_ns_p99",
    "device_mean_in_flight", "device_request_lat_ns_mean", *DRIVE_COLUMNS, "warnings", "tags",
]
"""lat_ns is total latency (submission to completion); slat_ns and clat_ns are its breakdown; direction
``all`` (a run that read and wrote) is all its I/Os together, its percentiles from the merged histogram
bins (fio's unified_rw_reporting=mixed); device_* is
the device's side of the queue (the run's ``device_queue``: mean I/Os the block layer held, and its time per
request in this direction), empty where it was not counted."""


def _latency_columns(stats: DirectionStats) -> dict[str, str]:
    lat, clat = stats.lat_ns, stats.clat_ns
    return {
        "latency_kind": stats.latency_kind, "lat_ns_mean": _num(lat.mean), "lat_ns_stddev": _num(lat.stddev),
        "lat_ns_min": _num(lat.min), "lat_ns_max": _num(lat.max), "lat_ns_p50": _num(lat.p50), "lat_ns_p90": _num(lat.p90),
        "lat_ns_p95": _num(lat.p95), "lat_ns_p99": _num(lat.p99), "lat_ns_p99_9": _num(lat.p99_9),
        "lat_ns_p99_99": _num(lat.p99_99), "slat_ns_mean": _num(stats.slat_ns.mean), "clat_ns_mean": _num(clat.mean),
        "clat_ns_p50": _num(clat.p50), "clat_ns_p99": _num(clat.p99),
    }


def _device_columns(run: RunResult, direction: str) -> dict[str, str]:
    queue = run.device_queue
    if queue is None:
        return {"device_mean_in_flight": "", "device_request_lat_ns_mean": ""}
    per_request = {"read": queue.read_request_lat_ns_mean, "write": queue.write_request_lat_ns_mean}.get(direction)
    return {"device_mean_in_flight": f"{queue.mean_in_flight:.2f}", "device_request_lat_ns_mean": _num(per_request)}


def _drive_columns(run: RunResult) -> dict[str, str]:
    record = run.drive_health
    if record is None:
        return dict.fromkeys(DRIVE_COLUMNS, "")
    drive, delta = record.before, record.delta

    def told(value: float | int | None, form: str = "{}") -> str:
        return "" if value is None else form.format(value)

    return {
        "drive_model": drive.model, "drive_firmware": drive.firmware, "drive_serial": drive.serial,
        "drive_temp_before_c": told(drive.temperature_c),
        "drive_temp_after_c": told(record.after.temperature_c if record.after else None),
        "drive_temp_max_c": told(delta.temperature_max_c if delta else None),
        "drive_written_bytes": told(delta.written_bytes if delta else None),
        "drive_throttled_s": told(delta.thermal_time_s if delta else None),
        "drive_write_amplification": told(delta.write_amplification if delta else None, "{:.3f}"),
    }


def export_json(runs: list[RunResult]) -> str:
    return json.dumps({"runs": [r.summary_json() for r in runs]}, indent=2)


def export_csv(runs: list[RunResult]) -> str:
    """One row per run and active direction, and one of all its I/Os ('all') where it read and wrote;
    units are in the column names."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for run in runs:
        for name, stats in (("read", run.read), ("write", run.write), ("all", run.mixed)):
            if not stats.active or (name == "all" and not (run.read.active and run.write.active)):
                continue
            writer.writerow({
                "run_id": run.id, "started_at": run.started_at, "status": run.status, "engine": run.engine.name,
                "ioengine": run.engine.ioengine, "pattern": run.workload.pattern.value, "read_pct": run.workload.read_pct,
                "block_size_bytes": run.workload.block_size_bytes, "queue_depth": run.workload.queue_depth,
                "numjobs": run.workload.numjobs, "runtime_s": run.workload.runtime_s, "ramp_s": run.workload.ramp_s,
                "direct": int(run.workload.direct), "device_model": run.environment.device_model,
                "interface": run.environment.interface, "direction": name, "io_count": stats.io_count,
                "iops": f"{stats.iops:.3f}", "bw_bytes_per_s": f"{stats.bw_bytes_per_s:.0f}",
                "bw_MB_per_s": f"{stats.bw_bytes_per_s / 1e6:.3f}", "bw_MiB_per_s": f"{stats.bw_bytes_per_s / 1048576:.3f}",
                **_latency_columns(stats), **_device_columns(run, name), **_drive_columns(run),
                "warnings": " | ".join(w.message for w in run.warnings),
                "tags": ";".join(f"{k}={v}" for k, v in run.tags.items()),
            })
    return out.getvalue()


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


CURVE_COLUMNS = ("pct", "offered_iops", "achieved_iops", "saturated", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9",
                 "run_id", "status", "rate_iops")


def curve_csv(summary: CurveSummary) -> str:
    """One row per curve point (the full-speed run first, its pct empty), latency in ns as stored."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CURVE_COLUMNS)
    for point in summary.points:
        row = point.model_dump()
        writer.writerow(["" if row[c] is None else row[c] for c in CURVE_COLUMNS])
    return out.getvalue()
