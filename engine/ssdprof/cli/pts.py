"""``ssdprof pts``: the SNIA PTS tests (IOPS, throughput, latency, write saturation) run, resumed, listed,
shown and reported. Flags map onto one :class:`PtsRequest`; the PTS kind (``app/kinds/pts.py``) plans,
estimates, runs and reads it back as it does for the RPC."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, common
from ssdprof.cli.terminal import print_stored

if TYPE_CHECKING:
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.pts import PtsPlan
    from ssdprof.app.pts_planner import PtsRequest
    from ssdprof.model.events import RunEvent
    from ssdprof.model.pts_results import PtsInfo, PtsResult
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "handle", "register"]

COMMANDS = commands_of("pts")
TESTS = ["iops", "throughput", "latency", "write-saturation"]
"""``model.pts.PtsTest``'s values, named here so that the parser loads no model (a test holds them equal)."""


def register(sub: Any) -> None:
    pts = command(sub, "pts", "SNIA PTS tests: preconditioning, steady state by rounds, the PTS report",
                  "ssdprof pts iops --target /dev/nvme1n1 --allow-overwrite --purge --json\n"
                  "  ssdprof pts latency --target ~/ssdtest --size 1GiB --profile laptop\n"
                  "  ssdprof pts resume && ssdprof pts report 7 -o pts.pdf")
    actions = pts.add_subparsers(dest="pts_command", metavar="TEST_OR_ACTION", required=True)
    for test in TESTS:
        parser = command(actions, test, f"run the PTS {test} test", f"ssdprof pts {test} --target ~/ssdtest --size 1GiB "
                         "--profile laptop --round-time 5s")
        _test_flags(parser)
        common(parser)
    resume = command(actions, "resume", "continue an interrupted PTS test", "ssdprof pts resume 7")
    resume.add_argument("pts_id", type=int, nargs="?", help="default: the last unfinished test")
    common(resume)
    common(command(actions, "list", "stored PTS tests, newest first", "ssdprof pts list --json"))
    show = command(actions, "show", "a PTS test: steady state, rounds, matrix", "ssdprof pts show 7 --json")
    show.add_argument("pts_id", type=int)
    common(show)
    report = command(actions, "report", "the PTS report as a PDF", "ssdprof pts report 7 -o pts-iops.pdf")
    report.add_argument("pts_id", type=int)
    report.add_argument("--title", help="the report's title")
    report.add_argument("-o", "--output", type=Path, default=Path("ssdprof-pts.pdf"), help="PDF to write (default %(default)s)")
    common(report)


def _test_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("test")
    group.add_argument("--target", help="directory (a test file is kept for the test), file or block device")
    group.add_argument("--size", help="the test region, e.g. 1GiB (default: the whole device, or 256MiB)")
    group.add_argument("--offset", help="where the region starts in a file or device (default 0)")
    group.add_argument("--engine", help="auto (fio if installed), fio or portable")
    group.add_argument("--profile", choices=["pts", "laptop"], default="pts",
                       help="laptop: short rounds, fewer access sizes and mixes; labelled NOT PTS-compliant")
    group.add_argument("--round-time", help="measured time of every point in a round (PTS 60s; laptop 2s)")
    group.add_argument("--window", type=int, help="rounds judged for steady state (PTS 5)")
    group.add_argument("--data-limit", type=float, help="max - min allowed over the window, %% of its mean (PTS 20)")
    group.add_argument("--slope-limit", type=float, help="the fitted line's change allowed, %% of the mean (PTS 10)")
    group.add_argument("--min-rounds", type=int, help="rounds before steady state may be declared (PTS 5)")
    group.add_argument("--max-rounds", type=int, help="rounds at most (PTS 25; write saturation: a cap beside --multiple)")
    group.add_argument("--precondition", choices=["auto", "none"], default="auto",
                       help="auto: sequential 128 KiB writes over --passes x the region first (PTS); none: as found")
    group.add_argument("--passes", type=float, help="preconditioning passes over the region (PTS 2)")
    group.add_argument("--purge", action="store_true",
                       help="purge first: blkdiscard on a block device (never one in use), a new file for a file")
    group.add_argument("--allow-overwrite", action="store_true", help="confirm writing a block device or an existing file")
    group.add_argument("--bs", help="access sizes instead of the profile's, e.g. 4k,128k")
    group.add_argument("--mixes", help="read %% of each mix instead of the profile's, e.g. 100,65,0")
    group.add_argument("--qd", help="queue depth per job (default 32; latency runs at 1)")
    group.add_argument("--jobs", help="jobs (default 1; latency runs at 1)")
    group.add_argument("--multiple", type=float, help="write saturation: stop after this multiple of the region (PTS 4)")
    group.add_argument("--buffered", action="store_true", help="through the page cache (not device numbers)")
    group.add_argument("--name", help="the test's name")
    group.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE", help="tag every run of the test")
    group.add_argument("--estimate", action="store_true", help="print the rounds, points and duration; run nothing")


