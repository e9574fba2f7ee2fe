"""Runs written as the folder tree of fio JSON files that fio-plot reads (bench-fio's layout), so
``fio-plot -i DIR/<target>/<size> -T title -l -r randread`` draws them.

The layout, from bench-fio's code (benchlib/supporting.py, runfio.py)::

    DIR/<target's base name>/<access size>/<rw>-<iodepth>-<numjobs>.json
    DIR/<target's base name>/<rw><rwmixread>/<access size>/...        a mixed pattern
    .../run-<n>/...                                                   each repeat, where there are several

Each file is one fio 3.x JSON document with one job: the run's aggregate (a run on several hosts is
written as its total, as fio's group reporting would). fio-plot reads ``lat_ns`` (total latency, the
figure ssdprof means by latency), so a run that recorded completion latency only is refused rather
than drawn as if it were total. ``iops_stddev`` is over the run's per-second IOPS, as fio's is over its
own samples. Figures the run does not have (fio's per-job CPU; the spread of a run without a
per-second series) are written as 0 and named in the file's ``ssdprof`` note.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path, PurePosixPath
from typing import Any

from ssdprof.model import histogram
from ssdprof.model.direction import DirectionStats, LatencyStats
from ssdprof.model.results import RunResult
from ssdprof.model.workload import WorkloadError

__all__ = ["fio_plot_files", "write_fio_plot"]

_PERCENTILE_KEYS = {"p50": "50.000000", "p90": "90.000000", "p95": "95.000000", "p99": "99.000000",
                    "p99_9": "99.900000", "p99_99": "99.990000"}
_EDGES = {"latency_ns": [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000],
          "latency_us": [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000],
          "latency_ms": [2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000]}
_SCALE = {"latency_ns": 1, "latency_us": 1000, "latency_ms": 1_000_000}


def _size(size: int) -> str:
    """bench-fio's folder name for an access size: fio's own spelling, e.g. 4k, 128k, 1m, 512."""
    for unit, shift in (("m", 20), ("k", 10)):
        if size % (1 << shift) == 0:
            return f"{size >> shift}{unit}"
    return str(size)


def _place(run: RunResult) -> PurePosixPath:
    workload = run.workload
    target = PurePosixPath(workload.target.replace("\\", "/")).name or "ssdprof"
    rw = workload.pattern.value
    folder = PurePosixPath(target)
    if workload.pattern.fixed_read_pct is None:
        folder /= f"{rw}{workload.read_pct}"
    return folder / _size(workload.block_size_bytes) / f"{rw}-{workload.queue_depth}-{workload.numjobs}.json"


def _latency(stats: LatencyStats, samples: int) -> dict[str, Any]:
    found: dict[str, Any] = {"min": stats.min or 0, "max": stats.max or 0, "mean": stats.mean or 0.0,
                             "stddev": stats.stddev or 0.0, "N": samples}
    given = {_PERCENTILE_KEYS[name]: round(value) for name in _PERCENTILE_KEYS if (value := getattr(stats, name)) is not None}
    if given:
        found["percentile"] = given
    return found


def _iops_spread(run: RunResult, side: str) -> tuple[float, int]:
    """The standard deviation of the run's per-second IOPS in a direction and how many seconds (fio's iops_stddev
    is the same over its own samples); (0, 0) for a run without a per-second series."""
    samples = [getattr(p, f"{side}_iops") for p in run.progress if not p.ramping]
    if len(samples) < 2:
        return 0.0, 0
    mean = sum(samples) / len(samples)
    return (sum((x - mean) ** 2 for x in samples) / (len(samples) - 1)) ** 0.5, len(samples)


def _direction(stats: DirectionStats, spread: tuple[float, int] = (0.0, 0)) -> dict[str, Any]:
    runtime_ms = round(stats.runtime_ms)
    slat = LatencyStats.model_validate(stats.slat_ns.model_dump())
    return {"io_bytes": stats.io_bytes, "io_kbytes": stats.io_bytes // 1024, "bw_bytes": round(stats.bw_bytes_per_s),
            "bw": round(stats.bw_bytes_per_s / 1024), "iops": stats.iops, "runtime": runtime_ms, "total_ios": stats.io_count,
            "short_ios": 0, "drop_ios": 0, "slat_ns": _latency(slat, stats.slat_ns.samples),
            "clat_ns": _latency(stats.clat_ns, stats.clat_ns.samples), "lat_ns": _latency(stats.lat_ns, stats.io_count),
            "bw_min": 0, "bw_max": 0, "bw_agg": 100.0 if stats.active else 0.0, "bw_mean": stats.bw_bytes_per_s / 1024,
            "bw_dev": 0.0, "bw_samples": 0, "iops_min": 0, "iops_max": 0, "iops_mean": stats.iops, "iops_stddev": spread[0],
            "iops_samples": spread[1]}


def _distribution(run: RunResult) -> dict[str, dict[str, float]]:
    """fio's share of I/Os per latency band (latency_ns/us/ms), from the run's total-latency bins; 0 without bins."""
    bins = histogram.merge([run.read.lat_bins_ns, run.write.lat_bins_ns])
    total = sum(bins.values())
    found: dict[str, dict[str, float]] = {}
    for name, edges in _EDGES.items():
        scale, shares, low = _SCALE[name], {}, 0
        for edge in edges:
            count = sum(c for v, c in bins.items() if low * scale <= v < edge * scale) if total else 0
            shares[str(edge)] = 100.0 * count / total if total else 0.0
            low = edge
        if name == "latency_ms":
            shares[">=2000"] = 100.0 * sum(c for v, c in bins.items() if v >= 2000 * scale) / total if total else 0.0
        found[name] = shares
    return found


def _document(run: RunResult) -> dict[str, Any]:
    workload = run.workload
    options = {"rw": workload.pattern.value, "bs": _size(workload.block_size_bytes), "iodepth": str(workload.queue_depth),
               "numjobs": str(workload.numjobs), "size": str(workload.size_bytes), "direct": "1" if workload.direct else "0",
               "ioengine": run.engine.ioengine or run.engine.name, "runtime": str(workload.runtime_s),
               "ramp_time": str(workload.ramp_s)}
    if workload.pattern.fixed_read_pct is None:
        options["rwmixread"] = str(workload.read_pct)
    job = {"jobname": workload.label, "groupid": 0, "error": 0, "eta": 0, "elapsed": round(workload.runtime_s),
           "job options": dict(options), "read": _direction(run.read, _iops_spread(run, "read")),
           "write": _direction(run.write, _iops_spread(run, "write")),
           "trim": _direction(DirectionStats()), "sync": {"total_ios": 0, "lat_ns": _latency(LatencyStats(), 0)},
           "job_runtime": round(max(run.read.runtime_ms, run.write.runtime_ms)), "usr_cpu": 0.0, "sys_cpu": 0.0, "ctx": 0,
           "majf": 0, "minf": 0, "iodepth_level": {}, "latency_depth": workload.queue_depth, "latency_target": 0,
           "latency_percentile": 100.0, "latency_window": 0, **_distribution(run)}
    version = run.engine.version if run.engine.name == "fio" and run.engine.version else f"{run.engine.name} {run.engine.version}".strip()
    return {"fio version": version, "timestamp": 0, "time": run.started_at, "global options": options, "jobs": [job],
            "ssdprof": {"run_id": run.id, "source": run.source, "hosts": [h.host for h in run.hosts],
                        "not_recorded": ["usr_cpu", "sys_cpu", "ctx", "iops and bw min and max over time"]
                        + ([] if run.progress else ["iops_stddev (no per-second series)"])}}


def fio_plot_files(runs: list[RunResult]) -> dict[str, bytes]:
    """Relative path -> the fio JSON of each run; a repeat goes in its own run-<n> folder."""
    refused = [r for r in runs if any(d.active and d.latency_kind in ("completion_only", "none") for d in (r.read, r.write))]
    if refused:
        listed = ", ".join(f"run {r.id} ({next(d.latency_kind for d in (r.read, r.write) if d.active)})" for r in refused[:5])
        raise WorkloadError.single("run_ids", "RUN_ID", f"fio-plot draws total latency (fio's lat_ns), which {listed} did not "
                                   "record; leave them out (export the runs by id)")
    placed: dict[PurePosixPath, list[RunResult]] = defaultdict(list)
    for run in runs:
        placed[_place(run)].append(run)
    repeated = any(len(group) > 1 for group in placed.values())
    files: dict[str, bytes] = {}
    for path, group in placed.items():
        repeats = [r.repeat for r in group]
        if len(set(repeats)) != len(repeats):
            ids = ", ".join(str(r.id) for r in group)
            raise WorkloadError.single("run_ids", "RUN_ID", f"runs {ids} are one fio-plot file ({path}): fio-plot tells runs "
                                       "apart only by target, access size, pattern, queue depth and jobs; export them apart")
        for run in group:
            where = path.parent / f"run-{run.repeat + 1}" / path.name if repeated else path
            files[str(where)] = (json.dumps(_document(run), indent=2) + "\n").encode()
    return files


def write_fio_plot(runs: list[RunResult], folder: Path) -> list[Path]:
    """Every file under ``folder`` (made if missing); refuses to overwrite a file already there."""
    files = fio_plot_files(runs)
    existing = [name for name in files if (folder / name).exists()]
    if existing:
        raise WorkloadError.single("output", "DIR", f"{folder / existing[0]} exists already; choose an empty folder")
    written = []
    for name, data in sorted(files.items()):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written
