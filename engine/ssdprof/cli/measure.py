"""``ssdprof run`` and ``ssdprof sweep``: flags mapped onto one :class:`SweepRequest`, planned by the
engine's one planner (:func:`plan_sweep`, as the RPC and the GUI are), then run with live progress."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ssdprof.cli import hosts as cli_hosts
from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import breakdown_flag, command, common
from ssdprof.model.presets import PRESETS
from ssdprof.remote import DEFAULT_REMOTE_DIR

if TYPE_CHECKING:
    from ssdprof.app.contract.runs import SweepEstimate
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.sweep import SweepPlan
    from ssdprof.app.planner import SweepRequest
    from ssdprof.app.runner import SweepOutcome
    from ssdprof.model.sweep import SweepSpec
    from ssdprof.store.db import Store

__all__ = ["COMMANDS", "VARY_NAMES", "WORKLOAD_FLAGS", "handle", "outcome_json", "parse_tags", "per_host",
           "register", "request_from_args", "run_flags", "workload_flags"]

COMMANDS = commands_of("measure")

WORKLOAD_FLAGS: dict[str, tuple[str, str]] = {
    "target": ("target", "directory (default: a scratch folder on the local disk), file or block device"),
    "size": ("size_bytes", "test size, e.g. 256MiB, 1GiB (default 256MiB; on a block device, all of it from --offset)"),
    "offset": ("offset_bytes", "where the region starts in a file or block device, e.g. 1GiB (default 0)"),
    "rw": ("pattern", "read, write, randread, randwrite, rw or randrw (default randread)"),
    "bs": ("block_size_bytes", "access size, e.g. 4k, 128KiB, 1MiB (default 4k)"),
    "read_pct": ("read_pct", "read share for rw/randrw, 0-100 (default 50)"),
    "qd": ("queue_depth", "queue depth per job (default 1)"),
    "jobs": ("numjobs", "parallel jobs (processes per client; default 1)"),
    "runtime": ("runtime_s", "measured time per point, e.g. 30, 30s, 2m (default 10s)"),
    "ramp": ("ramp_s", "warm-up before measuring (default 2s)"),
    "engine": ("engine", "auto (fio if installed), fio or portable (default auto)"),
    "rate": ("rate_iops", "offered I/O per second in all, Poisson arrivals (default 0: as fast as the queue allows)"),
}
"""The workload's flags (``--read-pct`` for ``read_pct``): the field each sets and its help; the same for
run, sweep, curve and slo."""
VARY_NAMES = {"bs": "block_size_bytes", "qd": "queue_depth", "jobs": "numjobs", "rw": "pattern", "read-pct": "read_pct",
              "runtime": "runtime_s", "ramp": "ramp_s", "size": "size_bytes"}


def register(sub: Any) -> None:
    """The ``run`` and ``sweep`` commands and their flags."""
    run = command(sub, "run", "measure one workload (with --repeat, several times)",
                  "ssdprof run --target ~/ssdtest --size 1GiB --rw randread --bs 4k --qd 1 --runtime 10 --json")
    workload_flags(run)
    run_flags(run)
    sweep = command(sub, "sweep", "measure many points: a preset, or factors varied one at a time or as a grid",
                    "ssdprof sweep --preset student --runtime 5 --ramp 1\n"
                    "  ssdprof sweep --vary bs=4k,16k,128k --vary qd=1,8,32 --grid --repeat 3\n"
                    "  ssdprof sweep --resume")
    workload_flags(sweep)
    run_flags(sweep)
    sweep.add_argument("--preset", choices=sorted(PRESETS), help="a ready-made sweep (see: ssdprof presets)")
    sweep.add_argument("--vary", action="append", default=[], metavar="FACTOR=V1,V2,...",
                       help=f"vary a factor over values; factors: {', '.join(VARY_NAMES)}")
    sweep.add_argument("--grid", action="store_true", help="every combination of the --vary factors (default: one at a time)")
    sweep.add_argument("--resume", nargs="?", const=-1, type=int, metavar="SWEEP_ID",
                       help="continue an interrupted sweep (the last one by default), skipping finished points")
    sweep.add_argument("--estimate", action="store_true", help="print the points and estimated duration, run nothing")


def workload_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("workload")
    for flag, (_, text) in WORKLOAD_FLAGS.items():
        group.add_argument(f"--{flag.replace('_', '-')}", help=text)
    group.add_argument("--buffered", action="store_true", help="measure through the page cache (labelled as not device numbers)")
    group.add_argument("--allow-overwrite", action="store_true",
                       help="allow writes into an existing file or block device (never one mounted, held or used as swap)")
    group.add_argument("--keep-file", action="store_true", help="keep the test file afterwards")


def run_flags(parser: argparse.ArgumentParser) -> None:
    remote = parser.add_argument_group("remote hosts")
    remote.add_argument("--host", action="append", default=[], metavar="HOST",
                        help="run on this host over SSH (an ssh alias or user@host:port); repeat for several hosts at once")
    remote.add_argument("--remote-dir", action="append", default=[], metavar="[HOST=]DIR",
                        help=f"directory for the test file on the hosts (default {DEFAULT_REMOTE_DIR}); HOST=DIR for one host")
    remote.add_argument("--remote-device", action="append", default=[], metavar="[HOST=]DEVICE",
                        help="a block device on the hosts, measured in place of a test file (needs --size); HOST=DEVICE for one host")
    remote.add_argument("--rbd", metavar="POOL/IMAGE", help="an RBD image via fio's rbd engine; {host} in IMAGE gives each host its own")
    remote.add_argument("--ceph-conf", help="ceph.conf path on the hosts (default: Ceph's search path)")
    remote.add_argument("--ceph-user", default="admin", help="Ceph client name without 'client.' (default admin)")
    cli_hosts.ssh_flags(parser)
    parser.add_argument("--repeat", type=int, default=1, help="repeat every point N times (default 1)")
    parser.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE", help="tag the runs, e.g. interface=SATA")
    cool = parser.add_argument_group("cool-down between points")
    cool.add_argument("--cool-to", metavar="CELSIUS",
                      help="before each point after the first, wait until the drive is at or "
                           "below this, e.g. 45 (hwmon, else SMART every 5 s)")
    cool.add_argument("--cool-idle", metavar="TIME",
                      help="or until it has idled this long, e.g. 30s (a drive with no "
                           "temperature idles this long)")
    cool.add_argument("--cool-max", metavar="TIME",
                      help="wait at most this long, e.g. 300s (default 300s with --cool-to)")
    common(parser)
    breakdown_flag(parser)


def request_from_args(args: argparse.Namespace) -> SweepRequest:
    """The flags of ``run`` or ``sweep`` as the one request every face sends the planner."""
    from ssdprof.app.cooldown import CoolDownRequest
    from ssdprof.app.planner import SweepRequest, WorkloadInput, validated
    from ssdprof.model.sweep import SweepMode
    from ssdprof.model.workload import WorkloadError

    raw: dict[str, Any] = {field: getattr(args, flag) for flag, (field, _) in WORKLOAD_FLAGS.items() if getattr(args, flag) is not None}
    if args.buffered:
        raw["direct"] = False
    if args.allow_overwrite:
        raw["allow_overwrite"] = True
    if args.keep_file:
        raw["keep_file"] = True
    remote_dir, remote_dirs = per_host(args.remote_dir)
    default_device, remote_devices = per_host(args.remote_device)
    if default_device:
        remote_devices = {host: remote_devices.get(host, default_device) for host in args.host}
    sweep = args.command == "sweep"
    if sweep and not (args.preset or args.vary):  # the command's own shape; every value is the planner's
        raise WorkloadError.single("preset", "--preset", f"a sweep needs --preset ({', '.join(PRESETS)}) "
                                                         "or --vary FACTOR=V1,V2")
    return validated(
        SweepRequest, base=validated(WorkloadInput, **raw), preset=args.preset if sweep else None,
        factors=_factors(args.vary) if sweep else None,
        mode=SweepMode.GRID if sweep and args.grid else SweepMode.ONE_AT_A_TIME, repeats=args.repeat,
        tags=getattr(args, "tag", []), hosts=args.host, remote_dir=remote_dir, remote_dirs=remote_dirs,
        remote_devices=remote_devices, rbd=args.rbd or "", ceph_conf=args.ceph_conf or "",
        ceph_user=args.ceph_user,
        cool_down=validated(CoolDownRequest, cool_to_c=args.cool_to, cool_idle_s=args.cool_idle,
                            cool_max_s=args.cool_max))


def _factors(items: list[str]) -> dict[str, list[int | float | str]] | None:
    from ssdprof.model.workload import WorkloadError

    factors: dict[str, list[int | float | str]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        if not sep or name not in VARY_NAMES:
            raise WorkloadError.single("vary", "--vary", f"{item!r}: use FACTOR=V1,V2,... with FACTOR one of {', '.join(VARY_NAMES)}")
        factors[VARY_NAMES[name]] = [v.strip() for v in values.split(",") if v.strip()]
    return factors or None


def per_host(items: list[str]) -> tuple[str, dict[str, str]]:
    """``PATH`` for every host and ``HOST=PATH`` for one: (the default, {host: path}); the planner checks the paths."""
    default, given = "", {}
    for item in items:
        host, sep, path = item.partition("=") if not item.startswith("/") else ("", "", item)
        if sep:
            given[host] = path
        else:
            default = item
    return default, given


def _plan(args: argparse.Namespace, ctx: Context) -> SweepPlan:
    """The sweep to run (a start's with its target as checked, so that all bad input is named at
    once), or the stored sweep it continues, with the tags for its runs."""
    from dataclasses import replace

    from ssdprof.app.contract.runs import ResumeParams
    from ssdprof.app.kinds.sweep import SWEEP

    if args.command == "sweep" and args.resume is not None:
        resumed = SWEEP.resume(ResumeParams(sweep_id=args.resume if args.resume > 0 else None), ctx)
        assert resumed.resume_id is not None
        ctx.store.claim_sweep(resumed.resume_id, kind="sweep")  # held from here on, before anything is said or measured
        return replace(resumed, tags=parse_tags(args.tag))
    return SWEEP.plan(request_from_args(args), ctx, to_run=not getattr(args, "estimate", False))


def _announcement(spec: SweepSpec, estimate: SweepEstimate) -> str:
    """The duration estimate and, on a block device, what will be read or overwritten."""
    from ssdprof.model.sweep import describe

    said = describe(spec, estimate.layout_bytes)
    return f"{said}\n{estimate.region}" if estimate.region else said


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.contract.cli import OneRun
    from ssdprof.app.kinds.kind import Context
    from ssdprof.app.kinds.sweep import SWEEP
    from ssdprof.cli.foreground import run_job
    from ssdprof.cli.terminal import ProgressPrinter, format_runs_table

    ctx = Context(store, ssh=cli_hosts.ssh_settings(args))
    plan = _plan(args, ctx)
    spec = plan.spec
    estimate = SWEEP.estimate(plan, ctx)
    if getattr(args, "estimate", False):
        print(_announcement(spec, estimate))
        for point in spec.points:
            print(f"  {point.label}  {point.duration_s():g}s")
        return 0
    print(_announcement(spec, estimate), file=sys.stderr)
    outcome = run_job(ctx, SWEEP, plan, ProgressPrinter(sys.stderr, keep_file=spec.points[0].keep_file).handle)
    if args.json:
        one = args.command == "run" and spec.total_points() == 1 and outcome.results
        print(OneRun(outcome.results[0]).model_dump_json(indent=2) if one else outcome_json(outcome))
    else:
        print(format_runs_table(outcome.results, breakdown=args.breakdown))
        if outcome.sweep_id is not None and outcome.status == "cancelled":
            print(f"cancelled; finished points are kept. Continue with: ssdprof sweep --resume {outcome.sweep_id}")
    if outcome.status == "stopped":
        resume = f": ssdprof sweep --resume {outcome.sweep_id}" if outcome.sweep_id is not None else ""
        print(f"ssdprof: {outcome.reason}{resume}", file=sys.stderr)
    if outcome.status == "cancelled":
        return 130
    # A point that ended early (fio's own error mid-run, a host lost) kept its data but is not a clean
    # measurement: say so in the exit status as well as in the result.
    return 1 if any(r.status in ("failed", "partial") for r in outcome.results) else 0


def outcome_json(outcome: SweepOutcome) -> str:
    """A sweep's end as ``--json`` prints it (the contract's :class:`SweepRan`)."""
    from ssdprof.app.contract.cli import SweepRan

    ran = SweepRan(sweep_id=outcome.sweep_id, status=outcome.status, reason=outcome.reason,
                   runs=outcome.results)
    return ran.model_dump_json(indent=2)


def parse_tags(items: list[str]) -> dict[str, str]:
    """``--tag KEY=VALUE`` flags, read by the planner's one rule for tags."""
    from ssdprof.app.planner import parse_tags as planner_tags
    from ssdprof.model.problems import problem
    from ssdprof.model.workload import WorkloadError

    try:
        return planner_tags(items)
    except ValueError as exc:
        raise WorkloadError([problem("tags", str(exc))]) from None
