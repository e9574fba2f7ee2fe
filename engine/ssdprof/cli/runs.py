"""``ssdprof runs``, ``export``, ``import`` and ``presets``: stored runs listed, shown, summarised,
tagged, deleted, written out and read in."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import breakdown_flag, command, common, positive_int
from ssdprof.cli.summary import summary_flags

if TYPE_CHECKING:
    from ssdprof.model.health import HealthRecord
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "export", "handle", "import_files", "list_runs", "presets", "register", "runs", "show"]

COMMANDS = commands_of("runs")


def register(sub: Any) -> None:
    """``runs`` and its actions, ``export``, ``import`` and ``presets``."""
    _runs_flags(sub)
    out = command(sub, "export", "write runs as CSV, JSON or a fio job file",
                  "ssdprof export 12 13 --format csv -o results.csv\n"
                  "  ssdprof export --sweep 3 --format json\n"
                  "  ssdprof export 12 --format fio -o repro.fio && fio repro.fio")
    out.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID")
    out.add_argument("--sweep", type=int, help="export every run of this sweep")
    out.add_argument("--format", choices=["csv", "json", "fio", "pdf"], default="json")
    out.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    common(out)
    imp = command(sub, "import", "store fio output files (json or json+, any version) as earlier runs",
                  "ssdprof import old-run.json --tag interface=SATA")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE")
    imp.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    common(imp)
    common(command(sub, "presets", "list the ready-made sweeps", "ssdprof presets --json"))


def _runs_flags(sub: Any) -> None:
    parser = command(sub, "runs", "list, show, tag or delete stored runs",
                     "ssdprof runs list --tag interface=NVMe\n  ssdprof runs show 12 --json")
    actions = parser.add_subparsers(dest="runs_command", metavar="ACTION", required=True)
    lst = command(actions, "list", "list stored runs",
                  "ssdprof runs list --search Samsung --since 2026-01-01")
    lst.add_argument("--tag", help="key=value, or a bare value matching any tag")
    lst.add_argument("--search", help="text in target, device model, engine or source")
    lst.add_argument("--since", help="ISO date, e.g. 2026-11-01")
    lst.add_argument("--sweep", type=int, help="only the runs of this sweep (all of them)")
    lst.add_argument("--limit", type=positive_int, default=500,
                     help="show the newest N matching runs (default 500)")
    show = command(actions, "show", "show one run in full", "ssdprof runs show 12")
    show.add_argument("run_id", type=int)
    show.add_argument("--raw", action="store_true", help="print the tool's raw output as stored")
    for parser in (lst, show):
        common(parser)
        breakdown_flag(parser)
    tag = command(actions, "tag", "add or change tags of a run", "ssdprof runs tag 12 interface=SATA nodes=3")
    tag.add_argument("run_id", type=int)
    tag.add_argument("tags", nargs="+", metavar="KEY=VALUE")
    common(tag)
    delete = command(actions, "delete", "delete a run", "ssdprof runs delete 12")
    delete.add_argument("run_id", type=int)
    common(delete)
    summary_flags(actions)


def handle(args: argparse.Namespace, store: Store) -> int:
    if args.command == "export":
        return export(args, store)
    if args.command == "import":
        return import_files(args, store)
    return runs(args, store)


def presets(args: argparse.Namespace) -> int:
    from ssdprof.app.contract.runs import PresetsResult

    listed = PresetsResult.listed()
    if args.json:
        print(listed.model_dump_json(indent=2))
    for row in [] if args.json else listed.presets:
        print(f"{row.name:14} {row.points:4} points  {row.description}")
    return 0


def runs(args: argparse.Namespace, store: Store) -> int:
    if args.runs_command == "summary":
        from ssdprof.cli.summary import summary

        return summary(args, store)
    if args.runs_command == "list":
        return list_runs(args, store)
    if args.runs_command == "tag":
        from ssdprof.app.contract.cli import OneRun
        from ssdprof.cli.measure import parse_tags

        updated = store.set_tags(args.run_id, parse_tags(args.tags))
        print(OneRun(updated).model_dump_json(indent=2) if args.json
              else f"run {args.run_id}: {updated.tags}")
        return 0
    if args.runs_command == "delete":
        if not store.delete_run(args.run_id):
            raise KeyError(f"run {args.run_id} does not exist")
        print(f"deleted run {args.run_id}")
        return 0
    return show(args, store)


def list_runs(args: argparse.Namespace, store: Store) -> int:
    """``runs list``: what it prints loads the store, the table and (``--json``) the contract's type, no more."""
    from ssdprof.cli.terminal import format_runs_table
    from ssdprof.store.db import RunFilter

    where = RunFilter(tag=args.tag, text=args.search, since=args.since, sweep_id=args.sweep,
                      limit=None if args.sweep is not None else args.limit)
    runs, total = store.runs(where), store.count_runs(where)
    if args.json:
        from ssdprof.app.contract.cli import RunsListed

        print(RunsListed(runs=runs, total=total).model_dump_json(indent=2))
    else:
        print(format_runs_table(runs, breakdown=args.breakdown))
        if total > len(runs):
            print(f"the newest {len(runs)} of {total} matching runs; see more with --limit {total}")
    return 0


def show(args: argparse.Namespace, store: Store) -> int:
    """``runs show``: one run in full, or its tool's raw output."""
    from ssdprof.app.contract.cli import OneRun
    from ssdprof.cli.terminal import format_run

    result = store.run(args.run_id)
    if result is None:
        raise KeyError(f"run {args.run_id} does not exist; see: ssdprof runs list")
    if args.raw:
        print(result.raw_output)
    else:
        print(OneRun(result).model_dump_json(indent=2) if args.json
              else format_run(result, breakdown=args.breakdown))
        if not args.json and result.drive_health is not None:
            print(format_drive_health(result.drive_health))
    return 0


def format_drive_health(record: HealthRecord) -> str:
    """The drive's own word around the run, as the PDF's table has it."""
    width = max((len(row.label) for row in record.rows), default=0)
    lines = [f"the drive's own word: {record.title}"]
    lines += [f"  {row.label:{width}}  {row.value}" for row in record.rows]
    return "\n".join(lines)


def export(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.cli.summary import named_runs, summary_of
    from ssdprof.model.workload import WorkloadError

    runs = named_runs(store, args.sweep, args.run_ids, "ssdprof export --sweep 3 --format csv")
    if args.format == "pdf":
        from ssdprof.cli.report import export_pdf

        return export_pdf(runs, args.output, summary_of(runs, store))
    if args.format == "fio":
        if len(runs) != 1:
            raise WorkloadError.single("run_ids", "RUN_ID", "a fio job file reproduces one run; name exactly one")
        from ssdprof.fio.jobfile import reproducible_job

        text = reproducible_job(runs[0])
    else:
        from ssdprof.store.interchange import export_csv, export_json

        text = export_csv(runs) if args.format == "csv" else export_json(runs)
    if args.output:
        args.output.write_text(text)
        print(f"wrote {len(runs)} run(s) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def import_files(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.cli import RunsImported
    from ssdprof.cli.measure import parse_tags
    from ssdprof.store.interchange import import_fio_output

    tags = parse_tags(args.tag)
    parsed = [(path, import_fio_output(path, tags)) for path in args.files]  # all or nothing
    stored = [store.add_run(run) for _, runs in parsed for run in runs]
    if args.json:
        print(RunsImported(runs=stored).model_dump_json(indent=2))
    else:
        for run in stored:
            print(f"imported run {run.id}: {run.workload.label} from {run.source.removeprefix('imported:')}")
    return 0
