"""The parser is built without importing the engine: ``ssdprof --help`` and every ``ssdprof X --help``
start like a tool (issue 38). Each command module registers its flags with argparse, ``cli.flags``
and a few leaf modules; its handlers import what they use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ssdprof.cli.commands import TABLE

LIBRARIES = ("pydantic", "numpy", "scipy", "matplotlib", "reportlab", "svglib", "ruptures", "psutil")
"""What no parser needs: each takes a tenth of a second to a second to import."""

PARSE_TIME = {"ssdprof", "ssdprof.cli", "ssdprof.store", "ssdprof.store.location", "ssdprof.model", "ssdprof.model.presets",
              "ssdprof.analysis", "ssdprof.analysis.metrics", "ssdprof.analysis.spec_folders", "ssdprof.remote"}
"""The modules of ssdprof outside ``ssdprof.cli.*`` a parser may load: what a flag's choices, default
or check needs (the store's default place, the presets' and metrics' names, where spec sheets and a
host's test file go), each importing nothing else of the engine."""

LOADED = """
import json, sys
from ssdprof.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_by(*argv: str) -> set[str]:
    """Every module ``ssdprof ARGV`` loaded, in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, timeout=120, check=False)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def engine_modules(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith("ssdprof") and m not in PARSE_TIME and not m.startswith("ssdprof.cli."))


def libraries(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in LIBRARIES)


def test_help_imports_no_scipy_numpy_matplotlib_reportlab_or_pydantic() -> None:
    modules = loaded_by("--help")
    assert libraries(modules) == []
    assert engine_modules(modules) == []
    assert {f"ssdprof.cli.{entry.module}" for entry in TABLE.values()} <= modules  # the whole parser was built


@pytest.mark.parametrize("name", list(TABLE))
def test_a_commands_help_imports_nothing_of_the_engine(name: str) -> None:
    modules = loaded_by(name, "--help")
    assert libraries(modules) == []
    assert engine_modules(modules) == []


def test_an_unknown_command_is_refused_before_the_engine_loads() -> None:
    modules = loaded_by("comapre")
    assert engine_modules(modules) == [] and libraries(modules) == []


def test_runs_list_on_an_empty_store_opens_the_store_without_building_a_pydantic_model(tmp_path: Path) -> None:
    """The store's modules load their models with the first run they read or write (issue 38: a command's
    fixed cost); psutil tells this process's start time to the store's sweep leases."""
    modules = loaded_by("runs", "list", "--db", str(tmp_path / "empty.sqlite3"))
    assert "ssdprof.store.db" in modules
    assert [m for m in libraries(modules) if m.split(".")[0] != "psutil"] == []


def test_a_bad_flag_value_is_still_said_as_bad_input_with_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "ssdprof", "run", "--bs", "3q", "--target", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "access size (--bs)" in done.stderr


@pytest.mark.parametrize(("argv", "option"), [(["compare", "--group", "interface=SATA"], "--group"),
                                               (["predict", "--bogus", "load", "--tag", "load=idle"], "--bogus")])
def test_an_unknown_option_is_named_not_its_value_read_as_a_run_id(argv: list[str], option: str) -> None:
    """argparse sets an unknown option aside and reads its value as the next positional: it said
    'argument RUN_ID: invalid int value: 'interface=SATA'', never the option mistyped."""
    done = subprocess.run([sys.executable, "-m", "ssdprof", *argv], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and f"unrecognized option {option}" in done.stderr, done.stderr
    assert "invalid int value" not in done.stderr and f"ssdprof {argv[0]} --help" in done.stderr
