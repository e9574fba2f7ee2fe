"""Portable engine vs fio, side by side on the same test file, alternating which runs first.

Every point runs ``--alternations`` rounds; in each round the portable engine and the fio
references run back to back, in an order that rotates, so drift and warm-up hit all alike.
The table shows medians of the per-round ratios portable / fio for IOPS (read + write), p50
and p99 of total latency (read and write bins merged).

Two fio references; latency is total latency (fio's ``lat``, submission to completion) on
both sides, which is what the portable engine times:
- ``io_uring`` — fio's asynchronous engine, the device's own numbers: the goals (issue 15)
  are judged against it: IOPS and p50 within 10 %, p99 within 25 %.
- ``psync`` — fio with synchronous positional calls, queue depth realised as that many jobs
  (what ssdprof's fio runner does without an asynchronous engine): for context, it is CPU-bound
  at depth long before the device is.

Both fio jobs use ``scramble_buffers`` instead of the runner's ``refill_buffers``: refilling
1 MiB of random data per write costs fio ~0.3 ms of CPU per I/O, which would cap fio, not the
device, on large writes. The data is incompressible and never repeats either way.

Then what the device saw, from the operating system's disk counters (psutil; on Linux the
block layer's, /proc/diskstats) read around each run: the mean number of I/Os the block layer
held ("dev depth": the tool's IOPS x the block-layer time its I/O accumulated per I/O issued, by
Little's law) and the mean block-layer time per request. A tool's queue depth is what it keeps
outstanding; "dev depth" is how much of it reached the device, the rest being I/O stamped but
not yet submitted or completed but not yet reaped by the tool's own thread. Other I/O on the same
disk during a run adds to both (read them as context, not as goals).

The last two columns are the CPU time (user + system) each tool spent per I/O (fio's ``usr_cpu`` and
``sys_cpu``, the portable engine's measured engine CPU; ramp included on both sides): where the
device is fast enough, one core's worth of it bounds the IOPS a single submitting thread reaches.

Then the software ceiling on a RAM-backed file (/dev/shm, buffered, no device in the path):
4K random reads at QD1 per worker (where the portable engine takes its synchronous path) and
one job at QD32 (its asynchronous queue), each against fio io_uring and fio psync; goal >= 0.80.

Run: engine/.venv/bin/python bench/portable_vs_fio.py [--quick] [--target DIR] [--runtime S] [--backend NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ssdprof.fio.jobfile import FioPlan, job_file
from ssdprof.fio.output import split_documents
from ssdprof.fio.runner import FioInstall, detect_fio, run_fio
from ssdprof.model import histogram
from ssdprof.model.results import DirectionStats
from ssdprof.model.workload import Workload, parse_workload
from ssdprof.portable.engine import PortableEngine
from ssdprof.portable.proof import disk_of
from ssdprof.target.device_queue import device_queue, read_disk_times

IOPS_P50_TOLERANCE = 0.10
P99_TOLERANCE = 0.25
CEILING_GOAL = 0.80
GOAL_REFERENCE = "io_uring"
RANDOM_4K = [("4k", qd, pattern) for pattern in (("randread", 100), ("randwrite", 0)) for qd in (1, 4, 16, 32)]
SEQUENTIAL = [(block, 4, pattern) for block in ("128k", "1m") for pattern in (("read", 100), ("write", 0))]
FULL_GRID = RANDOM_4K + SEQUENTIAL
QUICK_GRID = [("4k", 1, ("randread", 100)), ("4k", 32, ("randread", 100)), ("4k", 16, ("randwrite", 0)),
              ("128k", 4, ("read", 100)), ("1m", 4, ("write", 0))]


@dataclass(frozen=True)
class Figures:
    iops: float
    p50_ns: float
    p99_ns: float
    cpu_us_per_io: float
    """CPU time (user + system) of the engine per I/O: what one I/O cost the tool, not the device."""
    device_in_flight: float = float("nan")
    """Mean I/Os the block layer held during the run (see the module docstring)."""
    device_request_us: float = float("nan")
    """Mean block-layer time per request, µs."""


class DeviceSide:
    """The disk's counters around one run: how deep the device's queue really was (ssdprof.target.device_queue)."""

    def __init__(self, path: Path, workload: Workload):
        self._disk = disk_of(path)
        self._workload = workload
        self._before = read_disk_times(self._disk) if self._disk else None

    def figures(self, figures: Figures) -> Figures:
        after = read_disk_times(self._disk) if self._disk else None
        if self._disk is None or self._before is None or after is None:
            return figures
        reads = self._workload.read_pct > 0
        stats = DirectionStats(iops=figures.iops, io_count=1)
        queue = device_queue(self._disk, self._before, after, read=stats if reads else DirectionStats(),
                             write=DirectionStats() if reads else stats, block_size_bytes=self._workload.block_size_bytes,
                             requested_outstanding=self._workload.outstanding_ios)
        if queue is None:
            return figures
        per_request = queue.read_request_lat_ns_mean if reads else queue.write_request_lat_ns_mean
        return replace(figures, device_in_flight=queue.mean_in_flight,
                       device_request_us=per_request / 1e3 if per_request is not None else float("nan"))


def _figures(iops: float, bins: dict[int, int], cpu_us_per_io: float) -> Figures:
    p50, p99 = histogram.percentiles(bins, [Fraction(50), Fraction(99)])
    if p50 is None or p99 is None or iops <= 0:
        raise RuntimeError("no I/O was measured")
    return Figures(iops, float(p50), float(p99), cpu_us_per_io)


def portable_figures(engine: PortableEngine, workload: Workload, path: Path) -> Figures:
    device = DeviceSide(path, workload)
    measurement = engine.measure(workload, path, is_device=False, on_progress=None, cancel=threading.Event())
    if measurement.errors:
        raise RuntimeError("; ".join(measurement.errors))
    host = measurement.hosts[0]
    iops = host.read.iops + host.write.iops
    raw = json.loads(measurement.raw_output or "{}")  # the engine's CPU over the whole run (ramp included)
    cpu_us = raw["engine_cpu_s"] / (iops * raw["wall_s"]) * 1e6 if iops and raw.get("wall_s") else float("nan")
    return device.figures(_figures(iops, histogram.merge([host.read.lat_bins_ns, host.write.lat_bins_ns]), cpu_us))


def fio_figures(install: FioInstall, workload: Workload, path: Path, plan: FioPlan) -> Figures:
    """IOPS and total-latency (submission to completion) percentiles of one fio run."""
    device = DeviceSide(path, workload)
    text = job_file(workload, str(path), plan).replace("refill_buffers=1", "scramble_buffers=1")
    text = text.replace("\n[ssdprof]", "lat_percentiles=1\n\n[ssdprof]")
    run = run_fio(install, text, workload=workload)
    documents, _ = split_documents(run.raw_output)
    jobs: list[dict[str, Any]] = documents[-1]["jobs"]
    iops = sum(float(job[d]["iops"]) for job in jobs for d in ("read", "write"))
    bins = histogram.merge({int(v): int(c) for v, c in (job[d]["lat_ns"].get("bins") or {}).items()}
                           for job in jobs for d in ("read", "write"))
    cpu_s = sum((float(job["usr_cpu"]) + float(job["sys_cpu"])) / 100 * float(job["job_runtime"]) / 1000 for job in jobs)
    ios = sum(int(job[d]["total_ios"]) for job in jobs for d in ("read", "write"))
    return device.figures(_figures(iops, bins, cpu_s / ios * 1e6 if ios else float("nan")))


def psync_plan(workload: Workload) -> FioPlan:
    return FioPlan("psync", 1, workload.outstanding_ios, "synchronous calls, queue depth as jobs")


def uring_plan(workload: Workload) -> FioPlan:
    return FioPlan("io_uring", workload.queue_depth, workload.numjobs, "fio's asynchronous engine on Linux")


Runner = Callable[[], Figures]


def alternate(runners: dict[str, Runner], rounds: int) -> list[dict[str, Figures]]:
    """Each round runs every engine once; the order rotates by one each round."""
    names = list(runners)
    results = []
    for round_number in range(rounds):
        shift = round_number % len(names)
        order = names[shift:] + names[:shift]
        results.append({name: runners[name]() for name in order})
    return results


def median_ratio(rounds: list[dict[str, Figures]], reference: str, field: Callable[[Figures], float]) -> float:
    return statistics.median(field(r["portable"]) / field(r[reference]) for r in rounds)


def mark(ratio: float, tolerance: float) -> str:
    return "ok" if abs(ratio - 1) <= tolerance else "MISS"


def run_grid(args: argparse.Namespace, install: FioInstall) -> int:
    grid = [point for point in (QUICK_GRID if args.quick else FULL_GRID)
            if not args.queue_depths or point[1] in args.queue_depths]
    portable = PortableEngine("bench", backend=args.backend)
    misses = 0
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        path = Path(scratch) / "ssdprof-testfile-bench.dat"
        portable.layout(path, args.size, direct=True)
        print(f"device grid: {len(grid)} points x {args.alternations} rounds, {args.runtime:g} s + {args.ramp:g} s ramp, "
              f"{args.size >> 20} MiB file in {scratch}; portable backend {portable.backend.name}")
        print(f"{'':24} {'---- vs fio io_uring (goals) ----':>51}   {'-- vs fio psync --':>20}")
        print(f"{'point':24} {'fio IOPS':>9} {'port IOPS':>9} {'IOPS':>6} {'p50':>6} {'p99':>6} {'':10}   "
              f"{'IOPS':>6} {'p50':>6} {'p99':>6}   CPU us/I/O   dev depth   blk us/request  (portable, fio io_uring)")
        for block, qd, (pattern, read_pct) in grid:
            workload = parse_workload({"pattern": pattern, "read_pct": read_pct, "block_size_bytes": block, "queue_depth": qd,
                                       "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": args.size,
                                       "target": scratch})
            rounds = alternate({
                "portable": lambda w=workload: portable_figures(portable, w, path),
                "io_uring": lambda w=workload: fio_figures(install, w, path, uring_plan(w)),
                "psync": lambda w=workload: fio_figures(install, w, path, psync_plan(w)),
            }, args.alternations)
            misses += _print_point(workload, rounds)
    return misses


def _print_point(workload: Workload, rounds: list[dict[str, Figures]]) -> int:
    ratios = {ref: [median_ratio(rounds, ref, lambda x: x.iops), median_ratio(rounds, ref, lambda x: x.p50_ns),
                    median_ratio(rounds, ref, lambda x: x.p99_ns)] for ref in ("io_uring", "psync")}
    tolerances = [IOPS_P50_TOLERANCE, IOPS_P50_TOLERANCE, P99_TOLERANCE]
    marks = [mark(r, t) for r, t in zip(ratios[GOAL_REFERENCE], tolerances, strict=True)]
    fio_iops = statistics.median(r[GOAL_REFERENCE].iops for r in rounds)
    port_iops = statistics.median(r["portable"].iops for r in rounds)
    goal, psync = ratios[GOAL_REFERENCE], ratios["psync"]
    def median(field: Callable[[Figures], float]) -> dict[str, float]:
        return {name: statistics.median(field(r[name]) for r in rounds) for name in ("portable", GOAL_REFERENCE)}

    cpu, depth, blk = median(lambda x: x.cpu_us_per_io), median(lambda x: x.device_in_flight), median(lambda x: x.device_request_us)
    print(f"{workload.label:24} {fio_iops:9.0f} {port_iops:9.0f} {goal[0]:6.3f} {goal[1]:6.3f} {goal[2]:6.3f} "
          f"{' '.join(marks):10}   {psync[0]:6.3f} {psync[1]:6.3f} {psync[2]:6.3f}   "
          f"{cpu['portable']:5.1f} {cpu[GOAL_REFERENCE]:5.1f}   {depth['portable']:5.1f} {depth[GOAL_REFERENCE]:5.1f}   "
          f"{blk['portable']:6.0f} {blk[GOAL_REFERENCE]:6.0f}", flush=True)
    return marks.count("MISS")


def run_ceiling(args: argparse.Namespace, install: FioInstall) -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir():
        print("software ceiling: skipped (no /dev/shm)")
        return
    portable = PortableEngine("bench", backend=args.backend)
    with tempfile.TemporaryDirectory(prefix="ssdprof-ceiling-", dir=shm) as scratch:
        path = Path(scratch) / "ssdprof-testfile-ceiling.dat"
        portable.layout(path, 256 << 20, direct=False)
        print(f"software ceiling: RAM-backed file, buffered 4K randread, {os.cpu_count()} cores (goal >= {CEILING_GOAL}); "
              "portable = the engine's own choice: the synchronous call at QD1, the asynchronous queue deeper")
        for qd, jobs in [(1, workers) for workers in args.workers] + [(32, 1)]:
            workload = parse_workload({"pattern": "randread", "block_size_bytes": "4k", "queue_depth": qd, "numjobs": jobs,
                                       "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": 256 << 20,
                                       "target": scratch, "direct": False})
            rounds = alternate({
                "portable": lambda w=workload: portable_figures(portable, w, path),
                "io_uring": lambda w=workload: fio_figures(install, w, path, uring_plan(w)),
                "psync": lambda w=workload: fio_figures(install, w, path, psync_plan(w)),
            }, args.alternations)
            method = portable.backend_for(qd).name
            parts = [f"{_ceiling_ratio(rounds, reference)} vs fio {reference}" for reference in ("io_uring", "psync")]
            print(f"  QD{qd} x {jobs} job(s), portable {method}: "
                  f"{statistics.median(r['portable'].iops for r in rounds):8.0f} IOPS; " + ";  ".join(parts), flush=True)


def _ceiling_ratio(rounds: list[dict[str, Figures]], reference: str) -> str:
    ratio = statistics.median(r["portable"].iops / r[reference].iops for r in rounds)
    return (f"fio {statistics.median(r[reference].iops for r in rounds):8.0f} IOPS, ratio {ratio:.3f} "
            f"({'met' if ratio >= CEILING_GOAL else 'NOT MET'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="6 points, short runs: a few minutes")
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"), help="a folder on the disk to measure")
    parser.add_argument("--runtime", type=float, help="seconds per run (default 5, quick 2)")
    parser.add_argument("--ramp", type=float, help="ramp seconds per run (default 1, quick 0.5)")
    parser.add_argument("--size", type=int, help="test file bytes (default 1 GiB, quick 256 MiB)")
    parser.add_argument("--alternations", type=int, default=5, help="rounds per point (default 5)")
    parser.add_argument("--workers", type=lambda s: [int(x) for x in s.split(",")], help="ceiling workers, e.g. 1,2,4")
    parser.add_argument("--skip-grid", action="store_true", help="only the software ceiling")
    parser.add_argument("--queue-depths", type=lambda s: [int(x) for x in s.split(",")], help="only these grid points, e.g. 16,32")
    parser.add_argument("--skip-ceiling", action="store_true", help="only the device grid")
    parser.add_argument("--backend", help="the portable engine's I/O interface (default: this OS's first that runs)")
    args = parser.parse_args()
    args.runtime = args.runtime or (2.0 if args.quick else 5.0)
    args.ramp = args.ramp if args.ramp is not None else (0.5 if args.quick else 1.0)
    args.size = args.size or ((256 if args.quick else 1024) << 20)
    args.workers = args.workers or ([1, 2] if args.quick else [1, 2, 4])
    install = detect_fio()
    if install is None:
        raise SystemExit("fio is not installed: the benchmark compares against it")
    started = time.monotonic()
    print(f"{install.version}; load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    misses = 0 if args.skip_grid else run_grid(args, install)
    if not args.skip_ceiling:
        run_ceiling(args, install)
    print(f"done in {time.monotonic() - started:.0f} s; load average at end {os.getloadavg()[0]:.2f}; "
          f"{misses} figure(s) outside their goal (judged against fio {GOAL_REFERENCE})")


if __name__ == "__main__":
    main()
