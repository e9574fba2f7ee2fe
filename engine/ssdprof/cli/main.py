"""The ``ssdprof`` command line: everything the GUI does, for scripted lab runs.

Only this module exits the process. Exit codes: 0 done, 1 a point failed or ended early, 2 bad
input, 130 cancelled. A command imports only its own module (``commands.TABLE``): ``compare`` on a
big store loads no runner, fio, SSH or PDF code; ``ssdprof --help`` and an unknown command build
the whole parser, which imports no engine module (``cli.parser``). The engine loads once a command
runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ssdprof.cli.commands import TABLE
from ssdprof.cli.parser import build_parser, command_module

if TYPE_CHECKING:
    from ssdprof.model.workload import WorkloadError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # the root takes no options but --version and --help, so a command is always the first word
    parser = build_parser(given[0] if given and given[0] in TABLE else None)
    args = parser.parse_args(given)
    if args.command is None:
        parser.print_help()
        return 2
    from ssdprof.model.workload import WorkloadError  # the engine, from here on: the command runs

    try:
        return _dispatch(args)
    except WorkloadError as exc:
        _print_problems(exc, args)
        return 2
    except Exception as exc:
        code = _exit_code(exc)
        if code is None:
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"ssdprof: {message}", file=sys.stderr)
        return code


def _dispatch(args: argparse.Namespace) -> int:
    entry = TABLE[args.command]
    handler = getattr(command_module(entry.module), entry.handler)
    if not entry.store:
        return int(handler(args))
    from ssdprof.store.db import Store
    from ssdprof.store.location import default_db_path

    store = Store(args.db or default_db_path())
    try:
        return int(handler(args, store))
    finally:
        store.close()


def _exit_code(exc: Exception) -> int | None:
    """A user's error as an exit code (a host that cannot be used, a missing run: 1; a file that
    cannot be imported or found: 2); None for a fault of ssdprof's own. The error types load here:
    a command that never meets a host or an import does not pay for their modules."""
    from ssdprof.remote.addresses import HostError
    from ssdprof.store.interchange import ImportError_

    if isinstance(exc, (HostError, KeyError)):
        return 1
    if isinstance(exc, (ImportError_, FileNotFoundError)):
        return 2
    return None


def _print_problems(exc: WorkloadError, args: argparse.Namespace) -> None:
    if getattr(args, "json", False):
        from ssdprof.app.contract.cli import InvalidInput

        print(InvalidInput(problems=exc.problems).model_dump_json(indent=2))
    for problem in exc.problems:
        print(f"ssdprof: {problem}", file=sys.stderr)
