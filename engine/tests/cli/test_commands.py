"""The table of commands: each answered by the module it names, which registers exactly its own."""

from __future__ import annotations

import argparse
import importlib

import pytest

from ssdprof.cli.commands import TABLE, commands_of, modules
from ssdprof.cli.parser import build_parser


def registered(parser: argparse.ArgumentParser) -> list[str]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_the_whole_parser_has_every_command_of_the_table_in_its_order() -> None:
    assert registered(build_parser()) == list(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_command_s_own_parser_registers_its_module_s_commands_only(name: str) -> None:
    module = TABLE[name].module
    assert registered(build_parser(name)) == list(commands_of(module))
    assert callable(getattr(importlib.import_module(f"ssdprof.cli.{module}"), TABLE[name].handler))


def test_each_module_takes_its_commands_from_the_table() -> None:
    for module in modules():
        found = importlib.import_module(f"ssdprof.cli.{module}")
        if hasattr(found, "COMMANDS"):
            assert commands_of(module) == found.COMMANDS, module