def request_from_args(args: argparse.Namespace) -> PtsRequest:
    from ssdprof.app.planner import validated
    from ssdprof.app.pts_planner import PtsRequest
    from ssdprof.model.pts import PtsTest

    return validated(
        PtsRequest,
        test=PtsTest(args.pts_command), target=args.target, size_bytes=args.size, offset_bytes=args.offset,
        engine=args.engine, profile=args.profile, round_time_s=args.round_time, window=args.window,
        data_limit_pct=args.data_limit, slope_limit_pct=args.slope_limit, min_rounds=args.min_rounds,
        max_rounds=args.max_rounds, precondition=args.precondition, precondition_passes=args.passes, purge=args.purge,
        allow_overwrite=args.allow_overwrite, block_sizes=_list(args.bs), mixes=_list(args.mixes), queue_depth=args.qd,
        numjobs=args.jobs, saturation_multiple=args.multiple, direct=False if args.buffered else None, name=args.name,
        tags=args.tag)


def _list(text: str | None) -> list[int | float | str] | None:
    return [v.strip() for v in text.split(",") if v.strip()] if text else None


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.pts import PtsIdParams, PtsReportParams, PtsResumeParams
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.pts import PTS

    ctx = Context(store)
    action = args.pts_command
    if action == "list":
        return print_stored(PTS.listed(ctx, None).tests, _test_line, "PTS tests", as_json=args.json)
    if action == "show":
        result = PTS.result(PtsIdParams(pts_id=args.pts_id), ctx)
        print(json.dumps(result.model_dump(mode="json"), indent=2) if args.json else format_pts(result))
        return 0
    if action == "report":
        report = PTS.report(PtsReportParams(pts_id=args.pts_id, title=args.title), ctx)
        args.output.write_bytes(report.pdf)
        print(f"wrote {args.output} ({len(report.pdf)} bytes)")
        return 0
    if action == "resume":
        return _run(args, ctx, PTS.resume(PtsResumeParams(pts_id=args.pts_id), ctx))
    plan = PTS.plan(request_from_args(args), ctx, to_run=True)
    estimate = PTS.estimate(plan, ctx)
    announce = [f"{estimate.name}: {estimate.duration_note}", f"tracking: {estimate.tracking}", estimate.compliance_note]
    announce += [line for line in (estimate.region, estimate.purge and f"purge: {estimate.purge}") if line]
    if args.estimate:
        print("\n".join(announce))
        for point in estimate.points:
            print(f"  {point.label}  {point.workload.runtime_s:g}s")
        return 0
    print("\n".join(announce), file=sys.stderr)
    return _run(args, ctx, plan)


def _run(args: argparse.Namespace, ctx: Context, plan: PtsPlan) -> int:
    from ssdprof.app.kinds.pts import PTS
    from ssdprof.cli.foreground import run_job

    outcome = run_job(ctx, PTS, plan, PtsPrinter(sys.stderr).handle)
    result = outcome.result
    print(json.dumps(result.model_dump(mode="json"), indent=2) if args.json else format_pts(result))
    if outcome.status == "cancelled":
        print(f"cancelled; finished points are kept. Continue with: ssdprof pts resume {outcome.test_id}", file=sys.stderr)
        return 130
    return 0


