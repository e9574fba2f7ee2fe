"""The picture in ARCHITECTURE.md holds: arrows point one way, and statuses are typed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ssdprof

PACKAGE = Path(ssdprof.__file__).parent


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def _imported(path: Path) -> set[str]:
    """Every ssdprof module ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("ssdprof.")}


def _offending(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in _modules(folder):
        bad = sorted(m for m in _imported(path) if m.split(".")[1] in forbidden)
        if bad:
            out[str(path.relative_to(PACKAGE))] = bad
    return out


def test_the_report_reads_results_only_and_imports_neither_fio_nor_the_store() -> None:
    assert _offending("report", ("fio", "store")) == {}


def test_the_store_keeps_results_and_reads_no_analysis_report_or_face() -> None:
    assert _offending("store", ("analysis", "report", "app", "cli")) == {}


def test_the_model_imports_nothing_of_ssdprof_but_itself() -> None:
    others = ("analysis", "app", "cli", "fio", "portable", "remote", "report", "store", "target", "trace")
    assert _offending("model", others) == {}


def test_the_trace_reader_imports_only_the_model() -> None:
    others = ("analysis", "app", "cli", "fio", "portable", "remote", "report", "store", "target")
    assert _offending("trace", others) == {}


def test_no_status_in_the_model_or_the_contract_is_a_bare_string() -> None:
    untyped = re.compile(r"^\s*status\s*:\s*str\b", re.MULTILINE)
    found = [str(p.relative_to(PACKAGE)) for folder in ("model", "app/contract")
             for p in _modules(folder) if untyped.search(p.read_text())]
    assert found == []


def test_no_two_test_files_share_a_name() -> None:
    """pytest imports test files by their base name here (no packages): two of one name and the
    second is never collected, and the whole run stops at collection."""
    names = [path.name for path in Path(__file__).parent.rglob("test_*.py")]
    assert not sorted({name for name in names if names.count(name) > 1})
