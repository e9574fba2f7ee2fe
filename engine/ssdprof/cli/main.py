"""The ``ssdprof`` command line: everything the GUI does, for scripted lab runs.

Only this module exits the process. Exit codes: 0 done, 1 a point failed or ended early (or the
results store refused or did not answer: said in one line, never a traceback), 2 bad input (a store
URL that names no server or database too), 130 cancelled, 141 the output's reader went away
(``| head``: quietly, as a shell tool stops). A command imports only its own module
(``commands.TABLE``): ``compare`` on a big store loads no runner, fio, SSH or PDF code; ``ssdprof
--help`` and an unknown command build the whole parser, which imports no engine module
(``cli.parser``). The engine loads once a command runs.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ssdprof.cli.commands import TABLE
from ssdprof.cli.parser import build_parser, command_module

if TYPE_CHECKING:
    from ssdprof.model.workload import WorkloadError
    from ssdprof.store.db import Store

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    # the root takes no options but --version and --help, so a command is always the first word
    parser = build_parser(given[0] if given and given[0] in TABLE else None)
    args = parser.parse_args(given)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return _dispatch(args)
    except BrokenPipeError:
        if not _reader_gone():
            raise  # another pipe (a child's, a host's): a fault of ssdprof's own
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush into the pipe at exit
        return 141  # what a shell reports for a tool the closed pipe stopped (128 + SIGPIPE)
    except Exception as exc:
        workload = sys.modules.get("ssdprof.model.workload")  # not loaded: the error cannot be one of its
        if workload is not None and isinstance(exc, workload.WorkloadError):
            _print_problems(exc, args)
            return 2
        code = _exit_code(exc)
        if code is None:
            raise
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, sqlite3.Error):
            message = f"the results file failed (SQLite says: {exc})"
        print(f"ssdprof: {' '.join(message.split())}", file=sys.stderr)  # one line, whatever a driver wrote
        return code


def _reader_gone() -> bool:
    """Whether standard output is a pipe whose reader closed it (``ssdprof runs list --json | head``
    after head took its lines); False where that cannot be told (no poll on Windows)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), 0)
        return any(event & (select.POLLERR | select.POLLHUP) for _, event in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


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
        _say_kept(store)
        store.close()


def _say_kept(store: Store) -> None:
    """Writes a shared store's server did not take (it went away), kept on this machine: said once, at the end."""
    writes, points = store.kept()
    if writes:
        print(f"ssdprof: {writes} write(s) ({points} finished point(s)) are kept on this machine in {store.kept_where()} "
              f"because {store.location} did not answer; the next ssdprof that reaches it sends them", file=sys.stderr)


def _exit_code(exc: Exception) -> int | None:
    """A user's error as an exit code (a host that cannot be used, a missing run: 1; a file that
    cannot be imported or found: 2); None for a fault of ssdprof's own. The error types load here:
    a command that never meets a host or an import does not pay for their modules."""
    from ssdprof.remote.addresses import HostError
    from ssdprof.store.errors import StoreError, StoreUrlError
    from ssdprof.store.interchange import ImportError_

    if isinstance(exc, (ImportError_, FileNotFoundError, StoreUrlError)):
        return 2
    if isinstance(exc, (HostError, KeyError, StoreError, sqlite3.Error)):  # a store said in one line; SQLite's own too
        return 1
    return None


def _print_problems(exc: WorkloadError, args: argparse.Namespace) -> None:
    if getattr(args, "json", False):
        from ssdprof.app.contract.cli import InvalidInput

        print(InvalidInput(problems=exc.problems).model_dump_json(indent=2))
    for problem in exc.problems:
        print(f"ssdprof: {problem}", file=sys.stderr)
