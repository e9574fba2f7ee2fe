"""The real student sweep the renderer's tests draw (src/test/student-runs.json: fio 3.33, sweep 1,
ten points, one repeat each), as RunResults, and runs derived from it where a test needs a sweep
shape the recording lacks (repeats, a curve's offered rates)."""

from __future__ import annotations

import json
from pathlib import Path

from ssdprof.model.results import RunResult

STUDENT_RUNS = Path(__file__).resolve().parents[2] / "src" / "test" / "student-runs.json"


def student_runs() -> list[RunResult]:
    """Runs 1-10 of sweep 1: access size (1-3), read/write mix (4-7), queue depth (8-10)."""
    sample = json.loads(STUDENT_RUNS.read_text())
    full = RunResult.model_validate(sample["full"])
    return [full if raw["id"] == full.id else RunResult.model_validate(raw)
            for raw in sample["runs"]]


def measured_again(run: RunResult, *, run_id: int, sweep_id: int, repeat: int = 0,
                   **workload: object) -> RunResult:
    """``run`` as if measured again as run ``run_id`` of sweep ``sweep_id``, its workload changed
    by ``workload``."""
    return run.model_copy(update={"id": run_id, "sweep_id": sweep_id, "repeat": repeat,
                                  "workload": run.workload.model_copy(update=workload)})
