"""``ssdprof runs``, ``export``, ``import`` and ``presets``: stored runs listed, shown, summarised,
tagged, deleted, written out and read in."""

from __future__ import annotations

import argparse
import json
import sys

from ssdprof.app.contract.runs import PresetsResult
from ssdprof.cli import report as cli_report
from ssdprof.cli.measure import parse_tags
from ssdprof.cli.summary import named_runs, summary, summary_of
from ssdprof.cli.terminal import format_run, format_runs_table
from ssdprof.fio.jobfile import reproducible_job
from ssdprof.model.health import HealthRecord
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store
from ssdprof.store.interchange import export_csv, export_json, import_fio_output

__all__ = ["export", "import_files", "presets", "runs"]


def presets(args: argparse.Namespace) -> int:
    listed = PresetsResult.listed()
    if args.json:
        print(listed.model_dump_json(indent=2))
    for row in [] if args.json else listed.presets:
        print(f"{row.name:14} {row.points:4} points  {row.description}")
    return 0


def runs(args: argparse.Namespace, store: Store) -> int:
    if args.runs_command == "summary":
        return summary(args, store)
    if args.runs_command == "list":
        where = RunFilter(tag=args.tag, text=args.search, since=args.since, sweep_id=args.sweep,
                          limit=None if args.sweep is not None else args.limit)
        runs, total = store.runs(where), store.count_runs(where)
        if args.json:
            print(json.dumps({"runs": [r.summary_json() for r in runs], "total": total}, indent=2))
        else:
            print(format_runs_table(runs, breakdown=args.breakdown))
            if total > len(runs):
                print(f"the newest {len(runs)} of {total} matching runs; see more with --limit {total}")
        return 0
    if args.runs_command == "tag":
        updated = store.set_tags(args.run_id, parse_tags(args.tags))
        print(json.dumps(updated.summary_json(), indent=2) if args.json else f"run {args.run_id}: {updated.tags}")
        return 0
    if args.runs_command == "delete":
        if not store.delete_run(args.run_id):
            raise KeyError(f"run {args.run_id} does not exist")
        print(f"deleted run {args.run_id}")
        return 0
    result = store.run(args.run_id)
    if result is None:
        raise KeyError(f"run {args.run_id} does not exist; see: ssdprof runs list")
    if args.raw:
        print(result.raw_output)
    else:
        print(json.dumps(result.summary_json(), indent=2) if args.json else format_run(result, breakdown=args.breakdown))
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
    runs = named_runs(store, args.sweep, args.run_ids, "ssdprof export --sweep 3 --format csv")
    if args.format == "pdf":
        return cli_report.export_pdf(runs, args.output, summary_of(runs, store))
    if args.format == "fio":
        if len(runs) != 1:
            raise WorkloadError.single("run_ids", "RUN_ID", "a fio job file reproduces one run; name exactly one")
        text = reproducible_job(runs[0])
    else:
        text = export_csv(runs) if args.format == "csv" else export_json(runs)
    if args.output:
        args.output.write_text(text)
        print(f"wrote {len(runs)} run(s) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def import_files(args: argparse.Namespace, store: Store) -> int:
    tags = parse_tags(args.tag)
    parsed = [(path, import_fio_output(path, tags)) for path in args.files]  # all or nothing
    stored = [store.add_run(run) for _, runs in parsed for run in runs]
    if args.json:
        print(json.dumps({"runs": [r.summary_json() for r in stored]}, indent=2))
    else:
        for run in stored:
            print(f"imported run {run.id}: {run.workload.label} from {run.source.removeprefix('imported:')}")
    return 0
