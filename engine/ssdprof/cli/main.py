"""The ``ssdprof`` command line: everything the GUI does, for scripted lab runs.

Only this module exits the process. Exit codes: 0 done, 1 a point failed or ended early, 2 bad input, 130 cancelled.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ssdprof import __version__
from ssdprof.cli import analysis as cli_analysis
from ssdprof.cli import curve as cli_curve
from ssdprof.cli import hosts as cli_hosts
from ssdprof.cli import pts as cli_pts
from ssdprof.cli import report as cli_report
from ssdprof.cli import specs as cli_specs
from ssdprof.cli.flags import Formatter, breakdown_flag, command, common, positive_int
from ssdprof.cli.measure import measure, measure_flags
from ssdprof.cli.runs import export, import_files, presets, runs
from ssdprof.cli.summary import summary_flags
from ssdprof.model.workload import WorkloadError
from ssdprof.remote.addresses import HostError
from ssdprof.store.db import Store, default_db_path
from ssdprof.store.interchange import ImportError_

__all__ = ["build_parser", "main"]

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ssdprof", formatter_class=Formatter, description=(
        "Profile SSDs with fio or the portable engine; store, compare and export the results.\n\n"
        "example:\n  ssdprof run --target /mnt/ssd --rw randread --bs 4k --qd 32 --runtime 30"))
    parser.add_argument("--version", action="version", version=f"ssdprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    measure_flags(sub)
    cli_curve.register(sub)

    runs_parser = command(sub, "runs", "list, show, tag or delete stored runs", "ssdprof runs list --tag interface=NVMe\n"
                    "  ssdprof runs show 12 --json")
    runs_sub = runs_parser.add_subparsers(dest="runs_command", metavar="ACTION", required=True)
    lst = command(runs_sub, "list", "list stored runs", "ssdprof runs list --search Samsung --since 2026-01-01")
    lst.add_argument("--tag", help="key=value, or a bare value matching any tag")
    lst.add_argument("--search", help="text in target, device model, engine or source")
    lst.add_argument("--since", help="ISO date, e.g. 2026-11-01")
    lst.add_argument("--sweep", type=int, help="only the runs of this sweep (all of them)")
    lst.add_argument("--limit", type=positive_int, default=500, help="show the newest N matching runs (default 500)")
    common(lst)
    breakdown_flag(lst)
    show = command(runs_sub, "show", "show one run in full", "ssdprof runs show 12")
    show.add_argument("run_id", type=int)
    show.add_argument("--raw", action="store_true", help="print the tool's raw output as stored")
    common(show)
    breakdown_flag(show)
    tag = command(runs_sub, "tag", "add or change tags of a run", "ssdprof runs tag 12 interface=SATA nodes=3")
    tag.add_argument("run_id", type=int)
    tag.add_argument("tags", nargs="+", metavar="KEY=VALUE")
    common(tag)
    delete = command(runs_sub, "delete", "delete a run", "ssdprof runs delete 12")
    delete.add_argument("run_id", type=int)
    common(delete)
    summary_flags(runs_sub)

    export = command(sub, "export", "write runs as CSV, JSON or a fio job file",
                      "ssdprof export 12 13 --format csv -o results.csv\n  ssdprof export --sweep 3 --format json\n"
                      "  ssdprof export 12 --format fio -o repro.fio && fio repro.fio")
    export.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID")
    export.add_argument("--sweep", type=int, help="export every run of this sweep")
    export.add_argument("--format", choices=["csv", "json", "fio", "pdf"], default="json")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    common(export)

    imp = command(sub, "import", "store fio output files (json or json+, any version) as earlier runs",
                   "ssdprof import old-run.json --tag interface=SATA")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE")
    imp.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    common(imp)

    presets = command(sub, "presets", "list the ready-made sweeps", "ssdprof presets --json")
    common(presets)

    cli_hosts.register(sub, command, common)
    cli_analysis.register(sub)
    cli_specs.register(sub)
    cli_report.register(sub, command, common)
    _register_tests(sub)

    rpc = command(sub, "rpc", "serve JSON-RPC 2.0 on standard input/output (used by the desktop app)",
                   "ssdprof rpc --db results.sqlite3")
    common(rpc)

    serve = command(sub, "serve", "browser mode: the app on 127.0.0.1, with a per-launch token in the printed URL",
                     "ssdprof serve --port 8080   # over SSH first: ssh -L 8080:127.0.0.1:8080 lab-host")
    serve.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    common(serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return _dispatch(args)
    except WorkloadError as exc:
        _print_problems(exc, args)
        return 2
    except HostError as exc:
        print(f"ssdprof: {exc}", file=sys.stderr)
        return 1
    except (ImportError_, KeyError, FileNotFoundError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"ssdprof: {message}", file=sys.stderr)
        return 1 if isinstance(exc, KeyError) else 2


def _print_problems(exc: WorkloadError, args: argparse.Namespace) -> None:
    if getattr(args, "json", False):
        print(json.dumps({"error": "invalid input", "problems": [p.model_dump() for p in exc.problems]}, indent=2))
    for problem in exc.problems:
        print(f"ssdprof: {problem}", file=sys.stderr)


def _register_tests(sub: Any) -> None:
    """The PTS tests and the sustained-write test (whose runner and ruptures load only when it runs)."""
    from ssdprof.cli import sustain as cli_sustain

    cli_pts.register(sub, command, common)
    cli_sustain.register(sub, command, common)


def _sustain(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.cli import sustain as cli_sustain

    return cli_sustain.handle(args, store)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "presets":
        return presets(args)
    if args.command == "rpc":
        from ssdprof.app.rpc import serve_stdio

        return serve_stdio(args.db or default_db_path())
    if args.command == "serve":
        from ssdprof.app.server import serve

        return serve(args.db or default_db_path(), port=args.port)
    handlers = {"run": measure, "sweep": measure, "runs": runs, "export": export, "import": import_files, "hosts": cli_hosts.handle,
                "specs": cli_specs.handle,
                **dict.fromkeys(cli_analysis.COMMANDS, cli_analysis.handle),
                **dict.fromkeys(cli_curve.COMMANDS, cli_curve.handle), **dict.fromkeys(cli_report.COMMANDS, cli_report.handle),
                **dict.fromkeys(cli_pts.COMMANDS, cli_pts.handle), "sustain": _sustain}
    store = Store(args.db or default_db_path())
    try:
        return handlers[args.command](args, store)
    finally:
        store.close()


