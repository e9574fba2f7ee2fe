"""``ssdprof curve`` (latency under offered load) and ``ssdprof slo`` (the queue depth with the most IOPS
within a latency target): the same workload and host flags as ``run``, planned by the engine's planner, run by its runner."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli import hosts as cli_hosts
from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command
from ssdprof.cli.measure import parse_tags, request_from_args, run_flags, workload_flags
from ssdprof.cli.terminal import say_written

if TYPE_CHECKING:
    from ssdprof.app.kinds.kind import Context, Report
    from ssdprof.app.kinds.sweep import SweepPlan
    from ssdprof.model.curves import CurveSummary, SloSummary
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "handle", "register"]

COMMANDS = commands_of("curve")


def register(sub: Any) -> None:
    curve = command(sub, "curve", "latency under offered load: the maximum, then fixed rates at percentages of it",
                    "ssdprof curve --target /mnt/ssd --rw randread --bs 4k --qd 32 --points 10,50,70,80,90,100 "
                    "--stop-latency 5ms --json\n  ssdprof curve --resume\n  ssdprof curve --show 7 --format csv -o curve.csv\n"
                    "  ssdprof curve --show 7 --compare 4 --spec samsung-980-1tb --format pdf -o curve.pdf")
    workload_flags(curve)
    run_flags(curve)
    curve.add_argument("--points", default="10,50,70,80,90,100",
                       help="offered rates as %% of the maximum, 1-100 (default 10,50,70,80,90,100)")
    curve.add_argument("--stop-latency", help="stop once a point's p99 total latency passes this, e.g. 5ms")
    _stored_flags(curve, "curve")
    curve.add_argument("--format", choices=["json", "csv", "pdf"], default="json",
                       help="with --show: the export format (pdf: the curve's report page, needs -o)")
    curve.add_argument("-o", "--output", type=Path, help="with --show: the file to write (default: standard output)")
    curve.add_argument("--spec", metavar="SPEC_ID", help="with --show: draw this spec sheet's rated figures "
                       "(default: the sheet matching the drive)")
    curve.add_argument("--spec-dir", type=Path, help="your own spec sheets, added to the bundled ones")
    curve.add_argument("--compare", type=int, action="append", default=[], metavar="SWEEP_ID",
                       help="with --show --format pdf: overlay an earlier curve; repeat for more")
    curve.add_argument("--title", help="with --show --format pdf: the report's title")
    slo = command(sub, "slo", "the queue depth with the most IOPS whose latency at a percentile stays within a target",
                  "ssdprof slo --target /mnt/ssd --rw randread --bs 4k --percentile 99 --latency 1ms --max-qd 256 --json\n"
                  "  ssdprof slo --show 9 --format pdf -o slo.pdf")
    workload_flags(slo)
    run_flags(slo)
    slo.add_argument("--percentile", default="99", help="the percentile of total latency held to the target (default 99)")
    slo.add_argument("--latency", default="1ms", help="the target, e.g. 1ms, 500us (at least 1us; default 1ms)")
    slo.add_argument("--max-qd", default="256", help="the deepest queue the search may try (default 256)")
    _stored_flags(slo, "slo")
    slo.add_argument("--format", choices=["json", "pdf"], default="json",
                     help="with --show: the export format (pdf: the search's report page, needs -o)")
    slo.add_argument("-o", "--output", type=Path, help="with --show: the file to write (default: standard output)")
    slo.add_argument("--title", help="with --show --format pdf: the report's title")


def _stored_flags(parser: argparse.ArgumentParser, name: str) -> None:
    parser.add_argument("--resume", nargs="?", const=-1, type=int, metavar="SWEEP_ID",
                        help=f"continue an interrupted {name} (the last unfinished one by default)")
    parser.add_argument("--show", type=int, metavar="SWEEP_ID", help=f"print a stored {name}, run nothing")


def handle(args: argparse.Namespace, store: Store) -> int:
    from dataclasses import replace

    from ssdprof.app.curve import summarize_curve
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.sweep import SWEEP
    from ssdprof.app.slo import summarize_slo
    from ssdprof.cli.foreground import run_job
    from ssdprof.cli.terminal import ProgressPrinter

    kind = args.command
    if args.show is not None:
        return _show(args, store, kind)
    ctx = Context(store, ssh=cli_hosts.ssh_settings(args))
    plan = replace(_plan(args, ctx), tags=parse_tags(args.tag))
    outcome = run_job(ctx, SWEEP, plan, ProgressPrinter(sys.stderr).handle)
    final = outcome.spec or plan.spec
    summarize = summarize_curve if kind == "curve" else summarize_slo
    summary = summarize(final, outcome.measured, sweep_id=outcome.sweep_id, status=outcome.status, reason=outcome.reason)
    _print(summary, as_json=args.json)
    if outcome.status != "done" and outcome.sweep_id is not None:
        print(f"ssdprof: {outcome.status}; finished points are kept. Continue with: ssdprof {kind} --resume {outcome.sweep_id}",
              file=sys.stderr)
    if outcome.status == "cancelled":
        return 130
    return 1 if outcome.status != "done" or any(r.status in ("failed", "partial") for r in outcome.results) else 0


def _plan(args: argparse.Namespace, ctx: Context) -> SweepPlan:
    """The curve or search to run, or the stored one it continues."""
    from ssdprof.app.contract.runs import ResumeParams
    from ssdprof.app.curve import CurveRequest
    from ssdprof.app.kinds.curve import CURVE
    from ssdprof.app.kinds.slo import SLO
    from ssdprof.app.planner import validated
    from ssdprof.app.slo import SloRequest

    kind = CURVE if args.command == "curve" else SLO
    if args.resume is not None:
        return kind.resume(ResumeParams(sweep_id=args.resume if args.resume > 0 else None), ctx)
    request = request_from_args(args)
    if args.command == "curve":
        curve = validated(CurveRequest, sweep=request, points_pct=args.points, stop_latency=args.stop_latency)
        return CURVE.plan(curve, ctx, to_run=True)
    slo = validated(SloRequest, sweep=request, percentile=args.percentile, latency=args.latency, max_qd=args.max_qd)
    return SLO.plan(slo, ctx, to_run=True)


def _show(args: argparse.Namespace, store: Store, kind: str) -> int:
    from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.app.contract.curves import CurveGetParams, CurveIdParams, CurveReportParams, SloReportParams
    from ssdprof.app.kinds.curve import CURVE
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.slo import SLO
    from ssdprof.app.planner import validated
    from ssdprof.model.workload import WorkloadError
    from ssdprof.store.interchange import curve_csv

    folders = (bundled_spec_dir(), getattr(args, "spec_dir", None) or default_user_spec_dir())
    ctx = Context(store, library=lambda: SpecLibrary.load(folders))
    if args.format == "pdf":
        if args.output is None:
            raise WorkloadError.single("output", "-o", f"a PDF needs a file to go to: add -o {kind}.pdf")
        if kind == "curve":
            report = CURVE.report(validated(CurveReportParams, sweep_id=args.show, spec_id=args.spec,
                                            compare_with=args.compare, title=args.title), ctx)
        else:
            report = SLO.report(validated(SloReportParams, sweep_id=args.show, title=args.title), ctx)
        return _write_pdf(args, report, f"{'curve' if kind == 'curve' else 'search'} {args.show}")
    if kind == "curve":
        curve = CURVE.result(validated(CurveGetParams, sweep_id=args.show, spec_id=args.spec), ctx)
        text = curve_csv(curve) if args.format == "csv" else curve.model_dump_json(indent=2) + "\n"
    else:
        text = SLO.result(validated(CurveIdParams, sweep_id=args.show), ctx).model_dump_json(indent=2) + "\n"
    output: Path | None = getattr(args, "output", None)
    if output is not None:
        output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


def _write_pdf(args: argparse.Namespace, report: Report, what: str) -> int:
    args.output.write_bytes(report.pdf)
    if args.json:
        from ssdprof.app.contract.cli import CurvePdfWritten

        written = CurvePdfWritten(output=str(args.output), bytes=len(report.pdf), points=report.runs)
        print(written.model_dump_json(indent=2))
    else:
        say_written(args.output, len(report.pdf), f"{what} with {report.runs} point(s)")
    return 0


def _print(summary: CurveSummary | SloSummary, *, as_json: bool) -> None:
    if as_json:
        print(summary.model_dump_json(indent=2))
        return
    from ssdprof.model.curves import CurveSummary

    if isinstance(summary, CurveSummary):
        print(f"{summary.label}: maximum {summary.max_iops or 0:,.0f} IOPS ({summary.engine})")
        print(f"{'point':>6} {'offered':>10} {'achieved':>10} {'mean µs':>9} {'p50 µs':>9} {'p99 µs':>9} {'p99.9 µs':>9}")
        for p in summary.points:
            offered = "-" if p.pct is None else f"{p.offered_iops:,.0f}"  # full speed: no rate was offered
            print(f"{'max' if p.pct is None else f'{p.pct} %':>6} {offered:>10} {p.achieved_iops:>10,.0f} "
                  f"{_us(p.lat_ns_mean):>9} {_us(p.lat_ns_p50):>9} {_us(p.lat_ns_p99):>9} {_us(p.lat_ns_p99_9):>9}"
                  f"{'  saturated' if p.saturated and p.pct is not None else ''}")
        if summary.knee:
            print(summary.knee.text)
        return
    marks = {p.queue_depth: name for p, name in ((summary.deepest, "deepest within target"),
                                                 (summary.best, "most IOPS")) if p is not None}
    for q in summary.points:
        print(f"QD{q.queue_depth:<5} {q.iops:>10,.0f} IOPS  p{summary.percentile:g} "
              f"{_us(q.lat_ns_at_percentile):>9} µs  {'meets' if q.meets else 'misses':<6}  "
              f"{marks.get(q.queue_depth, '')}".rstrip())
    print(summary.text)


def _us(ns: float | None) -> str:
    return "-" if ns is None else f"{ns / 1e3:.1f}"
