"""The ``ssdprof`` command line: everything the GUI does, for scripted lab runs.

Only this module exits the process. Exit codes: 0 done, 1 a point failed or ended early, 2 bad input, 130 cancelled.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

from ssdprof import __version__, cli_analysis, cli_hosts, cli_report
from ssdprof.ceph import parse_rbd
from ssdprof.hosts import HostError, parse_host
from ssdprof.interchange import ImportError_, export_csv, export_fio_job, export_json, import_fio_output
from ssdprof.multihost import DEFAULT_REMOTE_DIR
from ssdprof.runner import Runner
from ssdprof.store import RunFilter, Store, default_db_path
from ssdprof.sweep import MAX_REPEATS, PRESETS, RemoteSpec, SweepMode, SweepSpec, build_sweep, describe, preset
from ssdprof.targets import device_region, plan_target, widest, with_whole_device
from ssdprof.terminal import ProgressPrinter, format_run, format_runs_table
from ssdprof.workload import Workload, WorkloadError, parse_workload

__all__ = ["build_parser", "main"]

# CLI flag -> workload field; the same flags for run and sweep.
WORKLOAD_FLAGS: dict[str, str] = {
    "target": "target", "size": "size_bytes", "offset": "offset_bytes", "rw": "pattern", "bs": "block_size_bytes", "read_pct": "read_pct",
    "qd": "queue_depth", "jobs": "numjobs", "runtime": "runtime_s", "ramp": "ramp_s", "engine": "engine",
}
VARY_NAMES = {"bs": "block_size_bytes", "qd": "queue_depth", "jobs": "numjobs", "rw": "pattern", "read-pct": "read_pct",
              "runtime": "runtime_s", "ramp": "ramp_s", "size": "size_bytes"}


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ssdprof", formatter_class=_Formatter, description=(
        "Profile SSDs with fio or the portable engine; store, compare and export the results.\n\n"
        "example:\n  ssdprof run --target /mnt/ssd --rw randread --bs 4k --qd 32 --runtime 30"))
    parser.add_argument("--version", action="version", version=f"ssdprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _measure_commands(sub)

    runs = _command(sub, "runs", "list, show, tag or delete stored runs", "ssdprof runs list --tag interface=NVMe\n"
                    "  ssdprof runs show 12 --json")
    runs_sub = runs.add_subparsers(dest="runs_command", metavar="ACTION", required=True)
    lst = _command(runs_sub, "list", "list stored runs", "ssdprof runs list --search Samsung --since 2026-01-01")
    lst.add_argument("--tag", help="key=value, or a bare value matching any tag")
    lst.add_argument("--search", help="text in target, device model, engine or source")
    lst.add_argument("--since", help="ISO date, e.g. 2026-11-01")
    lst.add_argument("--sweep", type=int, help="only the runs of this sweep (all of them)")
    lst.add_argument("--limit", type=_positive_int, default=500, help="show the newest N matching runs (default 500)")
    _common(lst)
    _breakdown_flag(lst)
    show = _command(runs_sub, "show", "show one run in full", "ssdprof runs show 12")
    show.add_argument("run_id", type=int)
    show.add_argument("--raw", action="store_true", help="print the tool's raw output as stored")
    _common(show)
    _breakdown_flag(show)
    tag = _command(runs_sub, "tag", "add or change tags of a run", "ssdprof runs tag 12 interface=SATA nodes=3")
    tag.add_argument("run_id", type=int)
    tag.add_argument("tags", nargs="+", metavar="KEY=VALUE")
    _common(tag)
    delete = _command(runs_sub, "delete", "delete a run", "ssdprof runs delete 12")
    delete.add_argument("run_id", type=int)
    _common(delete)

    export = _command(sub, "export", "write runs as CSV, JSON or a fio job file",
                      "ssdprof export 12 13 --format csv -o results.csv\n  ssdprof export --sweep 3 --format json\n"
                      "  ssdprof export 12 --format fio -o repro.fio && fio repro.fio")
    export.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID")
    export.add_argument("--sweep", type=int, help="export every run of this sweep")
    export.add_argument("--format", choices=["csv", "json", "fio", "pdf"], default="json")
    export.add_argument("-o", "--output", type=Path, help="file to write (default: standard output)")
    _common(export)

    imp = _command(sub, "import", "store fio output files (json or json+, any version) as earlier runs",
                   "ssdprof import old-run.json --tag interface=SATA")
    imp.add_argument("files", type=Path, nargs="+", metavar="FILE")
    imp.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE")
    _common(imp)

    presets = _command(sub, "presets", "list the ready-made sweeps", "ssdprof presets --json")
    _common(presets)

    cli_hosts.register(sub, _command, _common)
    cli_analysis.register(sub, _command, _common)
    cli_report.register(sub, _command, _common)

    rpc = _command(sub, "rpc", "serve JSON-RPC 2.0 on standard input/output (used by the desktop app)",
                   "ssdprof rpc --db results.sqlite3")
    _common(rpc)

    serve = _command(sub, "serve", "browser mode: the app on 127.0.0.1, with a per-launch token in the printed URL",
                     "ssdprof serve --port 8080   # over SSH first: ssh -L 8080:127.0.0.1:8080 lab-host")
    serve.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)")
    _common(serve)
    return parser


def _measure_commands(sub: Any) -> None:
    run = _command(sub, "run", "measure one workload (with --repeat, several times)",
                   "ssdprof run --target ~/ssdtest --size 1GiB --rw randread --bs 4k --qd 1 --runtime 10 --json")
    _workload_flags(run)
    _run_flags(run)

    sweep = _command(sub, "sweep", "measure many points: a preset, or factors varied one at a time or as a grid",
                     "ssdprof sweep --preset student --runtime 5 --ramp 1\n"
                     "  ssdprof sweep --vary bs=4k,16k,128k --vary qd=1,8,32 --grid --repeat 3\n"
                     "  ssdprof sweep --resume")
    _workload_flags(sweep)
    _run_flags(sweep)
    sweep.add_argument("--preset", choices=sorted(PRESETS), help="a ready-made sweep (see: ssdprof presets)")
    sweep.add_argument("--vary", action="append", default=[], metavar="FACTOR=V1,V2,...",
                       help=f"vary a factor over values; factors: {', '.join(VARY_NAMES)}")
    sweep.add_argument("--grid", action="store_true", help="every combination of the --vary factors (default: one at a time)")
    sweep.add_argument("--resume", nargs="?", const=-1, type=int, metavar="SWEEP_ID",
                       help="continue an interrupted sweep (the last one by default), skipping finished points")
    sweep.add_argument("--estimate", action="store_true", help="print the points and estimated duration, run nothing")


def _command(sub: Any, name: str, summary: str, example: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(name, help=summary, description=f"{summary}\n\nexample:\n  {example}",
                                                     formatter_class=_Formatter)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help=f"results database (default: {default_db_path()})")
    parser.add_argument("--json", action="store_true", help="machine-readable output (fields documented in README)")


def _breakdown_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--breakdown", action="store_true",
                        help="tables show total latency split into submission and completion (--json always has both)")


def _workload_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("workload")
    group.add_argument("--target", help="directory (default: a scratch folder on the local disk), file or block device")
    group.add_argument("--size", help="test size, e.g. 256MiB, 1GiB (default 256MiB; on a block device, all of it from --offset)")
    group.add_argument("--offset", help="where the region starts in a file or block device, e.g. 1GiB (default 0)")
    group.add_argument("--rw", help="read, write, randread, randwrite, rw or randrw (default randread)")
    group.add_argument("--bs", help="access size, e.g. 4k, 128KiB, 1MiB (default 4k)")
    group.add_argument("--read-pct", help="read share for rw/randrw, 0-100 (default 50)")
    group.add_argument("--qd", help="queue depth per job (default 1)")
    group.add_argument("--jobs", help="parallel jobs (processes per client; default 1)")
    group.add_argument("--runtime", help="measured time per point, e.g. 30, 30s, 2m (default 10s)")
    group.add_argument("--ramp", help="warm-up before measuring (default 2s)")
    group.add_argument("--engine", help="auto (fio if installed), fio or portable (default auto)")
    group.add_argument("--buffered", action="store_true", help="measure through the page cache (labelled as not device numbers)")
    group.add_argument("--allow-overwrite", action="store_true",
                       help="allow writes into an existing file or block device (never one mounted, held or used as swap)")
    group.add_argument("--keep-file", action="store_true", help="keep the test file afterwards")


def _run_flags(parser: argparse.ArgumentParser) -> None:
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
    _common(parser)
    _breakdown_flag(parser)


def workload_from_args(args: argparse.Namespace) -> Workload:
    raw: dict[str, Any] = {field: getattr(args, flag) for flag, field in WORKLOAD_FLAGS.items() if getattr(args, flag) is not None}
    for name in ("read_pct", "queue_depth", "numjobs"):
        if name in raw:
            raw[name] = _maybe_int(raw[name])
    if args.buffered:
        raw["direct"] = False
    if args.allow_overwrite:
        raw["allow_overwrite"] = True
    if args.keep_file:
        raw["keep_file"] = True
    return parse_workload(with_whole_device(raw) if not getattr(args, "host", None) else raw)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return value


def _maybe_int(text: str) -> int | str:
    try:
        return int(text)
    except ValueError:
        return text


def parse_tags(items: list[str]) -> dict[str, str]:
    tags = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or len(item) > 200:
            raise WorkloadError.single("tag", "--tag", f"{item!r} is not KEY=VALUE (at most 200 characters), e.g. interface=SATA")
        tags[key.strip()] = value.strip()
    return tags


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


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "presets":
        return _presets(args)
    if args.command == "rpc":
        from ssdprof.rpc import serve_stdio

        return serve_stdio(args.db or default_db_path())
    if args.command == "serve":
        from ssdprof.server import serve

        return serve(args.db or default_db_path(), port=args.port)
    handlers = {"run": _measure, "sweep": _measure, "runs": _runs, "export": _export, "import": _import, "hosts": cli_hosts.handle,
                **dict.fromkeys(cli_analysis.COMMANDS, cli_analysis.handle), **dict.fromkeys(cli_report.COMMANDS, cli_report.handle)}
    store = Store(args.db or default_db_path())
    try:
        return handlers[args.command](args, store)
    finally:
        store.close()


def _presets(args: argparse.Namespace) -> int:
    base = Workload()
    rows = [{"name": name, "description": desc, "points": len(preset(name, base).points)} for name, (desc, _) in PRESETS.items()]
    if args.json:
        print(json.dumps({"presets": rows}, indent=2))
    else:
        for row in rows:
            print(f"{row['name']:14} {row['points']:4} points  {row['description']}")
    return 0


def _remote(args: argparse.Namespace) -> RemoteSpec | None:
    if not args.host:
        if args.rbd:
            raise WorkloadError.single("rbd", "--rbd", "an RBD image is reached from hosts: add --host for each Ceph client")
        if args.remote_device:
            raise WorkloadError.single("target", "--remote-device", "a device on hosts needs --host; a local device is --target /dev/…")
        return None
    for text in args.host:
        parse_host(text)
    if args.rbd:
        parse_rbd(args.rbd, args.ceph_user, args.ceph_conf or "")
    default_dir, per_host = _per_host(args.remote_dir, "--remote-dir", args.host)
    default_device, devices = _per_host(args.remote_device, "--remote-device", args.host)
    if default_device:
        devices = {host: devices.get(host, default_device) for host in args.host}
    if devices and args.size is None:
        raise WorkloadError.single("size_bytes", "--size", "give --size with --remote-device: the region is not guessed "
                                                           "from devices on other machines")
    return RemoteSpec(hosts=args.host, target_dir=default_dir, target_dirs=per_host, devices=devices, rbd=args.rbd or "",
                      ceph_conf=args.ceph_conf or "", ceph_user=args.ceph_user)


def _per_host(items: list[str], flag: str, hosts: list[str]) -> tuple[str, dict[str, str]]:
    """``PATH`` for every host and ``HOST=PATH`` for one: (the default, {host: path})."""
    default, per_host = "", {}
    for item in items:
        host, sep, path = item.partition("=") if not item.startswith("/") else ("", "", item)
        if not path.startswith("/") or "\n" in path or (sep and host not in hosts):
            raise WorkloadError.single("target", flag, f"{item!r}: give an absolute path, or HOST=PATH for one of the --host hosts")
        if sep:
            per_host[host] = path
        else:
            default = path
    return default, per_host


def _sweep_spec(args: argparse.Namespace, base: Workload, store: Store) -> tuple[SweepSpec, int | None]:
    spec, resume_id = _points(args, base, store)
    if resume_id is None:
        spec = spec.model_copy(update={"remote": _remote(args)})
    return spec, resume_id


def _points(args: argparse.Namespace, base: Workload, store: Store) -> tuple[SweepSpec, int | None]:
    if args.command == "run":
        return SweepSpec(name="run", points=[base], repeats=args.repeat), None
    if args.resume is not None:
        stored = store.sweep(args.resume) if args.resume > 0 else store.last_unfinished_sweep()
        if stored is None:
            raise KeyError("no unfinished sweep to resume" if args.resume < 0 else f"sweep {args.resume} does not exist")
        return stored.spec, stored.id
    if args.preset and args.vary:
        raise WorkloadError.single("preset", "--preset", "give either --preset or --vary, not both")
    if args.preset:
        return preset(args.preset, base, repeats=args.repeat), None
    if not args.vary:
        raise WorkloadError.single("preset", "--preset", f"a sweep needs --preset ({', '.join(PRESETS)}) or --vary FACTOR=V1,V2")
    factors: dict[str, list[str]] = {}
    for item in args.vary:
        name, sep, values = item.partition("=")
        if not sep or name not in VARY_NAMES:
            raise WorkloadError.single("vary", "--vary", f"{item!r}: use FACTOR=V1,V2,... with FACTOR one of {', '.join(VARY_NAMES)}")
        factors[VARY_NAMES[name]] = [v.strip() for v in values.split(",") if v.strip()]
    converted = {f: [_maybe_int(v) if f in ("queue_depth", "numjobs", "read_pct") else v for v in vs] for f, vs in factors.items()}
    return build_sweep(base, converted, SweepMode.GRID if args.grid else SweepMode.ONE_AT_A_TIME, args.repeat), None  # type: ignore[arg-type]


def _announcement(spec: SweepSpec, *, check: bool) -> str:
    """The duration estimate and, on a block device, what will be read or overwritten (checked first when asked)."""
    region = device_region(spec.points) if spec.remote is None else None
    if region is None:
        return describe(spec, max(p.size_bytes for p in spec.points))
    if check:  # a refused run is not announced
        plan_target(widest(spec.points))
    return f"{describe(spec, 0)}\n{region.sentence()}"


def _measure(args: argparse.Namespace, store: Store) -> int:
    if not 1 <= args.repeat <= MAX_REPEATS:
        raise WorkloadError.single("repeat", "--repeat", f"must be from 1 to {MAX_REPEATS}; got {args.repeat}")
    base = workload_from_args(args)
    spec, resume_id = _sweep_spec(args, base, store)
    tags = parse_tags(args.tag)
    if getattr(args, "estimate", False):
        print(_announcement(spec, check=False))
        for point in spec.points:
            print(f"  {point.label()}  {point.duration_s():g}s")
        return 0
    print(_announcement(spec, check=True), file=sys.stderr)
    cancel = threading.Event()
    printer = ProgressPrinter(sys.stderr)
    previous = _install_interrupt(cancel)
    try:
        runner = Runner(store, ssh=cli_hosts.ssh_settings(args))
        outcome = runner.run_sweep(spec, resume_id=resume_id, tags=tags, on_event=printer.handle, cancel=cancel)
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.json:
        runs = [r.summary_json() for r in outcome.results]
        if args.command == "run" and spec.total_points() == 1 and runs:
            print(json.dumps(runs[0], indent=2))
        else:
            print(json.dumps({"sweep_id": outcome.sweep_id, "status": outcome.status, "reason": outcome.reason, "runs": runs}, indent=2))
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


def _install_interrupt(cancel: threading.Event) -> Any:
    def handler(signum: int, frame: FrameType | None) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        print("\nstopping the measurement; finished points are kept (Ctrl-C again to abort)", file=sys.stderr)
        cancel.set()

    return signal.signal(signal.SIGINT, handler)


def _runs(args: argparse.Namespace, store: Store) -> int:
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
    return 0


def _export(args: argparse.Namespace, store: Store) -> int:
    runs = store.runs(RunFilter(sweep_id=args.sweep, limit=None)) if args.sweep is not None else []
    for run_id in args.run_ids:
        found = store.run(run_id)
        if found is None:
            raise KeyError(f"run {run_id} does not exist; see: ssdprof runs list")
        runs.append(found)
    if not runs:
        raise WorkloadError.single("run_ids", "RUN_ID", "name at least one run id or --sweep ID")
    if args.format == "pdf":
        return cli_report.export_pdf(runs, args.output)
    if args.format == "fio":
        if len(runs) != 1:
            raise WorkloadError.single("run_ids", "RUN_ID", "a fio job file reproduces one run; name exactly one")
        text = export_fio_job(runs[0])
    else:
        text = export_csv(runs) if args.format == "csv" else export_json(runs)
    if args.output:
        args.output.write_text(text)
        print(f"wrote {len(runs)} run(s) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _import(args: argparse.Namespace, store: Store) -> int:
    tags = parse_tags(args.tag)
    parsed = [(path, import_fio_output(path, tags)) for path in args.files]  # all or nothing
    stored = [store.add_run(run) for _, runs in parsed for run in runs]
    if args.json:
        print(json.dumps({"runs": [r.summary_json() for r in stored]}, indent=2))
    else:
        for run in stored:
            print(f"imported run {run.id}: {run.workload.label()} from {run.source.removeprefix('imported:')}")
    return 0
