"""``ssdprof report``, ``ssdprof import-table`` and ``ssdprof import-job``: PDF reports and imports.

``register(sub)`` adds the commands and ``handle(args, store)`` runs them, as every command module's
do. Errors are raised as the CLI's usual exceptions (WorkloadError: bad input, exit 2); ``cli/main.py``
turns them into messages and exit codes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, common
from ssdprof.cli.terminal import say_written

if TYPE_CHECKING:  # the engine loads in the handlers: matplotlib and reportlab only when a report is written
    from ssdprof.analysis.summary import StudentSummary
    from ssdprof.model.results import RunResult
    from ssdprof.model.sweep import SweepSpec
    from ssdprof.report import ReportRequest, RunGroup
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "export_pdf", "handle", "register"]

COMMANDS = commands_of("report")


def register(sub: Any) -> None:
    """Add the commands; ``command`` and ``common`` are cli.py's helpers."""
    report = command(sub, "report", "write a PDF report of runs, a sweep, or groups of runs compared",
                     "ssdprof report --sweep 3 -o student-report.pdf\n"
                     "  ssdprof report 12 13 14 --title 'Samsung 970 EVO, 4K random read' -o report.pdf\n"
                     "  ssdprof report --group SATA=1,2,3 --group PCIe=4,5,6 -o sata-vs-pcie.pdf")
    report.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID")
    report.add_argument("--sweep", type=int, help="every run of this sweep")
    report.add_argument("--group", action="append", default=[], metavar="LABEL=ID,ID,...",
                        help="a labelled group of run ids to compare; repeat for each group")
    report.add_argument("--title", default="SSD performance report", help="the report's title")
    report.add_argument("--spec", metavar="SPEC_ID", help="compare with this spec sheet (default: the one matching the drive)")
    report.add_argument("--spec-dir", type=Path, help="your own spec sheets, added to the bundled ones")
    report.add_argument("-o", "--output", type=Path, default=Path("ssdprof-report.pdf"), help="PDF to write (default %(default)s)")
    common(report)

    table = command(sub, "import-table", "store a CSV of results (block size, queue depth, direction, IOPS, MB/s, latency) "
                    "as earlier runs", "ssdprof import-table datasheet.csv --tag source=vendor --tag interface=NVMe")
    table.add_argument("file", type=Path, metavar="FILE.csv")
    table.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    common(table)

    job = command(sub, "import-job", "check a fio job file and turn its jobs into ssdprof workloads (with --run, measure them)",
                  "ssdprof import-job randread.fio --target /mnt/ssd/test --run")
    job.add_argument("file", type=Path, metavar="JOB.fio")
    job.add_argument("--target", required=True, help="directory (or file or device) every job measures; the job file's "
                     "own filename/directory may only point inside it")
    job.add_argument("--run", action="store_true", help="measure the jobs now (one after another) and store the runs")
    job.add_argument("--repeat", type=int, default=1, help="repeat every job N times (default 1)")
    job.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    common(job)


def handle(args: argparse.Namespace, store: Store) -> int:
    answer = {"report": _report, "import-table": _import_table, "import-job": _import_job}[args.command]
    return answer(args, store)


def _load(store: Store, run_ids: list[int]) -> list[RunResult]:
    runs = []
    for run_id in run_ids:
        found = store.run(run_id)
        if found is None:
            raise KeyError(f"run {run_id} does not exist; see: ssdprof runs list")
        runs.append(found)
    return runs


def _groups(args: argparse.Namespace, store: Store) -> list[RunGroup]:
    from ssdprof.model.workload import WorkloadError
    from ssdprof.report import RunGroup
    from ssdprof.store.db import RunFilter

    groups = []
    for item in args.group:
        label, sep, ids = item.partition("=")
        try:
            run_ids = [int(i) for i in ids.split(",") if i.strip()]
        except ValueError:
            run_ids = []
        if not sep or not label.strip() or not run_ids:
            raise WorkloadError.single("group", "--group", f"{item!r}: use LABEL=ID,ID,... e.g. SATA=1,2,3")
        groups.append(RunGroup(label.strip(), tuple(_load(store, run_ids))))
    runs = store.runs(RunFilter(sweep_id=args.sweep, limit=None)) if args.sweep is not None else []
    if args.sweep is not None and not runs:
        raise KeyError(f"sweep {args.sweep} has no runs; see: ssdprof runs list --sweep {args.sweep}")
    runs += _load(store, args.run_ids)
    if runs:
        groups.insert(0, RunGroup("runs" if not groups else "selected", tuple(runs)))
    if not groups:
        raise WorkloadError.single("run_ids", "RUN_ID", "name run ids, --sweep ID or --group LABEL=IDS")
    return groups


