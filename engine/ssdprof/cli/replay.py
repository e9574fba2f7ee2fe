"""``ssdprof replay``: a recorded block trace (fio iolog v2/v3, blktrace, MSR-Cambridge CSV) played on a folder,
file or device: ``--describe`` says what it holds, ``--estimate`` what the replay would do, and a run prints a
line every few seconds (replayed beside recorded IOPS) and then the replay beside the trace (p50/p99 both ways,
the timing kept or not). ``--resume ID``, ``--show ID``, ``--list``; ``--pdf FILE`` writes its report page;
``--json`` prints the contract's models."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli import hosts as cli_hosts
from ssdprof.cli.flags import command, common, positive_int
from ssdprof.cli.measure import per_host
from ssdprof.cli.terminal import EventLines, print_stored, say_written

if TYPE_CHECKING:
    from ssdprof.app.replay_planner import ReplayRequest
    from ssdprof.model.replay_events import ReplayEvent
    from ssdprof.model.replay_results import ReplayResult
    from ssdprof.model.trace import TraceSummary
    from ssdprof.store.db import Store

__all__ = ["FORMATS", "MAPPINGS", "TIMINGS", "format_replay", "format_trace", "handle", "register"]

# The choices as the engine's enums spell them (model/trace.TraceFormat, model/replay; a test holds them equal),
# written here so that the parser loads no pydantic model.
FORMATS = ("fio-iolog-v2", "fio-iolog-v3", "blktrace", "msr-csv")
TIMINGS = ("as-recorded", "fastest")
MAPPINGS = ("exact", "wrap", "scale")


def register(sub: Any) -> None:
    parser = command(sub, "replay", "play a recorded block trace on a folder, file or device, as recorded or as fast "
                     "as possible, and compare it with the trace's own latency and rate",
                     "ssdprof replay hm_1.csv.gz --target ~/ssdtest --describe\n"
                     "  ssdprof replay hm_1.csv.gz --target /dev/nvme1n1 --allow-overwrite --offsets wrap --from 0 --to 600\n"
                     "  ssdprof replay capture.blktrace.0 --target ~/ssdtest --timing fastest --qd 32 --repeat 3\n"
                     "  ssdprof replay hm_1.csv.gz --host client1 --host client2 --split --remote-dir /mnt/ssd")
    parser.add_argument("trace", nargs="?", type=Path, help="the trace file (format told by its content)")
    parser.add_argument("--format", choices=FORMATS, help="insist on this format")
    parser.add_argument("--target", help="a folder (a test file as large as the trace's region), a file or a device")
    parser.add_argument("--timing", choices=TIMINGS, default=TIMINGS[0])
    parser.add_argument("--qd", dest="lanes", type=positive_int, help="I/Os in flight at most (default 16)")
    parser.add_argument("--offsets", dest="mapping", choices=MAPPINGS, default=MAPPINGS[0],
                        help="a trace beyond the target: refused (exact), wrapped or scaled onto it")
    parser.add_argument("--disk", dest="disks", action="append", default=[], help="replay only this disk of the trace")
    parser.add_argument("--trace-host", dest="trace_hosts", action="append", default=[],
                        help="replay only this recording host's I/Os (MSR's Hostname)")
    parser.add_argument("--from", dest="start_s", type=float, default=0.0, help="the window's start, s into the trace")
    parser.add_argument("--to", dest="end_s", type=float, help="the window's end, s into the trace")
    parser.add_argument("--size", dest="size_bytes", help="a folder's test file (default: the trace's region)")
    parser.add_argument("--buffered", action="store_true", help="through the page cache (not device numbers)")
    parser.add_argument("--engine", choices=("auto", "fio", "portable"))
    parser.add_argument("--allow-overwrite", action="store_true", help="confirm writing over a file or device")
    parser.add_argument("--keep-file", action="store_true")
    parser.add_argument("--repeat", dest="repeats", type=positive_int, default=1, help="play the trace N times")
    hosts = parser.add_argument_group("SSH hosts (all started at once, each I/O at its recorded time from that start)")
    hosts.add_argument("--host", dest="hosts", action="append", default=[], metavar="HOST",
                       help="replay on this SSH host (ssh alias or user@host:port); repeat for several at once")
    hosts.add_argument("--split", action="store_true",
                       help="split the trace across the hosts, each I/O on one host (default: the whole trace on each)")
    hosts.add_argument("--remote-dir", action="append", default=[], metavar="[HOST=]DIR",
                       help="the folder for each host's test file; HOST=DIR for one host")
    hosts.add_argument("--remote-device", action="append", default=[], metavar="[HOST=]DEVICE",
                       help="a block device on the hosts, replayed on in place of a test file")
    cli_hosts.ssh_flags(parser)
    parser.add_argument("--name")
    parser.add_argument("--tag", dest="tags", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--describe", action="store_true", help="say what the trace holds; run nothing")
    parser.add_argument("--estimate", action="store_true", help="say what the replay would do; run nothing")
    parser.add_argument("--resume", type=int, metavar="ID", help="run a cancelled replay's remaining repeats")
    parser.add_argument("--show", type=int, metavar="ID", help="print a stored replay")
    parser.add_argument("--list", action="store_true", help="list stored replays")
    parser.add_argument("--pdf", type=Path, metavar="FILE", help="write the replay's report page: with --show, or after")
    parser.add_argument("--title", help="with --pdf: the report's title")
    common(parser)


def request_from_args(args: argparse.Namespace) -> ReplayRequest:
    from ssdprof.app.planner import validated
    from ssdprof.app.replay_planner import ReplayRequest
    from ssdprof.model.problems import WorkloadError
    from ssdprof.model.replay import TraceSelection

    if args.trace is None:
        raise WorkloadError.single("trace", "TRACE", "name the trace file to replay (or --show ID, --list, --resume ID)")
    selection = validated(TraceSelection, hosts=args.trace_hosts, disks=args.disks, start_s=args.start_s,
                          end_s=args.end_s)
    values = {k: getattr(args, k) for k in ("format", "target", "size_bytes", "engine", "name", "lanes")
              if getattr(args, k)}
    remote_dir, remote_dirs = per_host(args.remote_dir)
    default_device, remote_devices = per_host(args.remote_device)
    if default_device:
        remote_devices = {host: remote_devices.get(host, default_device) for host in args.hosts}
    return validated(ReplayRequest, trace=str(args.trace), selection=selection, timing=args.timing,
                     mapping=args.mapping, direct=not args.buffered, allow_overwrite=args.allow_overwrite,
                     keep_file=args.keep_file, repeats=args.repeats, tags=args.tags, hosts=args.hosts,
                     hosts_mode="split" if args.split else "whole", remote_dir=remote_dir, remote_dirs=remote_dirs,
                     remote_devices=remote_devices, **values)


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.replay import ReplayIdParams, ReplayResumeParams
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.replay import REPLAY  # the trace readers, numpy and the runner load for this only
    from ssdprof.cli.foreground import run_job

    ctx = Context(store, ssh=cli_hosts.ssh_settings(args))
    if args.list:
        return print_stored(REPLAY.listed(ctx, None).replays, lambda r: f"{r.id}  {r.created_at[:19]}  {r.status:<9} {r.label}  {r.name}",
                            "trace replays", as_json=args.json)
    if args.show is not None:
        return _print_result(args, REPLAY.result(ReplayIdParams(replay_id=args.show), ctx))
    if args.describe:
        summary = _describe(args)
        print(summary.model_dump_json(indent=2) if args.json else format_trace(summary))
        return 0
    if args.resume is None:
        plan = REPLAY.plan(request_from_args(args), ctx, to_run=not args.estimate)
        estimate = REPLAY.estimate(plan, ctx)
        if args.estimate:
            print(estimate.model_dump_json(indent=2) if args.json else "\n".join(
                line for line in (format_trace(estimate.replayed), estimate.hosts_sentence, estimate.region,
                                  *estimate.notes) if line))
            return 0
        print("\n".join(line for line in (estimate.hosts_sentence, estimate.region, *estimate.notes) if line),
              file=sys.stderr)
    else:
        plan = REPLAY.resume(ReplayResumeParams(replay_id=args.resume), ctx)
    outcome = run_job(ctx, REPLAY, plan, _Printer().handle)
    if outcome.status == "cancelled":
        print(f"ssdprof: cancelled; finished repeats are kept. Run the rest with: ssdprof replay --resume "
              f"{outcome.test_id}", file=sys.stderr)
        return 130
    _print_result(args, outcome.result)
    return 0 if outcome.status == "done" else 1


def _describe(args: argparse.Namespace) -> TraceSummary:
    from ssdprof.app.replay_planner import describe_trace

    request = request_from_args(args)
    return describe_trace(request.trace, request.format)


def _print_result(args: argparse.Namespace, result: ReplayResult) -> int:
    if args.pdf is not None:
        from ssdprof.report.replay import build_replay_pdf  # matplotlib loads for a report only

        pdf = build_replay_pdf(result, title=args.title)
        args.pdf.write_bytes(pdf)
        say_written(args.pdf, len(pdf), f"replay {result.id}")
    print(result.model_dump_json(indent=2) if args.json else format_replay(result))
    return 0


def format_trace(summary: TraceSummary) -> str:
    from ssdprof.model.quantities import format_amount, format_size

    lines = [f"{summary.source}: {summary.format.label}",
             f"  {summary.io_count:,} I/Os: {summary.read_count:,} reads ({summary.read_pct:.0f} %), "
             f"{summary.write_count:,} writes; {format_amount(summary.read_bytes)} read, "
             f"{format_amount(summary.write_bytes)} written",
             f"  span {summary.duration_s:.3f} s" if summary.timed else "  no time recorded",
             f"  offsets {format_amount(summary.offset_min_bytes)} to {format_amount(summary.offset_end_bytes)}",
             "  sizes " + ", ".join(f"{format_size(s.size_bytes)} {s.reads}r/{s.writes}w" for s in summary.sizes)]
    for name, stats in (("read", summary.recorded_read_lat_ns), ("write", summary.recorded_write_lat_ns)):
        if stats is not None and stats.p50 is not None and stats.p99 is not None:
            lines.append(f"  recorded {name} latency p50 {stats.p50 / 1e3:,.0f} µs, p99 {stats.p99 / 1e3:,.0f} µs "
                         f"({stats.samples:,} I/Os)")
    if summary.peak_in_flight is not None:
        peak_in_flight = summary.peak_in_flight
        lines.append(f"  at most {peak_in_flight} I/O{'' if peak_in_flight == 1 else 's'} in flight as recorded")
    if summary.series:
        peak = max(summary.series, key=lambda s: s.read_iops + s.write_iops)
        lines.append(f"  busiest {peak.span_s:g} s at {peak.start_s:g} s: {peak.read_iops + peak.write_iops:,.0f} IOPS")
    lines += [f"  {s.host + ' ' if s.host else ''}disk {s.disk}: {s.io_count:,} I/Os" for s in summary.streams]
    lines += [f"  not replayed: {n:,} {kind}" for kind, n in summary.skipped.items()]
    return "\n".join(lines + [f"  {note}" for note in summary.notes])


def format_replay(result: ReplayResult) -> str:
    lines = [f"replay {result.id}: {result.label} ({result.status})", result.timing_sentence]
    for b in result.latency:
        if b.replayed_count or b.trace_count:
            lines.append(f"  {b.direction:<5} p50 {_us(b.recorded_p50_ns)} recorded, {_us(b.replayed_p50_ns)} replayed; "
                         f"p99 {_us(b.recorded_p99_ns)} recorded, {_us(b.replayed_p99_ns)} replayed "
                         f"({b.replayed_count:,} of the trace's {b.trace_count:,} I/Os"
                         + (f"; {b.recorded_said}" if b.recorded_said else "") + ")")
    if result.hosts_mode is not None:
        lines.append(f"  on {len(result.hosts)} hosts: {result.hosts_mode.label}")
    for host in result.hosts:
        replayed = host.read_io_count + host.write_io_count
        recorded = host.recorded_read_count + host.recorded_write_count
        p99 = "; ".join(f"{b.direction} p99 {_us(b.recorded_p99_ns)} recorded, {_us(b.replayed_p99_ns)} replayed"
                        for b in host.latency if b.replayed_count)
        lines.append(f"  {host.host}: {replayed:,} of {recorded:,} I/Os, {host.timing_sentence}"
                     + (f"; {p99}" if p99 else "") + (f"; {host.error}" if host.error else ""))
    if len(result.run_ids) > 1:
        lines.append(f"  runs {', '.join(map(str, result.run_ids))}: compare two replays with "
                     "ssdprof compare --sweep A --with-sweep B --metric lat_ns_p99")
    return "\n".join(lines + [f"  {w.message}" for w in result.warnings])


def _us(ns: float | None) -> str:
    return "–" if ns is None else f"{ns / 1e3:,.0f} µs"


class _Printer(EventLines):
    def handle(self, event: ReplayEvent) -> None:
        from ssdprof.model.replay_events import ReplayFinished, ReplayProgress, ReplayStarted

        if isinstance(event, ReplayStarted):
            self._say(f"replay {event.replay_id}: {event.label}; {event.io_count:,} I/Os; {event.engine_reason}")
        elif isinstance(event, ReplayProgress) and self._due(event.elapsed_s):
            recorded = ("" if event.recorded_read_iops is None else
                        f" (recorded {event.recorded_read_iops + (event.recorded_write_iops or 0):,.0f})")
            self._say(f"{event.elapsed_s:6.0f} s  {event.sample.read_iops + event.sample.write_iops:,.0f} IOPS{recorded}")
        elif isinstance(event, ReplayFinished):
            self._say_finished(event.status, f"{event.wall_s:.1f} s", event.reason)
