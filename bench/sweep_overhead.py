"""Sweep overhead: wall time of a sweep divided by the sum of its points' ramp + runtime.

Goal (issue 2): <= 1.05 for a 12-point sweep; the test-file layout is reported separately.
Run: engine/.venv/bin/python bench/sweep_overhead.py [--runtime 5] [--ramp 1] [--target DIR]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from ssdprof.app.runner import Runner
from ssdprof.model.events import PointFinished, PointStarted, RunEvent
from ssdprof.model.sweep import SweepMode, build_sweep
from ssdprof.model.workload import parse_workload

GOAL = 1.05


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runtime", default="5")
    parser.add_argument("--ramp", default="1")
    parser.add_argument("--target", type=Path, default=Path("/var/tmp"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ssdprof-bench-", dir=args.target) as scratch:
        base = parse_workload({"target": scratch, "runtime_s": args.runtime, "ramp_s": args.ramp, "size_bytes": "256MiB"})
        spec = build_sweep(base, {"pattern": ["randread", "randwrite"], "queue_depth": [1, 2, 4, 8, 16, 32]}, SweepMode.GRID)
        starts: dict[int, float] = {}
        per_point: list[float] = []

        def on_event(event: RunEvent) -> None:
            if isinstance(event, PointStarted):
                starts[event.number] = time.monotonic()
            elif isinstance(event, PointFinished):
                per_point.append(time.monotonic() - starts[event.number])

        outcome = Runner(None).run_sweep(spec, on_event=on_event)
    asked_s = sum(p.duration_s() for p in spec.points)
    measured_wall_s = outcome.wall_s - outcome.layout_s
    ratio = measured_wall_s / asked_s
    print(f"points: {len(spec.points)}  asked ramp+runtime: {asked_s:.1f} s")
    print(f"test-file layout (reported separately): {outcome.layout_s:.2f} s")
    print(f"sweep wall time without layout: {measured_wall_s:.2f} s")
    print(f"per-point overhead: mean {(measured_wall_s - asked_s) / len(spec.points) * 1000:.0f} ms, "
          f"max {max(t - p.duration_s() for t, p in zip(per_point, spec.points, strict=True)) * 1000:.0f} ms")
    print(f"sweep overhead ratio (wall / asked): {ratio:.3f}  goal <= {GOAL}  {'MET' if ratio <= GOAL else 'NOT MET'}")


if __name__ == "__main__":
    main()
