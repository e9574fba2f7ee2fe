"""A results database for bench/ui.mjs, filled from real fio output (engine/tests/data/fio).

Every fixture file is imported with the engine's own importer (as ``ssdprof import`` does) and
the runs are stored through the Store API as sweeps of POINTS points x REPEATS repeats, so the
Results view has many runs to draw. Prints the sweep ids as JSON.

    engine/.venv/bin/python bench/ui_store.py /var/tmp/ui-bench.sqlite3 --sweep 20x50 --sweep 10x5
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import Store
from ssdprof.store.interchange import ImportError_, import_fio_output

FIXTURES = Path(__file__).resolve().parents[1] / "engine" / "tests" / "data" / "fio"


def fixture_runs() -> list[RunResult]:
    """Every run in the fixtures; those with latency histograms first (the Results view details the first)."""
    runs: list[RunResult] = []
    for path in sorted(FIXTURES.glob("fio-*")):
        try:
            runs += import_fio_output(path, tags={"bench": "ui"})
        except ImportError_:
            continue
    return sorted(runs, key=lambda r: not r.read.lat_bins_ns)


def store_sweep(store: Store, runs: list[RunResult], points: int, repeats: int) -> int:
    chosen = [runs[i % len(runs)] for i in range(points)]
    sweep_id = store.create_sweep(SweepSpec(name=f"bench: {points} points x {repeats} repeats",
                                            points=[r.workload for r in chosen], repeats=repeats))
    for repeat in range(repeats):
        for index, run in enumerate(chosen):
            store.add_run(run.model_copy(update={"sweep_id": sweep_id, "repeat": repeat}), point_index=index)
    store.set_sweep_status(sweep_id, "done")
    return sweep_id


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path)
    parser.add_argument("--sweep", action="append", default=[], metavar="POINTSxREPEATS")
    args = parser.parse_args()
    runs = fixture_runs()
    store = Store(args.db)
    try:
        made = {}
        for shape in args.sweep:
            points, repeats = (int(n) for n in shape.split("x"))
            made[shape] = store_sweep(store, runs, points, repeats)
    finally:
        store.close()
    print(json.dumps({"sweeps": made, "fixture_runs": len(runs)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
