"""The rules of ARCHITECTURE.md ("Rules the code keeps"), one test each, numbered as there: arrows point
one way, a test kind is its own modules found through one registry and run through one job layer, one
PDF frame, processes started and ended as the safety rules say, the renderer drawing what it is given."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ssdprof
from ssdprof.app.contract.methods import METHODS, NOTIFICATIONS
from ssdprof.app.kinds import kinds
from ssdprof.app.kinds.kind import JobKind

PACKAGE = Path(ssdprof.__file__).parent
ROOT = PACKAGE.parents[1]
FOLDERS = ("analysis", "app", "cli", "fio", "model", "portable", "remote", "report", "store", "target", "trace")


def _modules(folder: str = "") -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE))


def _imported(path: Path) -> set[str]:
    """Every ssdprof module ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("ssdprof.")}


def _reaching_beyond(folder: str, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules of ``folder`` importing a folder of ssdprof's other than itself and ``allowed``."""
    out: dict[str, list[str]] = {}
    for path in _modules(folder):
        bad = sorted(m for m in _imported(path) if m.split(".")[1] not in (folder, *allowed))
        if bad:
            out[_name(path)] = bad
    return out


def _importing(prefix: str) -> set[str]:
    """The modules that import ``prefix`` or a module under it."""
    return {_name(p) for p in _modules() if any(m == prefix or m.startswith(prefix + ".") for m in _imported(p))}


def _calls(path: Path) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)]


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _source(folder: str, *suffixes: str) -> list[Path]:
    return sorted(p for s in suffixes for p in (ROOT / folder).rglob(f"*{s}") if "node_modules" not in p.parts)


# ---------------------------------------------------------------------------------- the layers


def test_rule_1_the_model_imports_nothing_of_ssdprof_but_itself() -> None:
    assert _reaching_beyond("model", ()) == {}


def test_rule_2_targets_and_traces_read_the_model_only() -> None:
    assert _reaching_beyond("target", ("model",)) == {} and _reaching_beyond("trace", ("model",)) == {}


def test_rule_3_the_instruments_import_only_what_lies_below_them() -> None:
    assert _reaching_beyond("fio", ("model", "target", "trace")) == {}
    assert _reaching_beyond("portable", ("model", "target", "trace", "fio")) == {}
    assert _reaching_beyond("remote", ("model", "target", "trace", "fio")) == {}


def test_rule_4_the_store_keeps_results_and_reads_no_analysis_report_or_face() -> None:
    assert _reaching_beyond("store", ("model", "fio")) == {}


def test_rule_5_analysis_reads_results_only() -> None:
    assert _reaching_beyond("analysis", ("model",)) == {}


def test_rule_6_the_report_reads_results_and_analysis_only() -> None:
    assert _reaching_beyond("report", ("model", "analysis")) == {}


def test_rule_7_nothing_but_the_cli_and_the_entry_point_imports_the_cli() -> None:
    assert {m for m in _importing("ssdprof.cli") if not m.startswith("cli/")} == {"__main__.py"}


def test_rule_8_the_contract_lies_below_the_session_the_kinds_and_the_job_layer() -> None:
    above = ("ssdprof.app.service", "ssdprof.app.kinds", "ssdprof.app.jobs", "ssdprof.app.rpc", "ssdprof.app.server")
    found = {m: _name(p) for p in _modules("app/contract") for m in _imported(p) if m.startswith(above)}
    assert found == {}


# ------------------------------------------------------------------ test kinds and the job layer


def test_rule_9_kinds_lie_below_the_faces_and_the_job_layer_below_the_session() -> None:
    assert {_name(p) for p in _modules("app/kinds") if any(m.startswith(("ssdprof.app.service", "ssdprof.app.jobs"))
                                                            for m in _imported(p))} == set()
    assert not any(m.startswith("ssdprof.app.service") for m in _imported(PACKAGE / "app/jobs.py"))


def test_rule_10_the_core_names_no_kind() -> None:
    core = ["app/jobs.py", "app/kinds/kind.py", "app/kinds/__init__.py", "app/service/kinds.py", "app/contract/methods.py",
            "app/contract/base.py", "cli/foreground.py"]
    names = set(kinds())
    for module in core:
        tree = ast.parse((PACKAGE / module).read_text())
        words = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        imports = {m for m in _imported(PACKAGE / module) if m.startswith("ssdprof.app.kinds.")} - {"ssdprof.app.kinds.kind"}
        assert not imports and not any(w in names or w.split(".")[0] in names for w in words), module


def test_rule_11_each_kind_module_registers_its_kind_under_its_own_name() -> None:
    found = kinds()
    modules = sorted(p.stem for p in (PACKAGE / "app/kinds").glob("*.py") if p.stem not in ("__init__", "kind"))
    assert sorted(found) == modules
    assert all(type(k).__module__ == f"ssdprof.app.kinds.{name}" for name, k in found.items())


def test_rule_12_every_kind_answers_its_methods_in_the_contract_and_sends_its_events_as_one_of_its_notifications() -> None:
    for name, kind in kinds().items():
        assert set(kind.methods.named()) <= set(METHODS), name
        if isinstance(kind, JobKind):
            assert NOTIFICATIONS[kind.face.events] is kind.face.notification, name
        else:
            assert isinstance(kinds()[kind.runs_as or ""], JobKind), name


