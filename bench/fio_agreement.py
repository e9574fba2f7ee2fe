"""ssdprof vs plain fio, side by side: the job `ssdprof export --format fio` writes, run by plain fio
on the same file, alternating with `ssdprof run`.

Goals: IOPS, total latency p50 (lat_ns, submission to completion) and completion latency p50
(clat_ns) each agree within 5 % (median of the alternating pairs): the wrapper adds nothing but truth.
Run on a quiet machine: engine/.venv/bin/python bench/fio_agreement.py [--pairs 7] [--runtime 3] [--target DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GOAL = 0.05
FIGURES = ("IOPS", "lat p50", "clat p50")


def plain_fio(job: Path) -> tuple[float, float, float]:
    """fio on the exported job file, as a user reproducing the point would run it."""
    done = subprocess.run(["fio", "--output-format=json", str(job)], capture_output=True, text=True, check=True, cwd=job.parent)
    read = json.loads(done.stdout[done.stdout.index("{"):])["jobs"][0]["read"]
    return read["iops"], read["lat_ns"]["percentile"]["50.000000"], read["clat_ns"]["percentile"]["50.000000"]


def ours(path: Path, runtime: int, qd: int, db: Path) -> tuple[int, tuple[float, float, float]]:
    args = [sys.executable, "-m", "ssdprof", "run", "--engine", "fio", "--target", str(path), "--size", "256MiB", "--rw", "randread",
            "--bs", "4k", "--qd", str(qd), "--runtime", str(runtime), "--ramp", "1", "--json", "--db", str(db)]
    run = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    read = run["read"]
    return run["id"], (read["iops"], read["lat_ns"]["p50"], read["clat_ns"]["p50"])


def exported_job(run_id: int, db: Path, job: Path) -> None:
    subprocess.run([sys.executable, "-m", "ssdprof", "export", str(run_id), "--format", "fio", "-o", str(job), "--db", str(db)],
                   capture_output=True, text=True, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--runtime", type=int, default=3)
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        path, db = Path(scratch) / "agreement.dat", Path(scratch) / "r.db"
        subprocess.run(["fio", "--name=layout", f"--filename={path}", "--size=256M", "--rw=write", "--bs=1M", "--direct=1",
                        "--output-format=json"], capture_output=True, check=True)
        print(f"{'QD':>3} " + " ".join(f"{f + ' ratio':>15}" for f in FIGURES)
              + f"   (median of {args.pairs} alternating pairs: ssdprof run / plain fio on the job ssdprof exported)")
        for qd in (1, 32):
            ratios: list[list[float]] = [[] for _ in FIGURES]
            job = Path(scratch) / f"qd{qd}.fio"
            for pair in range(args.pairs):
                run_id, mine = ours(path, args.runtime, qd, db)
                if pair == 0:
                    exported_job(run_id, db, job)
                plain = plain_fio(job)
                for i, (a, b) in enumerate(zip(mine, plain, strict=True)):
                    ratios[i].append(a / b)
            medians = [statistics.median(r) for r in ratios]
            verdict = "MET" if all(abs(m - 1) <= GOAL for m in medians) else "NOT MET"
            print(f"{qd:>3} " + " ".join(f"{m:>15.3f}" for m in medians) + f"   goal within ±{GOAL:.0%}: {verdict}")


if __name__ == "__main__":
    main()
