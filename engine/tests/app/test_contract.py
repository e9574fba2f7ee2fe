"""The contract is defined once: the generated TypeScript must match the pydantic models."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from ssdprof.app.contract.methods import METHODS, NOTIFICATIONS, schema

ROOT = Path(__file__).resolve().parents[3]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_contract", ROOT / "scripts" / "gen_contract.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_typescript_is_up_to_date() -> None:
    script = ROOT / "scripts" / "gen_contract.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_generated_contract_lives_in_the_folder_both_faces_import() -> None:
    assert generator().OUTPUT == ROOT / "contract" / "contract.gen.ts"
    shell = "\n".join(p.read_text() for p in (ROOT / "electron").glob("*.ts"))
    assert "../contract/contract.gen" in shell
    assert "/src/" not in shell


def test_every_method_names_defined_params_and_result() -> None:
    document = schema()
    for name, method in document["methods"].items():
        assert method["params"] in document["$defs"], name
        assert method["result"] in document["$defs"], name
    assert set(document["methods"]) == set(METHODS)
    assert set(document["notifications"]) == set(NOTIFICATIONS)


def test_results_mark_every_field_required_so_clients_need_no_guards() -> None:
    run = schema()["$defs"]["RunResult"]
    assert "raw_output" not in run["properties"]
    assert set(run["required"]) == set(run["properties"])


def test_run_events_are_a_union_discriminated_by_kind() -> None:
    text = generator().generate()
    assert 'kind: "point_progress";' in text
    assert ("event: SweepStarted | LayoutDone | PointStarted | PointProgress | PointFinished"
            " | SweepFinished | Cooling;") in text


def test_generator_renders_optional_params_and_records() -> None:
    gen = generator()
    node = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "object", "additionalProperties": {
        "type": "string"}}}, "required": ["a"]}
    assert gen.declaration("Thing", node) == "export interface Thing {\n  a: number;\n  b?: Record<string, string>;\n}\n"
    assert gen.ts_type({"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}}) == "(string | null)[]"
