"""``ssdprof rpc`` (JSON-RPC on standard input/output, for the desktop app) and ``ssdprof serve``
(browser mode): the engine's session, served."""

from __future__ import annotations

import argparse
from typing import Any

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, common
from ssdprof.store.location import default_db_path

__all__ = ["COMMANDS", "register", "rpc", "serve"]

COMMANDS = commands_of("serve")


def register(sub: Any) -> None:
    rpc_parser = command(sub, "rpc", "serve JSON-RPC 2.0 on standard input/output (used by the desktop app)",
                         "ssdprof rpc --db results.sqlite3")
    common(rpc_parser)
    serve_parser = command(sub, "serve", "browser mode: the app on 127.0.0.1, with a per-launch token "
                                         "in the printed URL",
                           "ssdprof serve --port 8080   # over SSH first: "
                           "ssh -L 8080:127.0.0.1:8080 lab-host")
    serve_parser.add_argument("--port", type=int, default=0,
                              help="port on 127.0.0.1 (default: any free port)")
    common(serve_parser)


def rpc(args: argparse.Namespace) -> int:
    from ssdprof.app.rpc import serve_stdio

    return serve_stdio(_checked(args.db) or default_db_path())


def serve(args: argparse.Namespace) -> int:
    from ssdprof.app.server import serve as serve_http

    return serve_http(_checked(args.db) or default_db_path(), port=args.port)


def _checked(db: Any) -> Any:
    """A store URL that names no server or database is refused before anything is served (one line, exit 2)."""
    from ssdprof.store.location import DatabaseUrl

    if isinstance(db, DatabaseUrl):
        db.endpoint()
    return db