def _report(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.spec_choice import drive_environment
    from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.app.adaptive import adaptive_summaries
    from ssdprof.app.service.summary import spec_for, summary_for
    from ssdprof.report import ReportRequest

    folders = (bundled_spec_dir(), args.spec_dir or default_user_spec_dir())
    library = SpecLibrary.load(folders)
    curves, slos = adaptive_summaries(store, args.sweep, library, args.spec)
    groups = tuple(_groups(args, store))
    _, pick = spec_for(store, library, drive_environment(groups[0].runs[0]), args.spec)
    chosen = pick.spec_id if pick.how != "matched" else None  # now or before, for every run
    summary = summary_for(store, library, groups[0].runs, args.spec) if len(groups) == 1 else None
    request = ReportRequest(groups=groups, title=args.title, spec_id=chosen, spec_folders=folders,
                            curves=curves, slos=slos, summary=summary)
    return _write_pdf(request, args.output, args.json)


def export_pdf(runs: list[RunResult], output: Path | None,
               summary: StudentSummary | None = None) -> int:
    """``ssdprof export ... --format pdf``: the same report as ``ssdprof report``."""
    from ssdprof.model.workload import WorkloadError

    if output is None:
        raise WorkloadError.single("output", "-o", "a PDF needs a file to go to: add -o report.pdf")
    from ssdprof.report import ReportRequest

    return _write_pdf(ReportRequest.of_runs(runs, summary=summary), output, False)


def _write_pdf(request: ReportRequest, output: Path, as_json: bool) -> int:
    from ssdprof.app.contract.cli import ReportWritten
    from ssdprof.model.workload import WorkloadError
    from ssdprof.report import ReportError, build_pdf

    try:
        pdf = build_pdf(request)
    except ReportError as exc:
        raise WorkloadError.single("run_ids", "RUN_ID", str(exc)) from None
    output.write_bytes(pdf)
    runs = sum(len(g.runs) for g in request.groups)
    if as_json:
        print(ReportWritten(output=str(output), bytes=len(pdf), runs=runs).model_dump_json(indent=2))
    else:
        say_written(output, len(pdf), f"{runs} run(s)")
    return 0


def _import_table(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.cli import TableImported
    from ssdprof.cli.measure import parse_tags
    from ssdprof.model.workload import WorkloadError
    from ssdprof.store.tabular import TableImportError, import_table

    try:
        imported = import_table(args.file, parse_tags(args.tag))
    except TableImportError as exc:
        raise WorkloadError.single("file", "FILE.csv", str(exc)) from None
    stored = [store.add_run(run) for run in imported.runs]
    if args.json:
        print(TableImported(runs=stored, assumptions=imported.assumptions,
                            unit_warnings=imported.unit_warnings).model_dump_json(indent=2))
        return 0
    for run in stored:
        print(f"imported run {run.id}: {run.workload.label} from {args.file.name}")
    for assumption in imported.assumptions:
        print(f"assumed: {assumption}")
    for warning in imported.unit_warnings:
        print(f"warning: {warning}")
    return 0


def _import_job(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.cli import JobFileRead, JobRead
    from ssdprof.cli.measure import parse_tags
    from ssdprof.fio.job_import import JobFileError, read_job_file
    from ssdprof.model.sweep import SweepSpec, describe
    from ssdprof.model.workload import WorkloadError

    if args.repeat < 1:
        raise WorkloadError.single("repeat", "--repeat", f"must be at least 1; got {args.repeat}")
    try:
        imported = read_job_file(args.file, args.target)
    except JobFileError as exc:
        for problem in exc.problems:
            print(f"ssdprof: refused: {problem}", file=sys.stderr)
        return 2
    tags = {"job_file": args.file.name, **parse_tags(args.tag)}
    spec = SweepSpec(name=f"job file {args.file.name}", points=[w for _, w in imported.workloads], repeats=args.repeat, tags=tags)
    if args.json and not args.run:
        jobs = [JobRead(name=name, workload=workload) for name, workload in imported.workloads]
        print(JobFileRead(jobs=jobs, notes=list(imported.notes)).model_dump_json(indent=2))
        return 0
    out = sys.stderr if args.run else sys.stdout
    for job_name, workload in imported.workloads:
        print(f"[{job_name}] {workload.label}, {workload.runtime_s:g} s, {'direct' if workload.direct else 'BUFFERED'}", file=out)
    for note in imported.notes:
        print(f"note: {note}", file=out)
    if not args.run:
        print(f"{describe(spec)}. Measure them with: ssdprof import-job {args.file} --target {args.target} --run", file=out)
        return 0
    return _run(spec, tags, store, args.json)


def _run(spec: SweepSpec, tags: dict[str, str], store: Store, as_json: bool) -> int:
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.sweep import SWEEP, SweepPlan
    from ssdprof.cli.foreground import run_job
    from ssdprof.cli.measure import outcome_json
    from ssdprof.cli.terminal import ProgressPrinter, format_runs_table

    outcome = run_job(Context(store), SWEEP, SweepPlan(spec, tags=tags), ProgressPrinter(sys.stderr).handle)
    if as_json:
        print(outcome_json(outcome))
    else:
        print(format_runs_table(outcome.results))
    if outcome.status == "cancelled":
        return 130
    return 1 if any(r.status == "failed" for r in outcome.results) else 0
