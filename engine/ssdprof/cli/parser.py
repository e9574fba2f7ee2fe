"""The ``ssdprof`` command line's parser, built without importing the engine.

Each command's module (``commands.TABLE``) registers its flags at import time with nothing but
argparse, ``cli.flags`` and the few leaf modules a flag's default or check needs; what a command
does imports the engine inside its handler. So ``ssdprof --help`` and ``ssdprof X --help`` load no
pydantic model, numpy, SciPy, matplotlib or reportlab, and ``ssdprof runs list`` loads the store
and the terminal table, not the runner or the statistics (``tests/cli/test_parser.py`` holds every
module to this).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import re
import sys
from types import ModuleType
from typing import Any, NoReturn

from ssdprof import __version__
from ssdprof.cli.commands import TABLE, modules
from ssdprof.cli.flags import Formatter

__all__ = ["build_parser", "command_module"]


class Parser(argparse.ArgumentParser):
    """argparse, naming an unknown option: argparse sets it aside and reads its value as the next
    positional, so ``compare --group interface=SATA`` said "argument RUN_ID: invalid int value:
    'interface=SATA'". Every command's parser is one (``add_subparsers`` makes its own class)."""

    _given: list[str]

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        value = re.match(r"argument \S+: invalid \w+ value: '(.*)'$", message)
        given = getattr(self, "_given", [])
        for option, after in itertools.pairwise(given):
            known = any(o.startswith(option) for o in self._option_string_actions)  # argparse takes a prefix
            if value and after == value.group(1) and option.startswith("--") and not known:
                message = f"unrecognized option {option}; see: {self.prog} --help"
                break
        super().error(message)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """Every command's parser, or (``only``: a command of ``commands.TABLE``) the root with just the
    commands of that command's module."""
    parser = Parser(prog="ssdprof", formatter_class=Formatter, description=(
        "Profile SSDs with fio or the portable engine; store, compare and export the results.\n\n"
        "example:\n  ssdprof run --target /mnt/ssd --rw randread --bs 4k --qd 32 --runtime 30"))
    parser.add_argument("--version", action="version", version=f"ssdprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules() if only is None else (TABLE[only].module,):
        command_module(name).register(sub)
    return parser


def command_module(name: str) -> ModuleType:
    """``ssdprof.cli.<name>``: its flags, and the handlers that import what they use."""
    return importlib.import_module(f"ssdprof.cli.{name}")
