"""What every subcommand shares: a description with a runnable example, ``--db`` and ``--json``, and
the checks argparse makes of numbers."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ssdprof.store.location import DB_ENV, Location, default_db_path, location_of

__all__ = ["Formatter", "breakdown_flag", "command", "command_actions", "common", "positive_int"]


class Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def command(sub: Any, name: str, summary: str, example: str) -> argparse.ArgumentParser:
    # argparse %-formats a sub-command's help (for %(prog)s), not its description: "95 % CI" needs %%
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary.replace("%", "%%"),
                                                     description=f"{summary}\n\nexample:\n  {example}",
                                                     formatter_class=Formatter)
    return parser


def command_actions(sub: Any, name: str, summary: str, example: str) -> Any:
    """A command that has actions (``runs list``, ``hosts add``), for :func:`command` to add them to:
    one is required, and the one given is ``args.<name>_command``."""
    return command(sub, name, summary, example).add_subparsers(dest=f"{name}_command", metavar="ACTION", required=True)


def common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=_db_location, default=os.environ.get(DB_ENV) or None, help=(
        f"results store: a SQLite file, or a lab's PostgreSQL database as postgresql://USER@HOST/DB (its password "
        f"in ~/.pgpass, never in a URL others see) (default: ${DB_ENV}, else {default_db_path()})"))
    parser.add_argument("--json", action="store_true", help="machine-readable output (fields documented in README)")


def _db_location(text: str) -> Location:
    try:
        return location_of(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def breakdown_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--breakdown", action="store_true",
                        help="tables show total latency split into submission and completion (--json always has both)")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return value


