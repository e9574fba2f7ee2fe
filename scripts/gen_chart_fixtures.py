"""Writes src/test/student-charts.json: what the real engine answers to the chart methods
(runs.charts, runs.bars, runs.percentiles) for the student sweep in src/test/student-runs.json, so
the renderer's tests draw the engine's own numbers and never a hand-made copy of them.

    engine/.venv/bin/python scripts/gen_chart_fixtures.py          # regenerate
    engine/.venv/bin/python scripts/gen_chart_fixtures.py --check  # exit 1 when the file is stale

The runs are stored in a scratch database and the methods are called through the engine's RPC
dispatcher (``handle_message``), as the app calls them. ``engine/tests/app/test_service_charts.py``
runs ``--check``, so a change to the engine's statistics that the fixture does not follow fails.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "src" / "test" / "student-runs.json"
OUTPUT = ROOT / "src" / "test" / "student-charts.json"
SPEC_ID = "samsung-970-evo-plus-1tb"


def _ignore(method: str, payload: BaseModel) -> None:
    pass


def stored_student_runs(service: EngineService) -> list[RunResult]:
    """The sweep's runs in a fresh store as the runner stored them (sweep 1, its points in order, so
    they keep their ids), the one in full with its bins."""
    sample = json.loads(RUNS.read_text())
    full = RunResult.model_validate(sample["full"])
    runs = [full if raw["id"] == full.id else RunResult.model_validate(raw)
            for raw in sample["runs"]]
    store = service.store
    sweep_id = store.create_sweep(SweepSpec(name="student", points=[r.workload for r in runs]))
    stored = []
    for index, run in enumerate(runs):
        kept = store.add_run(run.model_copy(update={"sweep_id": sweep_id}), point_index=index)
        if (sweep_id, kept.id) != (run.sweep_id, run.id):
            raise SystemExit(f"run {run.id} of sweep {run.sweep_id} was stored as {kept.id} of "
                             f"sweep {sweep_id}: start from an empty database")
        stored.append(kept)
    return stored


def stored_repeats(service: EngineService, run: RunResult, repeats: int) -> list[int]:
    """``run``'s point measured again in a sweep of its own that asked for ``repeats`` repeats."""
    store = service.store
    sweep_id = store.create_sweep(SweepSpec(name="repeats", points=[run.workload], repeats=repeats))
    again = [run.model_copy(update={"sweep_id": sweep_id, "repeat": i}) for i in range(repeats)]
    return [store.add_run(r, point_index=0).id or 0 for r in again]


def _charts(run_ids: list[int], earlier: list[int], spec: str | None,
            pool: bool = False) -> dict[str, Any]:
    """runs.charts' params as the Results view sends them (the fake engine matches them exactly)."""
    return {"run_ids": run_ids, "compare_with": earlier, "spec_id": spec, "pool_same_setting": pool}


def _call(service: EngineService, method: str, params: dict[str, Any]) -> Any:
    reply = dict(handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
    if "error" in reply:
        raise SystemExit(f"{method} {params}: {reply['error']}")
    return reply["result"]


def generate() -> str:
    with tempfile.TemporaryDirectory() as scratch:
        service = EngineService(Path(scratch) / "results.sqlite3", _ignore, default_dir=Path(scratch),
                                spec_folders=(bundled_spec_dir(),))
        try:
            runs = stored_student_runs(service)
            ids = [r.id for r in runs]
            randread = [r.id for r in runs if r.workload.pattern.value == "randread"]
            # Three repeats of the first point (copies, a sweep of their own) beside the second.
            repeats = stored_repeats(service, runs[0], 3)
            cases: list[tuple[str, str, dict[str, Any]]] = [
                ("the student sweep", "runs.charts", _charts(ids, [], None)),
                ("the student sweep, its runs of one setting pooled on request", "runs.charts",
                 _charts(ids, [], None, pool=True)),
                ("its random reads against a spec sheet", "runs.charts",
                 _charts(randread, [], SPEC_ID)),
                ("the queue-depth runs beside the earlier access-size runs", "runs.charts",
                 _charts(ids[7:], ids[:3], None)),
                ("a point repeated three times beside another", "runs.charts",
                 _charts([*repeats, ids[1]], [], None)),
                ("the run in full", "runs.percentiles", {"run_id": runs[4].id}),
                ("the sweep as one group, by its recorded interface", "runs.bars",
                 {"groups": [{"label": "virtio", "run_ids": ids}], "metric": "iops",
                  "pool_same_setting": False}),
                ("the sweep as one group, its runs of one setting pooled on request", "runs.bars",
                 {"groups": [{"label": "virtio", "run_ids": ids}], "metric": "iops",
                  "pool_same_setting": True}),
            ]
            answers = [{"case": name, "method": method, "params": params, "result": _call(service, method, params)}
                       for name, method, params in cases]
        finally:
            service.close()
    document = {"provenance": "scripts/gen_chart_fixtures.py: the real engine's answers for src/test/student-runs.json",
                "answers": answers}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            sys.stderr.write(f"{OUTPUT.relative_to(ROOT)} is stale: run engine/.venv/bin/python scripts/gen_chart_fixtures.py\n")
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
