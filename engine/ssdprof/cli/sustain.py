"""``ssdprof sustain``: a sustained-write test — the estimate first (bytes, time, wear, the device it
overwrites), then the fill and the recovery writes with a line every few seconds; ``--json`` prints
the contract's models (the estimate, or the result), ``--resume [ID]`` continues one, ``--show ID``
and ``--list`` read them back."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli import hosts as cli_hosts
from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, common
from ssdprof.cli.terminal import EventLines, file_said, print_stored, say_written

if TYPE_CHECKING:
    from ssdprof.app.contract.cli import PdfWritten
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.sustain_planner import SustainRequest
    from ssdprof.model.sustain_events import SustainEvent
    from ssdprof.model.sustain_results import SustainResult
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "format_sustain", "handle", "register"]

COMMANDS = commands_of("sustain")


def register(sub: Any) -> None:
    parser = command(sub, "sustain", "sustained writes: where write speed falls (a cache filling), how far, how fast it "
                     "comes back", "ssdprof sustain --target /dev/nvme1n1 --allow-overwrite --write 200GiB\n"
                     "  ssdprof sustain --target ~/ssdtest --idle 10s,60s --estimate")
    parser.add_argument("--target", help="a folder (a test file as large as its free space allows), a file or a device")
    parser.add_argument("--rw", dest="pattern", choices=("write", "randwrite"), default="write")
    parser.add_argument("--bs", dest="block_size_bytes", help="access size (default 1MiB)")
    parser.add_argument("--qd", dest="queue_depth", help="queue depth (default 8)")
    parser.add_argument("--size", dest="size_bytes", help="the region (default: the device, or the folder's free space)")
    parser.add_argument("--offset", dest="offset_bytes")
    parser.add_argument("--write", dest="write_bytes", help="bytes the fill writes (default: the region once)")
    parser.add_argument("--idle", dest="idle_s", help="idle intervals before each recovery write (default 10s,30s,60s,5m)")
    parser.add_argument("--recovery", dest="recovery_bytes", help="each recovery write (default: 1.5x the cache found)")
    parser.add_argument("--engine", choices=("auto", "fio", "portable"))
    parser.add_argument("--allow-overwrite", action="store_true", help="confirm writing over a file or device")
    parser.add_argument("--keep-file", action="store_true")
    parser.add_argument("--host", dest="hosts", action="append", default=[], help="run on this SSH host")
    parser.add_argument("--remote-device", action="append", default=[], metavar="HOST=DEVICE")
    cli_hosts.ssh_flags(parser)
    parser.add_argument("--name")
    parser.add_argument("--tag", dest="tags", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--estimate", action="store_true", help="say what the test would do; write nothing")
    parser.add_argument("--resume", type=int, nargs="?", const=-1, help="continue a test (default: the last unfinished)")
    parser.add_argument("--show", type=int, metavar="ID", help="print a stored test")
    parser.add_argument("--pdf", type=Path, metavar="FILE",
                        help="write the test's report page (PDF) to FILE: with --show, or after the run")
    parser.add_argument("--title", help="with --pdf: the report's title")
    parser.add_argument("--list", action="store_true", help="list stored tests")
    common(parser)


def request_from_args(args: argparse.Namespace) -> SustainRequest:
    from ssdprof.app.planner import validated
    from ssdprof.app.sustain_planner import SustainRequest

    values: dict[str, Any] = {k: getattr(args, k) for k in (
        "target", "pattern", "block_size_bytes", "queue_depth", "size_bytes", "offset_bytes", "write_bytes",
        "recovery_bytes", "engine", "name") if getattr(args, k) is not None}
    if args.idle_s is not None:
        values["idle_s"] = [part for part in args.idle_s.split(",") if part.strip()]
    devices = dict(item.split("=", 1) for item in args.remote_device if "=" in item)
    return validated(SustainRequest, **values, allow_overwrite=args.allow_overwrite, keep_file=args.keep_file or None,
                     hosts=args.hosts, remote_devices=devices, tags=args.tags)


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.sustain import SustainIdParams, SustainResumeParams
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.sustain import SUSTAIN  # the runner and ruptures load for this only
    from ssdprof.cli.foreground import run_job
    from ssdprof.model.quantities import format_size

    ctx = Context(store, ssh=cli_hosts.ssh_settings(args))
    if args.list:
        return print_stored(SUSTAIN.listed(ctx, None).tests, lambda t: f"{t.id}  {t.created_at[:19]}  {t.status:<9} "
                            f"{t.verdict:<10} {t.name}", "sustained-write tests", as_json=args.json)
    if args.show is not None:
        if args.pdf is not None:
            written = _write_pdf(args, ctx, args.show)
            if args.json:
                print(written.model_dump_json(indent=2))
            return 0
        result = SUSTAIN.result(SustainIdParams(sustain_id=args.show), ctx)
        print(result.model_dump_json(indent=2) if args.json else format_sustain(result))
        return 0
    if args.resume is None:
        plan = SUSTAIN.plan(request_from_args(args), ctx, to_run=True)
        estimate = SUSTAIN.estimate(plan, ctx)
        if args.estimate:
            print(estimate.model_dump_json(indent=2) if args.json else "\n".join(
                [estimate.label, f"writes {format_size(estimate.total_bytes)}; {estimate.wear.text}", estimate.region,
                 *estimate.notes]))
            return 0
        print("\n".join(line for line in (estimate.label, estimate.region, estimate.wear.text, *estimate.notes) if line),
              file=sys.stderr)
    else:
        plan = SUSTAIN.resume(SustainResumeParams(sustain_id=None if args.resume == -1 else args.resume), ctx)
    outcome = run_job(ctx, SUSTAIN, plan, _Printer().handle)
    result = outcome.result
    test_file = file_said(result.test_file, result.test_file_bytes) if result.test_file else ""
    if outcome.status == "cancelled":
        kept = f", and so is its test file {test_file} for the fill to go on" if test_file else ""
        free = "; or delete that file to free its space" if result.test_file else ""
        print(f"ssdprof: cancelled; finished writes are kept{kept}. "
              f"Continue with: ssdprof sustain --resume {outcome.test_id}{free}", file=sys.stderr)
        return 130
    if args.pdf is not None:
        _write_pdf(args, ctx, outcome.test_id)  # the result is what --json prints; the file is said on stderr
    print(result.model_dump_json(indent=2) if args.json else format_sustain(result))
    if test_file:
        print(f"kept the test file {test_file}", file=sys.stderr)
    return 0 if outcome.status == "done" else 1


def _write_pdf(args: argparse.Namespace, ctx: Context, sustain_id: int) -> PdfWritten:
    from ssdprof.app.contract.cli import PdfWritten
    from ssdprof.app.contract.sustain import SustainReportParams
    from ssdprof.app.kinds.sustain import SUSTAIN

    report = SUSTAIN.report(SustainReportParams(sustain_id=sustain_id, title=args.title), ctx)
    args.pdf.write_bytes(report.pdf)
    say_written(args.pdf, len(report.pdf), f"sustained-write test {sustain_id}")
    return PdfWritten(output=str(args.pdf), bytes=len(report.pdf))


def format_sustain(result: SustainResult) -> str:
    from ssdprof.model.quantities import format_duration, format_elapsed, format_size

    lines = [f"sustained-write test {result.id}: {result.label} ({result.status})", result.verdict.sentence]
    if result.fill_bw_bytes_per_s is not None:
        lines.append(f"the fill: {format_size(result.fill_bytes // 1048576 * 1048576)} in "
                     f"{format_elapsed(result.fill_seconds)}, {result.fill_bw_bytes_per_s / 1e6:.0f} MB/s")
    for phase in result.phases:
        lines.append(f"  {phase.name:<24} {format_size(phase.start_bytes // 1048576 * 1048576):>10} +"
                     f"{format_size(phase.bytes_written // 1048576 * 1048576):>10}  {phase.duration_s:7.0f} s  "
                     f"{phase.bw_bytes_per_s / 1e6:8.0f} ± {phase.bw_sd_bytes_per_s / 1e6:.0f} MB/s")
    if result.throttle is not None and result.throttle.text:
        lines.append(f"throttling: {result.throttle.text}")
    for row in result.recovery:
        recovered = (f"{format_size(row.recovered_bytes // 1048576 * 1048576)} fast"
                     + (f" ({row.recovered_pct:.0f} % of the cache)" if row.recovered_pct is not None else "")
                     if row.recovered_bytes is not None else "")
        speed = f"{row.bw_bytes_per_s / 1e6:.0f} MB/s" if row.bw_bytes_per_s else ""
        lines.append(f"  after {format_duration(row.idle_s)} idle: {row.status} {recovered} {speed}".rstrip())
    if result.wear is not None:
        lines.append(f"wear: {result.wear.text}")
    return "\n".join(lines + result.notes)


class _Printer(EventLines):
    def handle(self, event: SustainEvent) -> None:
        from ssdprof.model.quantities import format_duration, format_elapsed, format_size
        from ssdprof.model.sustain_events import SustainFinished, SustainIdle, SustainSampled, SustainStarted, SustainStepDone

        if isinstance(event, SustainStarted):
            self._say(f"sustained-write test {event.sustain_id}: {event.label}; engine {event.engine}"
                      + "".join(f"; {note}" for note in event.notes))
        elif isinstance(event, SustainSampled) and self._due(event.sample.elapsed_s):
            self._say(f"{event.step} {event.recovery_step or ''}: {format_size(event.sample.bytes_written // 1048576 * 1048576)}"
                      f" of {format_size(event.bytes_total // 1048576 * 1048576)}, {event.sample.bw_bytes_per_s / 1e6:.0f} MB/s")
        elif isinstance(event, SustainStepDone):
            self._last_s = -10.0
            self._say(f"{event.step} {event.recovery_step or ''} done: {format_size(event.bytes_written // 1048576 * 1048576)}"
                      f" in {format_elapsed(event.seconds)}")  # two figures under 10 s: a 0.37 s fill read "0 s"
        elif isinstance(event, SustainIdle) and event.remaining_s >= event.idle_s - 0.5:
            self._say(f"idle {format_duration(event.idle_s)} before recovery write {event.recovery_step}")
        elif isinstance(event, SustainFinished):
            self._say_finished(event.status, format_duration(event.wall_s), event.reason)
