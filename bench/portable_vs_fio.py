"""Portable engine vs fio io_uring, side by side on the same test file, alternating which runs first.

Every point runs ``--alternations`` rounds (default 5); in each round the portable engine and fio
io_uring run back to back, in an order that rotates, so drift and other work on the machine hit both
alike. The table shows medians of the per-round ratios portable / fio for IOPS (read + write) and for
p50 and p99 of total latency (fio's ``lat``, submission to completion; read and write bins merged),
judged against the goals of issue 37: IOPS and p50 within ±10 %, p99 within ±15 %.

The grid: 4 KiB random reads, random writes and a 70/30 mix at QD 1, 4, 16, 32 and 128, and 128 KiB
sequential reads and writes at QD 8, one job. The portable engine runs its compiled loop
(``engine/native``, ``--loop native``) unless ``--loop python`` asks for the Python loop.

fio's job is the one ssdprof writes (``ssdprof.fio.jobfile``) with ``lat_percentiles=1``, so both sides
give total-latency bins. Beside the ratios: each tool's CPU time (user + system) per I/O (fio's
``usr_cpu``/``sys_cpu`` over its job runtime; the compiled loop's own getrusage over its run, ramp
included) and, from the disk's counters around each run, the mean number of I/Os the block layer held
("dev depth", Little's law; ssdprof.target.device_queue).

Run: engine/.venv/bin/python bench/portable_vs_fio.py [--quick] [--target DIR] [--runtime S] [--loop native|python]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
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
P99_TOLERANCE = 0.15
REFERENCE = "fio"
MIXES = (("randread", 100), ("randwrite", 0), ("randrw", 70))
FULL_GRID = [("4k", qd, mix) for mix in MIXES for qd in (1, 4, 16, 32, 128)] + \
    [("128k", 8, ("read", 100)), ("128k", 8, ("write", 0))]
QUICK_GRID = [("4k", 1, MIXES[0]), ("4k", 32, MIXES[0]), ("4k", 16, MIXES[1]), ("4k", 32, MIXES[2]),
              ("128k", 8, ("read", 100))]


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
    return device.figures(_figures(iops, histogram.merge([host.read.lat_bins_ns, host.write.lat_bins_ns]),
                                   _portable_cpu_us_per_io(measurement.raw_output, iops)))


def _portable_cpu_us_per_io(raw_output: str, iops: float) -> float:
    """The compiled loop's CPU over its run per I/O it issued; the Python loop's engine CPU over its wall time."""
    lines = [json.loads(line) for line in raw_output.splitlines() if line.startswith("{")]
    result = next((line for line in lines if line.get("type") == "result"), None)
    if result is not None:
        ios = result["issued_read_ios"] + result["issued_write_ios"]
        return (result["cpu_user_ns"] + result["cpu_system_ns"]) / 1e3 / ios if ios else float("nan")
    raw: dict[str, Any] = json.loads(raw_output or "{}")
    return raw["engine_cpu_s"] / (iops * raw["wall_s"]) * 1e6 if iops and raw.get("wall_s") else float("nan")


def fio_figures(install: FioInstall, workload: Workload, path: Path) -> Figures:
    """IOPS and total-latency (submission to completion) percentiles of one fio io_uring run."""
    device = DeviceSide(path, workload)
    plan = FioPlan("io_uring", workload.queue_depth, workload.numjobs, "fio's asynchronous engine on Linux")
    run = run_fio(install, job_file(workload, str(path), plan), workload=workload)
    documents, _ = split_documents(run.raw_output)
    jobs: list[dict[str, Any]] = documents[-1]["jobs"]
    iops = sum(float(job[d]["iops"]) for job in jobs for d in ("read", "write"))
    bins = histogram.merge({int(v): int(c) for v, c in (job[d]["lat_ns"].get("bins") or {}).items()}
                           for job in jobs for d in ("read", "write"))
    cpu_s = sum((float(job["usr_cpu"]) + float(job["sys_cpu"])) / 100 * float(job["job_runtime"]) / 1000 for job in jobs)
    ios = sum(int(job[d]["total_ios"]) for job in jobs for d in ("read", "write"))
    return device.figures(_figures(iops, bins, cpu_s / ios * 1e6 if ios else float("nan")))


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


def median_ratio(rounds: list[dict[str, Figures]], field: Callable[[Figures], float]) -> float:
    return statistics.median(field(r["portable"]) / field(r[REFERENCE]) for r in rounds)


def mark(ratio: float, tolerance: float) -> str:
    return "ok" if abs(ratio - 1) <= tolerance else "MISS"


def run_grid(args: argparse.Namespace, install: FioInstall) -> int:
    grid = [point for point in (QUICK_GRID if args.quick else FULL_GRID)
            if not args.queue_depths or point[1] in args.queue_depths]
    portable = PortableEngine("bench", loop=args.loop)
    native = portable.native
    misses = 0
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        path = Path(scratch) / "ssdprof-testfile-bench.dat"
        portable.layout(path, args.size, direct=True)
        loop = f"compiled loop {native.path}" if native else f"Python loop ({portable.native_refusal})"
        print(f"grid: {len(grid)} points x {args.alternations} rounds, {args.runtime:g} s + {args.ramp:g} s ramp, "
              f"{args.size >> 20} MiB file in {scratch}; portable: {loop}")
        print(f"{'point':26} {'fio IOPS':>9} {'port IOPS':>9} {'IOPS':>6} {'p50':>6} {'p99':>6} {'goals':14} "
              f"{'fio p50 us':>10} {'fio p99 us':>10}   CPU us/I/O port / fio   dev depth port / fio   load   "
              "IOPS ratio per round")
        for block, qd, (pattern, read_pct) in grid:
            workload = parse_workload({"pattern": pattern, "read_pct": read_pct, "block_size_bytes": block, "queue_depth": qd,
                                       "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": args.size,
                                       "target": scratch})
            rounds = alternate({
                "portable": lambda w=workload: portable_figures(portable, w, path),
                REFERENCE: lambda w=workload: fio_figures(install, w, path),
            }, args.alternations)
            misses += _print_point(workload, rounds)
    return misses


def _print_point(workload: Workload, rounds: list[dict[str, Figures]]) -> int:
    ratios = [median_ratio(rounds, lambda x: x.iops), median_ratio(rounds, lambda x: x.p50_ns),
              median_ratio(rounds, lambda x: x.p99_ns)]
    marks = [mark(r, t) for r, t in zip(ratios, [IOPS_P50_TOLERANCE, IOPS_P50_TOLERANCE, P99_TOLERANCE], strict=True)]

    def median(name: str, field: Callable[[Figures], float]) -> float:
        return statistics.median(field(r[name]) for r in rounds)

    print(f"{workload.label:26} {median(REFERENCE, lambda x: x.iops):9.0f} {median('portable', lambda x: x.iops):9.0f} "
          f"{ratios[0]:6.3f} {ratios[1]:6.3f} {ratios[2]:6.3f} {' '.join(marks):14} "
          f"{median(REFERENCE, lambda x: x.p50_ns) / 1e3:10.1f} {median(REFERENCE, lambda x: x.p99_ns) / 1e3:10.1f}   "
          f"{median('portable', lambda x: x.cpu_us_per_io):8.2f} / {median(REFERENCE, lambda x: x.cpu_us_per_io):5.2f}"
          f"        {median('portable', lambda x: x.device_in_flight):5.1f} / {median(REFERENCE, lambda x: x.device_in_flight):5.1f}"
          f"       {os.getloadavg()[0]:4.1f}   "
          + " ".join(f"{r['portable'].iops / r[REFERENCE].iops:.2f}" for r in rounds), flush=True)
    return marks.count("MISS")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="5 points, short runs: a few minutes")
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"), help="a folder on the disk to measure (not tmpfs)")
    parser.add_argument("--runtime", type=float, help="seconds per run (default 3, quick 2)")
    parser.add_argument("--ramp", type=float, help="ramp seconds per run (default 1, quick 0.5)")
    parser.add_argument("--size", type=int, help="test file bytes (default 1 GiB, quick 256 MiB)")
    parser.add_argument("--alternations", type=int, default=5, help="rounds per point (default 5)")
    parser.add_argument("--queue-depths", type=lambda s: [int(x) for x in s.split(",")], help="only these grid points, e.g. 16,32")
    parser.add_argument("--loop", choices=("native", "python"), help="the portable engine's I/O loop (default: native where built)")
    args = parser.parse_args()
    args.runtime = args.runtime or (2.0 if args.quick else 3.0)
    args.ramp = args.ramp if args.ramp is not None else (0.5 if args.quick else 1.0)
    args.size = args.size or ((256 if args.quick else 1024) << 20)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped bench still removes its test file
    install = detect_fio()
    if install is None:
        raise SystemExit("fio is not installed: the benchmark compares against it")
    started = time.monotonic()
    print(f"{install.version}; load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    misses = run_grid(args, install)
    print(f"done in {time.monotonic() - started:.0f} s; load average at end {os.getloadavg()[0]:.2f}; "
          f"{misses} figure(s) outside their goal (IOPS, p50 within {IOPS_P50_TOLERANCE:.0%}, p99 within {P99_TOLERANCE:.0%})")


if __name__ == "__main__":
    main()
