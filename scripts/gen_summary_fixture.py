"""Writes src/test/student-summary.json: what the real engine answers to runs.summary for the
student sweep in src/test/student-runs.json (with no spec sheet, and against one chosen), so the
renderer's tests draw the engine's own summary and never a hand-made copy of it.

    engine/.venv/bin/python scripts/gen_summary_fixture.py          # regenerate
    engine/.venv/bin/python scripts/gen_summary_fixture.py --check  # exit 1 when the file is stale

The runs are stored as scripts/gen_chart_fixtures.py stores them and the method is called through
the engine's RPC dispatcher; ``engine/tests/app/test_service_summary.py`` runs ``--check``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.app.rpc import EngineService, handle_message

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "test" / "student-summary.json"
SPEC_ID = "samsung-970-evo-plus-1tb"


def _ignore(method: str, payload: BaseModel) -> None:
    pass


def _charts_script() -> Any:
    path = ROOT / "scripts" / "gen_chart_fixtures.py"
    spec = importlib.util.spec_from_file_location("gen_chart_fixtures", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(service: EngineService, params: dict[str, Any]) -> Any:
    request = {"jsonrpc": "2.0", "id": 1, "method": "runs.summary", "params": params}
    reply = dict(handle_message(service, request))
    if "error" in reply:
        raise SystemExit(f"runs.summary {params}: {reply['error']}")
    return reply["result"]


def generate() -> str:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        service = EngineService(folder / "results.sqlite3", _ignore, default_dir=folder,
                                spec_folders=(bundled_spec_dir(),))
        try:
            ids = [r.id for r in _charts_script().stored_student_runs(service)]
            cases = [("the student sweep, its drive unnamed",
                      {"run_ids": ids, "spec_id": None, "compare_spec": True,
                       "pool_same_setting": False}),
                     ("the student sweep against a chosen sheet",
                      {"run_ids": ids, "spec_id": SPEC_ID, "compare_spec": True,
                       "pool_same_setting": False})]
            answers = [{"case": name, "params": params, "result": _call(service, params)}
                       for name, params in cases]
        finally:
            service.close()
    document = {"provenance": "scripts/gen_summary_fixture.py: the real engine's runs.summary for "
                              "src/test/student-runs.json", "answers": answers}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            sys.stderr.write(f"{OUTPUT.relative_to(ROOT)} is stale: run engine/.venv/bin/python "
                             "scripts/gen_summary_fixture.py\n")
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