def _test_line(t: PtsInfo) -> str:
    compliant = "" if t.pts_compliant else "  (NOT PTS-compliant)"
    verdict = "steady state" if t.attained else "steady state not reached"
    return f"{t.id:>4}  {t.created_at[:19]}  {t.test:<16} {t.status:<9} {t.rounds:>3} rounds  {verdict}  {t.target}{compliant}"


class PtsPrinter:
    """PTS phases and rounds as lines; points through the sweep's progress printer."""

    def __init__(self, stream: TextIO):
        from ssdprof.cli.terminal import ProgressPrinter

        self.stream = stream
        self.points = ProgressPrinter(stream)
        self._last_precondition = -1.0

    def handle(self, event: RunEvent) -> None:
        from ssdprof.model.events import PreconditionProgress, PtsFinished, PtsStarted, PurgeDone, RoundFinished
        from ssdprof.model.quantities import format_bytes, format_duration

        if isinstance(event, PtsStarted):
            again = f", resuming after {event.already_rounds} round(s)" if event.already_rounds else ""
            self._say(f"PTS {event.test} test {event.pts_id}: up to {event.max_rounds} rounds of {event.points_per_round} "
                      f"point(s){again}; engine {event.engine} ({event.engine_reason})")
        elif isinstance(event, PurgeDone):
            self._say(f"purged: {event.detail}" + (f"; {event.limitation}" if event.limitation else ""))
        elif isinstance(event, PreconditionProgress):
            if event.done or event.elapsed_s - self._last_precondition >= 5:
                self._last_precondition = event.elapsed_s
                self._say(f"preconditioning (not measured): {format_bytes(event.bytes_done)} of "
                          f"{format_bytes(event.bytes_total)}, ETA {format_duration(event.eta_s)}")
        elif isinstance(event, RoundFinished):
            s = event.steady_state
            self._say(f"round {event.round}/{event.max_rounds}: {s.tracking} = {_number(event.tracking_value)} {s.unit}; "
                      f"{s.reason}")
        elif isinstance(event, PtsFinished):
            verdict = "steady state reached" if event.attained else "steady state NOT reached"
            self._say(f"{event.status}: {event.rounds} round(s), {verdict}, in {format_duration(event.wall_s)}")
        else:
            self.points.handle(event)

    def _say(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def format_pts(result: PtsResult) -> str:
    """The test as text: what it was, the determination, the rounds and the matrix."""
    from ssdprof.cli.terminal import format_latency_ns
    from ssdprof.model.quantities import format_size

    s = result.steady_state
    lines = [f"PTS {result.test} test {result.id} ({result.profile}): {result.status}", result.compliance_note]
    lines.append(f"drive state: {result.drive_state_text}")
    lines.append(f"steady state: {'REACHED' if s.attained else 'NOT REACHED'} — {s.reason}")
    if s.mean is not None:
        lines.append(f"  window rounds {s.window[0]}-{s.window[1]}: mean {_number(s.mean)} {s.unit}, data excursion "
                     f"{_number(s.data_excursion)} (allowed {_number(s.data_limit)}), slope excursion "
                     f"{_number(s.slope_excursion)} (allowed {_number(s.slope_limit)})")
    lines.append("round  " + s.tracking)
    lines += [f"{r.round:>5}  {_number(r.tracking_value)} {s.unit}" + ("" if r.complete else "  (cut short: not judged)")
              for r in result.rounds]
    lines.append("access size  mix      IOPS        MB/s   mean lat    max lat   p99.999")
    for c in result.matrix:
        lines.append(f"{format_size(c.block_size_bytes):>11}  {c.mix:<7} {_number(c.iops):>9} {c.bw_bytes_per_s / 1e6:>10.1f} "
                     f"{format_latency_ns(c.lat_mean_ns):>10} {format_latency_ns(c.lat_max_ns):>10} "
                     f"{format_latency_ns(c.lat_p99_999_ns):>9}")
    return "\n".join(lines)
