"""Portable engine vs fio, side by side on the same test file, alternating which runs first.

Every point runs ``--alternations`` rounds; in each round the portable engine and the fio
references run back to back, in an order that rotates, so drift and warm-up hit all alike.
The table shows medians of the per-round ratios portable / fio for IOPS (read + write), p50
and p99 (read and write bins merged).

Two fio references, because they time different things:
- ``psync`` — fio with the same I/O method as the portable engine (synchronous positional
  calls, queue depth realised as that many jobs, as ssdprof's fio runner does without an
  asynchronous engine). Its clat is the whole call, exactly what the portable engine times,
  so these ratios isolate Python against C. The goals are judged against it.
- ``async`` — fio with the engine ssdprof's runner picks here (io_uring/libaio). Its clat
  starts after the submission system call returns, so it leaves out the submission time a
  synchronous call includes; the table compares against its total latency (``lat``,
  submission to completion, what the application waits), and shows its IOPS ratio.

Both fio jobs use ``scramble_buffers`` instead of the runner's ``refill_buffers``: refilling
1 MiB of random data per write costs fio ~0.3 ms of CPU per I/O, which would cap fio, not the
device, on large writes. The data is incompressible and never repeats either way.

Goals (issue 3): IOPS and p50 within 5 %; p99 within 15 % up to QD4 and 25 % at QD32. Then the
software ceiling: a RAM-backed file (/dev/shm), buffered, 4K random reads at QD1 per worker,
no device in the path: portable / fio psync (goal >= 0.80), and how it scales with workers.

Run: engine/.venv/bin/python bench/portable_vs_fio.py [--quick] [--target DIR] [--runtime S]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ssdprof.fio import histogram
from ssdprof.fio.output import split_documents
from ssdprof.fio.runner import (
    FioInstall,
    FioPlan,
    detect_fio,
    job_file,
    plan_fio,
    run_fio,
)
from ssdprof.model.workload import Workload, parse_workload
from ssdprof.portable.engine import PortableEngine

IOPS_P50_TOLERANCE = 0.05
CEILING_GOAL = 0.80
PATTERNS = [("read", 100), ("write", 0), ("randread", 100), ("randwrite", 0), ("randrw", 70)]
FULL_GRID = list(itertools.product(["4k", "128k", "1m"], [1, 4, 32], PATTERNS))
QUICK_GRID = [("4k", 1, ("randread", 100)), ("4k", 32, ("randread", 100)), ("4k", 1, ("randwrite", 0)),
              ("4k", 4, ("randrw", 70)), ("128k", 4, ("read", 100)), ("1m", 1, ("write", 0))]


def p99_tolerance(queue_depth: int) -> float:
    return 0.15 if queue_depth <= 4 else 0.25


@dataclass(frozen=True)
class Figures:
    iops: float
    p50_ns: float
    p99_ns: float


def _figures(iops: float, bins: dict[int, int]) -> Figures:
    p50, p99 = histogram.percentiles(bins, [Fraction(50), Fraction(99)])
    if p50 is None or p99 is None or iops <= 0:
        raise RuntimeError("no I/O was measured")
    return Figures(iops, float(p50), float(p99))


def portable_figures(engine: PortableEngine, workload: Workload, path: Path) -> Figures:
    measurement = engine.measure(workload, path, is_device=False, on_progress=None, cancel=threading.Event())
    if measurement.errors:
        raise RuntimeError("; ".join(measurement.errors))
    host = measurement.hosts[0]
    return _figures(host.read.iops + host.write.iops, histogram.merge([host.read.bins_ns, host.write.bins_ns]))


def fio_figures(install: FioInstall, workload: Workload, path: Path, plan: FioPlan) -> Figures:
    """IOPS and total-latency (submission to completion) percentiles of one fio run."""
    text = job_file(workload, str(path), plan).replace("refill_buffers=1", "scramble_buffers=1")
    text = text.replace("\n[ssdprof]", "lat_percentiles=1\n\n[ssdprof]")
    run = run_fio(install, text, workload=workload)
    documents, _ = split_documents(run.raw_output)
    jobs: list[dict[str, Any]] = documents[-1]["jobs"]
    iops = sum(float(job[d]["iops"]) for job in jobs for d in ("read", "write"))
    bins = histogram.merge({int(v): int(c) for v, c in (job[d]["lat_ns"].get("bins") or {}).items()}
                           for job in jobs for d in ("read", "write"))
    return _figures(iops, bins)


def psync_plan(workload: Workload) -> FioPlan:
    return FioPlan("psync", 1, workload.outstanding_ios, "the portable engine's own I/O method")


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
    grid = QUICK_GRID if args.quick else FULL_GRID
    portable = PortableEngine("bench")
    misses = 0
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        path = Path(scratch) / "ssdprof-testfile-bench.dat"
        portable.layout(path, args.size, direct=True)
        print(f"device grid: {len(grid)} points x {args.alternations} rounds, {args.runtime:g} s + {args.ramp:g} s ramp, "
              f"{args.size >> 20} MiB file in {scratch}")
        print(f"{'':28} {'-- vs fio psync (goals) --':>45}   {'-- vs fio ' + _async_name(install) + ' (lat) --':>28}")
        print(f"{'point':28} {'fio IOPS':>9} {'port IOPS':>9} {'IOPS':>6} {'p50':>6} {'p99':>6}   {'IOPS':>6} {'p50':>6} {'p99':>6}")
        for block, qd, (pattern, read_pct) in grid:
            workload = parse_workload({"pattern": pattern, "read_pct": read_pct, "block_size_bytes": block, "queue_depth": qd,
                                       "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": args.size,
                                       "target": scratch})
            rounds = alternate({
                "portable": lambda w=workload: portable_figures(portable, w, path),
                "psync": lambda w=workload: fio_figures(install, w, path, psync_plan(w)),
                "async": lambda w=workload: fio_figures(install, w, path, plan_fio(install, w)),
            }, args.alternations)
            misses += _print_point(workload, rounds)
    return misses


def _async_name(install: FioInstall) -> str:
    return plan_fio(install, parse_workload({"queue_depth": 4})).ioengine


def _print_point(workload: Workload, rounds: list[dict[str, Figures]]) -> int:
    ratios = {ref: [median_ratio(rounds, ref, lambda x: x.iops), median_ratio(rounds, ref, lambda x: x.p50_ns),
                    median_ratio(rounds, ref, lambda x: x.p99_ns)] for ref in ("psync", "async")}
    tolerances = [IOPS_P50_TOLERANCE, IOPS_P50_TOLERANCE, p99_tolerance(workload.queue_depth)]
    marks = [mark(r, t) for r, t in zip(ratios["psync"], tolerances, strict=True)]
    fio_iops = statistics.median(r["psync"].iops for r in rounds)
    port_iops = statistics.median(r["portable"].iops for r in rounds)
    psync, other = ratios["psync"], ratios["async"]
    print(f"{workload.label:28} {fio_iops:9.0f} {port_iops:9.0f} {psync[0]:6.3f} {psync[1]:6.3f} {psync[2]:6.3f}   "
          f"{other[0]:6.3f} {other[1]:6.3f} {other[2]:6.3f}  {' '.join(marks)}", flush=True)
    return marks.count("MISS")


def run_ceiling(args: argparse.Namespace, install: FioInstall) -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir():
        print("software ceiling: skipped (no /dev/shm)")
        return
    portable = PortableEngine("bench")
    with tempfile.TemporaryDirectory(prefix="ssdprof-ceiling-", dir=shm) as scratch:
        path = Path(scratch) / "ssdprof-testfile-ceiling.dat"
        portable.layout(path, 256 << 20, direct=False)
        print(f"software ceiling: RAM-backed file, buffered 4K randread, QD1 per worker, {os.cpu_count()} cores "
              f"(portable / fio psync, goal >= {CEILING_GOAL})")
        for workers in args.workers:
            workload = parse_workload({"pattern": "randread", "block_size_bytes": "4k", "queue_depth": 1, "numjobs": workers,
                                       "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": 256 << 20,
                                       "target": scratch, "direct": False})
            rounds = alternate({"portable": lambda w=workload: portable_figures(portable, w, path),
                                "psync": lambda w=workload: fio_figures(install, w, path, psync_plan(w))}, args.alternations)
            ratio = median_ratio(rounds, "psync", lambda x: x.iops)
            print(f"  {workers} worker(s): fio psync {statistics.median(r['psync'].iops for r in rounds):9.0f} IOPS, "
                  f"portable {statistics.median(r['portable'].iops for r in rounds):9.0f} IOPS, ratio {ratio:.3f}  "
                  f"{'met' if ratio >= CEILING_GOAL else 'NOT MET'}", flush=True)


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
    run_ceiling(args, install)
    print(f"done in {time.monotonic() - started:.0f} s; load average at end {os.getloadavg()[0]:.2f}; "
          f"{misses} figure(s) outside their goal (judged against fio psync)")


if __name__ == "__main__":
    main()
