"""ssdprof vs plain fio, side by side: the same job on the same file, alternating.

Goal (issue 2): IOPS and p50 agree within 5 % (the wrapper adds nothing but truth).
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


def plain_fio(path: Path, runtime: int, qd: int) -> tuple[float, float]:
    args = ["fio", "--name=plain", f"--filename={path}", "--size=256M", "--rw=randread", "--bs=4k", f"--iodepth={qd}",
            "--ioengine=io_uring", "--direct=1", "--time_based", f"--runtime={runtime}", "--ramp_time=1", "--output-format=json"]
    read = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["jobs"][0]["read"]
    return read["iops"], read["clat_ns"]["percentile"]["50.000000"]


def ours(path: Path, runtime: int, qd: int, db: Path) -> tuple[float, float]:
    args = [sys.executable, "-m", "ssdprof", "run", "--engine", "fio", "--target", str(path), "--size", "256MiB", "--rw", "randread",
            "--bs", "4k", "--qd", str(qd), "--runtime", str(runtime), "--ramp", "1", "--json", "--db", str(db)]
    read = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["read"]
    return read["iops"], read["clat_ns"]["p50"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--runtime", type=int, default=3)
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        path = Path(scratch) / "agreement.dat"
        subprocess.run(["fio", "--name=layout", f"--filename={path}", "--size=256M", "--rw=write", "--bs=1M", "--direct=1",
                        "--output-format=json"], capture_output=True, check=True)
        print(f"{'QD':>3} {'IOPS ratio':>11} {'p50 ratio':>10}   (median of {args.pairs} alternating pairs, ssdprof / plain fio)")
        for qd in (1, 32):
            iops, p50 = [], []
            for _ in range(args.pairs):
                o, p = ours(path, args.runtime, qd, Path(scratch) / "r.db"), plain_fio(path, args.runtime, qd)
                iops.append(o[0] / p[0])
                p50.append(o[1] / p[1])
            mi, mp = statistics.median(iops), statistics.median(p50)
            verdict = "MET" if abs(mi - 1) <= GOAL and abs(mp - 1) <= GOAL else "NOT MET"
            print(f"{qd:>3} {mi:>11.3f} {mp:>10.3f}   goal within ±{GOAL:.0%}: {verdict}")


if __name__ == "__main__":
    main()