def test_rule_13_runners_are_reached_through_their_kinds_only() -> None:
    runners = {"Runner", "PtsRunner", "SustainRunner", "ReplayRunner"}
    users = {_name(p) for p in _modules() for node in ast.walk(ast.parse(p.read_text()))
             if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ssdprof.app.")
             and runners & {alias.name for alias in node.names}}
    assert {u for u in users if not u.startswith("app/kinds/")} <= {"app/pts_runner.py", "app/sustain.py", "app/replay.py"}


def test_rule_14_one_job_layer_launches_and_cancels_every_job_and_each_face_reaches_it_through_one_module() -> None:
    assert _importing("ssdprof.app.jobs") == {"app/service/engine.py", "app/service/kinds.py", "cli/foreground.py"}
    runs = {_name(p) for p in _modules() for call in _calls(p)
            if _dotted(call.func).endswith(("kind.run", "job.kind.run"))}
    assert runs == {"app/jobs.py"}


def test_rule_15_no_rpc_handler_outside_the_kinds_answers_a_kind_s_method() -> None:
    kind_methods = {m for k in kinds().values() for m in k.methods.named()}
    marked = {call.args[0].value for p in _modules("app") for call in _calls(p)
              if _dotted(call.func) == "handles" and call.args and isinstance(call.args[0], ast.Constant)}
    assert marked and marked & kind_methods == set()


# ---------------------------------------------------------------------------- one of each


def test_rule_16_every_pdf_is_printed_in_the_one_frame() -> None:
    builders = {_name(p) for p in _modules() if "SimpleDocTemplate(" in p.read_text()}
    assert builders == {"report/document.py"}


def test_rule_17_only_the_cli_exits_the_process() -> None:
    exits = {_name(p) for p in _modules() if not _name(p).startswith(("cli/", "__main__"))
             for node in ast.walk(ast.parse(p.read_text()))
             if (isinstance(node, ast.Call) and _dotted(node.func) == "sys.exit")
             or (isinstance(node, ast.Raise) and node.exc is not None and "SystemExit" in ast.unparse(node.exc))}
    assert exits == set()


def test_rule_18_child_processes_get_argument_lists_never_a_shell_string() -> None:
    shelled = {_name(p) for p in _modules() for call in _calls(p)
               if _dotted(call.func) in ("os.system", "os.popen")
               or any(k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value for k in call.keywords)}
    assert shelled == set()


def test_rule_19_only_the_ssh_boundary_quotes_for_a_shell() -> None:
    quoting = {_name(p) for p in _modules() for call in _calls(p) if _dotted(call.func) in ("shlex.join", "shlex.quote")}
    assert quoting and all(q.startswith("remote/") for q in quoting)


def test_rule_20_processes_are_ended_by_the_pid_started_never_by_name() -> None:
    by_name = re.compile(r"\bkillall\b|\bpkill\b(?![^\n]*-P\b)")
    code = [p for p in _source("engine/ssdprof", ".py", ".sh")]
    found = [str(p.relative_to(ROOT)) for p in code
             if any(by_name.search(line) for line in p.read_text().splitlines() if not line.lstrip().startswith("#"))]
    assert found == []


def test_rule_21_no_utils_common_or_helpers_module() -> None:
    grab_bags = re.compile(r"^(utils?|common|helpers?|misc)$")
    found = [str(p.relative_to(ROOT)) for p in _source("engine/ssdprof", ".py") + _source("src", ".ts", ".tsx")
             if grab_bags.match(p.stem.split(".")[0])]
    assert found == []


# ------------------------------------------------------------------------------ the contract


def test_rule_22_no_status_in_the_model_or_the_contract_is_a_bare_string() -> None:
    untyped = re.compile(r"^\s*status\s*:\s*str\b", re.MULTILINE)
    found = [_name(p) for folder in ("model", "app/contract") for p in _modules(folder) if untyped.search(p.read_text())]
    assert found == []


def test_rule_23_every_method_s_params_refuse_unknown_fields() -> None:
    lax = sorted(name for name, method in METHODS.items() if method.params.model_config.get("extra") != "forbid")
    assert lax == []


# ------------------------------------------------------------------------------ the renderer


def test_rule_24_the_renderer_reaches_the_engine_through_src_api_only_and_the_shell_imports_no_renderer() -> None:
    bridges = re.compile(r"window\.ssdprof|ipcRenderer")
    outside = [str(p.relative_to(ROOT)) for p in _source("src", ".ts", ".tsx")
               if p.relative_to(ROOT).parts[1] != "api" and bridges.search(p.read_text())]
    shell = [str(p.relative_to(ROOT)) for p in _source("electron", ".ts") if re.search(r"from ['\"][./]*src/", p.read_text())]
    assert outside == [] and shell == []


def test_rule_25_the_renderer_draws_spans_the_engine_gave_and_computes_none() -> None:
    reading = [str(p.relative_to(ROOT)) for p in _source("src", ".ts", ".tsx")
               if ".test." not in p.name and "interval_s" in p.read_text()]
    assert reading == []


# ------------------------------------------------------------------------------------- tests


def test_rule_26_no_two_test_files_share_a_name() -> None:
    """pytest imports test files by their base name here (no packages): two of one name and the
    second is never collected, and the whole run stops at collection."""
    names = [path.name for path in Path(__file__).parent.rglob("test_*.py")]
    assert not sorted({name for name in names if names.count(name) > 1})
