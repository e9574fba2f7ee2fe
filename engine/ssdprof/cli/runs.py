"""``ssdprof runs``, ``export``, ``import`` and ``presets``: stored runs listed, shown, summarised,
tagged, deleted, written out and read in."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import breakdown_flag, command, command_actions, common, positive_int
from ssdprof.cli.summary import summary_flags

if TYPE_CHECKING:
    from ssdprof.model.health import HealthRecord
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "export", "handle", "import_files", "list_runs", "presets", "register", "runs", "show"]

COMMANDS = commands_of("runs")


def register(sub: Any) -> None:
    """``runs`` and its actions, ``export``, ``import`` and ``presets``."""
    _runs_flags(sub)
    out = command(sub, "export", "write runs as CSV, JSON, a fio job file, a PDF, or fio-plot's folder of fio JSON files",
                  "ssdprof export 12 13 --format csv -o results.csv\n"
                  "  ssdprof export --sweep 3 --format json\n"
                  "  ssdprof export 12 --format fio -o repro.fio && fio repro.fio\n"
                  "  ssdprof export --format fio-plot 3 plots/ && fio-plot -i plots/ssdprof/4k -T sweep3 -l -r randread")
    out.add_argument("run_ids", nargs="*", metavar="RUN_ID",
                     help="runs to export; with --format fio-plot: SWEEP DIR (a sweep and the folder to write)")
    out.add_argument("--sweep", type=int, help="export every run of this sweep")
    out.add_argument("--format", choices=["csv", "json", "fio", "pdf", "fio-plot"], default="json")
    out.add_argument("-o", "--output", type=Path, help="file to write (default: standard output); the folder for fio-plot")
    common(out)
    imp = command(sub, "import", "store earlier runs from other tools' results, recognised by their content: fio JSON, "
                  "a cbt results tree (its folder), elbencho's CSV or results file, diskspd's XML, CrystalDiskMark's or "
                  "KDiskMark's text export; the same content imported again is not stored twice",
                  "ssdprof import old-run.json --tag interface=SATA\n"
                  "  ssdprof import CDM_20240105.txt KDM_20240105.txt\n"
                  "  ssdprof import cbt-archive/ --tag cluster=lab2")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE_OR_FOLDER")
    imp.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    common(imp)
    common(command(sub, "presets", "list the ready-made sweeps", "ssdprof presets --json"))


def _runs_flags(sub: Any) -> None:
    actions = command_actions(sub, "runs", "list, show, tag or delete stored runs",
                              "ssdprof runs list --tag interface=NVMe\n  ssdprof runs show 12 --json")
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
    answer = {"runs": runs, "export": export, "import": import_files}[args.command]
    return answer(args, store)


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
              else f"run {args.run_id}: " + ", ".join(f"{k}={v}" for k, v in updated.tags.items()))
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


def _export_targets(args: argparse.Namespace) -> tuple[int | None, list[int], Path | None]:
    """The sweep, run ids and output the positional words name; fio-plot's are SWEEP DIR."""
    from ssdprof.model.workload import WorkloadError

    words, sweep, output = list(args.run_ids), args.sweep, args.output
    if args.format == "fio-plot" and output is None and words:
        output = Path(words.pop())
        if sweep is None and len(words) == 1:
            sweep = None if not words[0].isdigit() else int(words.pop())
    bad = next((w for w in words if not w.isdigit()), None)
    if bad is not None:
        raise WorkloadError.single("run_ids", "RUN_ID", f"{bad!r} is not a run id (a whole number); for fio-plot: "
                                   "ssdprof export --format fio-plot SWEEP DIR")
    if args.format == "fio-plot" and output is None:
        raise WorkloadError.single("output", "DIR", "name the folder to write: ssdprof export --format fio-plot SWEEP DIR")
    return sweep, [int(w) for w in words], output


def export(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.cli.summary import named_runs, summary_of
    from ssdprof.model.workload import WorkloadError

    sweep, run_ids, output = _export_targets(args)
    runs = named_runs(store, sweep, run_ids, "ssdprof export --sweep 3 --format csv")
    if args.format == "fio-plot":
        from ssdprof.store.fio_plot import write_fio_plot

        assert output is not None
        written = write_fio_plot(runs, output)
        folders = sorted({str(p.parent) for p in written})
        print(f"wrote {len(written)} fio JSON file(s) for fio-plot in {output}; draw one folder with e.g.: "
              f"fio-plot -i {folders[0]} -T title -l -r {runs[0].workload.pattern.value}", file=sys.stderr)
        return 0
    args.output = output
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
    from ssdprof.app.contract.imports import ImportedSource
    from ssdprof.cli.measure import parse_tags
    from ssdprof.store.imports.recognise import read_sources, recognise
    from ssdprof.store.imports.stored import store_recognised

    tags = parse_tags(args.tag)
    batch = [recognise(found, tags) for found in read_sources(args.files)]  # all read before any is stored
    done = store_recognised(store, batch)
    stored = [run for kept in done for run in kept.stored]
    if args.json:
        sources = [ImportedSource(source=k.source, format=k.format, run_ids=[r.id or 0 for r in k.stored],
                                  already_stored=k.already, notes=k.notes, summary=k.summary()) for k in done]
        print(RunsImported(runs=stored, sources=sources).model_dump_json(indent=2))
        return 0
    for kept in done:
        for run in kept.stored:
            print(f"imported run {run.id}: {run.workload.label} from {kept.source}")
        for latency in dict.fromkeys(r.imported.latency for r in kept.stored if r.imported):
            print(f"latency: {kept.source}: {latency}")
        for note in kept.notes:
            print(f"note: {kept.source}: {note}")
        print(kept.summary())
    return 0
