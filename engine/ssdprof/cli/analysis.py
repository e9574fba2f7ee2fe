"""The analysis commands of the CLI: ``compare``, ``predict``, ``correlate`` and ``specs list|show|match|add|delete``.

Wired into ``ssdprof.cli.main`` with ``register(subparsers)`` and ``handle(args, store)``; this module
never exits the process. Bad input raises :class:`WorkloadError` (exit 2), a missing run
:class:`KeyError` (exit 1), as for every other command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.analysis.metrics import METRICS, metric_name
from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.cli import scale_up
from ssdprof.cli.commands import commands_of
from ssdprof.cli.flags import command, common

if TYPE_CHECKING:
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.app.service.predict import Models
    from ssdprof.model.run_summary import AnyRun, RunSummary
    from ssdprof.store.db import Store

# The flags load nothing of the engine; each command loads what it computes with. The app's contract
# and its analysis service load only for --json: a study's compare, correlate and predict answer
# within a second, of which importing every RPC type would take a quarter.

__all__ = ["COMMANDS", "handle", "print_json", "register", "select_runs", "spec_library"]

COMMANDS = commands_of("analysis")


def _selection(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    side = f"{prefix}-" if prefix else ""
    dest = f"{prefix}_" if prefix else ""
    parser.add_argument(f"--{side}tag", dest=f"{dest}tags", action="append", default=[], metavar="KEY=VALUE",
                        help="runs carrying this tag (repeatable; all must match)")
    parser.add_argument(f"--{side}sweep", dest=f"{dest}sweep", type=int, help="every run of this sweep")


def register(sub: Any) -> None:
    """Add ``compare``, ``predict`` and ``correlate``."""
    compare = command(sub, "compare", "mean ± 95 % CI of repeats, % of vendor spec, and whether two groups differ (Welch)",
                       "ssdprof compare 12 13 14 --with 20 21 22 --metric iops\n"
                       "  ssdprof compare --tag interface=SATA --with-tag interface=PCIe --metric bw_bytes_per_s\n"
                       "  ssdprof compare --sweep 3 --spec auto")
    compare.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID", help="runs of group A")
    _selection(compare)
    compare.add_argument("--with", dest="with_ids", type=int, nargs="+", default=[], metavar="RUN_ID", help="runs of group B")
    _selection(compare, "with")
    compare.add_argument("--metric", default="iops", choices=sorted(METRICS), help="what to compare (default iops)")
    compare.add_argument("--confidence", type=float, default=0.95, help="confidence level (default 0.95)")
    compare.add_argument("--spec", default="auto", help="spec id, 'auto' (match the drive model) or 'none'")
    compare.add_argument("--spec-dir", type=Path, help=f"your own spec sheets (default: {default_user_spec_dir()})")
    compare.add_argument("--link-gbps", type=float, help="one client's network link in Gb/s, to flag network-bound runs")
    compare.add_argument("--pool", action="store_true", help=(
        "pool runs of one setting from different sweeps (or points of one sweep) into one "
        "mean ± CI; without it only the repeats a sweep asked for are"))

    predict = command(sub, "predict", "fit models to stored runs, validate by leaving a setting out, predict untested ones",
                       "ssdprof predict --sweep 3 --metric bw_bytes_per_s --at 1MiB\n"
                       "  ssdprof predict --tag cluster=lab --vary outstanding --metric iops --at 64\n"
                       "  ssdprof predict --sweep 3 --check 57\n"
                       "  ssdprof predict --tag study=ceph --scale nodes --at 8,10 --link-gbps 10 --clients 4\n"
                       f"  {scale_up.EXAMPLE}")
    predict.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID", help="runs to fit (with --tag/--sweep)")
    _selection(predict)
    predict.add_argument("--metric", default="bw_bytes_per_s", choices=sorted(METRICS))
    predict.add_argument("--vary", default="block_size", choices=["block_size", "outstanding"],
                         help="the swept factor: access size (per numjobs) or outstanding I/Os (QD x jobs)")
    predict.add_argument("--at", help="settings to predict, comma-separated: sizes (1MiB) or counts (64)")
    predict.add_argument("--degree", type=int, default=2,
                         help="highest polynomial degree for access-size models (default 2); the "
                              "degree that best predicts each setting left out is kept, never one "
                              "through every setting")
    predict.add_argument("--confidence", type=float, default=0.95)
    predict.add_argument("--check", type=int, metavar="RUN_ID", help="is this run anomalous against the others?")
    predict.add_argument("--split-by", default="", metavar="KEY",
                         help="fit each group apart: a tag ('tag interface') or a recorded fact ('recorded drive'), "
                              "as the splits said before the fits name them")
    predict.add_argument("--scale", choices=["nodes", "clients"], help="fit the Universal Scalability Law instead")
    predict.add_argument("--link-gbps", type=float,
                         help="client network link in Gb/s (caps --scale predictions; default: the hosts' recorded link limits)")
    predict.add_argument("--node-link-gbps", type=float, help="storage-node network link in Gb/s")
    predict.add_argument("--clients", type=int, help="client count for the network cap (default: hosts per run)")
    scale_up.add_flags(predict)

    correlate = command(sub, "correlate", "which factors move which metrics: rank correlations per storage-node count",
                         "ssdprof correlate --sweep 3\n  ssdprof correlate --tag cluster=lab --method pearson")
    correlate.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID", help="runs to correlate (with --tag/--sweep)")
    _selection(correlate)
    correlate.add_argument("--method", default="spearman", choices=["spearman", "pearson"])

    for parser in (compare, predict, correlate):
        common(parser)


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.specs import SpecError
    from ssdprof.model.workload import WorkloadError

    confidence = getattr(args, "confidence", 0.95)
    if not 0.5 <= confidence < 1:
        raise WorkloadError.single("confidence", "--confidence", f"a level such as 0.95 (from 0.5 to below 1); got {confidence}")
    if getattr(args, "degree", 1) < 1:
        raise WorkloadError.single("degree", "--degree", f"a polynomial degree of at least 1; got {args.degree}")
    try:
        if args.command == "compare":
            from ssdprof.cli.compare import compare

            return compare(args, store)
        if args.command == "correlate":
            return _correlate(args, store)
        return _predict(args, store)
    except SpecError as exc:
        print(f"ssdprof: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        if isinstance(exc, WorkloadError):
            raise
        print(f"ssdprof: cannot analyse these runs: {exc}", file=sys.stderr)
        return 1


# --- helpers ---------------------------------------------------------------------------------

def spec_library(args: argparse.Namespace) -> SpecLibrary:
    from ssdprof.analysis.spec_library import SpecLibrary

    return SpecLibrary.load([bundled_spec_dir(), args.spec_dir or default_user_spec_dir()])


def select_runs(store: Store, ids: Sequence[int], tags: Sequence[str], sweep: int | None) -> list[RunSummary]:
    """The runs named, and every run carrying all the tags (of the sweep): their figures from the store's
    summaries, none left out."""
    from ssdprof.model.workload import WorkloadError
    from ssdprof.store.db import RunFilter

    for tag in tags:
        if "=" not in tag:
            raise WorkloadError.single("tag", "--tag", f"{tag!r} is not KEY=VALUE, e.g. interface=SATA")
    try:
        runs: dict[int | None, RunSummary] = {r.id: r for r in store.summaries_of(ids)}
    except KeyError as exc:
        raise KeyError(f"{exc.args[0]}; see: ssdprof runs list") from None
    if tags or sweep is not None:
        found = store.summaries(RunFilter(tags=tuple(tags), sweep_id=sweep, limit=None))
        runs.update({r.id: r for r in found})
    return list(runs.values())


def _ids(runs: Sequence[AnyRun]) -> list[int]:
    return [r.id for r in runs if r.id is not None]


def _models(store: Store) -> Models:
    """The app's analysis methods, answering from this store: ``--json`` prints their answers."""
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.app.service.predict import Models

    def runs(ids: Sequence[int]) -> list[RunSummary]:
        return select_runs(store, ids, [], None)

    return Models(runs, lambda: SpecLibrary.load([bundled_spec_dir()]), None)


def _unit(metric: str) -> tuple[float, str]:
    name = metric_name(metric)
    return name.scale, name.unit


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=lambda o: o.model_dump(mode="json") if hasattr(o, "model_dump") else str(o)))


# --- predict ---------------------------------------------------------------------------------

def _settings(text: str | None, sizes: bool) -> list[float]:
    if not text:
        return []
    from ssdprof.model.quantities import parse_size_bytes
    from ssdprof.model.workload import WorkloadError

    try:
        return [float(parse_size_bytes(t.strip())) if sizes else float(t) for t in text.split(",") if t.strip()]
    except ValueError as exc:
        raise WorkloadError.single("at", "--at", f"{text!r}: {exc}; e.g. --at 1MiB,2MiB or --at 64") from None


def _predict(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.groupings import split_key
    from ssdprof.analysis.prediction import predict_runs
    from ssdprof.model.workload import WorkloadError

    runs = select_runs(store, args.run_ids, args.tags, args.sweep)
    if args.scale_up:  # runs are optional: profiling figures may be typed in; a few runs, read whole
        return scale_up.run(args, [r for s in runs if s.id is not None and (r := store.run(s.id)) is not None])
    if not runs:
        raise WorkloadError.single("run_ids", "RUN_ID", "name the runs to fit: RUN_ID..., --tag KEY=VALUE or --sweep ID")
    if args.scale:
        return _scale(runs, args, store)
    checked = store.run(args.check) if args.check is not None else None
    if args.check is not None and checked is None:
        raise KeyError(f"run {args.check} does not exist; see: ssdprof runs list")
    split_by = split_key(runs, args.split_by)
    if args.json:
        from ssdprof.app.contract.analysis import PredictParams
        from ssdprof.app.planner import validated

        params = validated(PredictParams, run_ids=_ids(runs), metric=args.metric, vary=args.vary,
                           at=_settings(args.at, args.vary == "block_size"), degree=args.degree,
                           confidence=args.confidence, check_run_id=args.check, split_by=split_by)
        print_json(_models(store).predict(params).model_dump(mode="json"))
        return 0
    scale, unit = _unit(args.metric)
    reports = predict_runs(runs, args.metric, vary=args.vary, at=_settings(args.at, args.vary == "block_size"),
                           degree=args.degree, confidence=args.confidence, check=checked, split_by=split_by)
    said = _splits_said(runs, args.metric, split_by, args.confidence)
    print("\n\n".join([*said, *(r.describe(scale, unit) for r in reports)]))
    return 0


def _splits_said(runs: Sequence[AnyRun], metric: str, split_by: str, confidence: float = 0.95) -> list[str]:
    """Each tag or recorded fact that splits runs of one setting into groups that differ, in words, with
    the key that fits its groups apart: said before the fits, as the app's Predict and Scale-out panels
    say it (and --json's splits); the split fitted apart is said as such."""
    from ssdprof.analysis.groupings import key_name, split_key, splits_besides

    def flag(key: str) -> str:  # the shortest that names it: a tag's name alone where that is not ambiguous
        return f"--split-by {key_name(key) if split_key(runs, key_name(key)) == key else key!r}"

    apart = [f"Each {key_name(split_by)} group fitted apart ({flag(split_by)})."] if split_by else []
    return apart + [f"{s.sentence} Fit each group apart: {flag(s.key)}." for s in splits_besides(runs, metric, split_by, confidence)]


def _scale(runs: Sequence[AnyRun], args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.groupings import split_key
    from ssdprof.analysis.prediction import scale_runs

    split_by = split_key(runs, args.split_by)
    if args.json:
        from ssdprof.app.contract.analysis import ScalingParams
        from ssdprof.app.planner import validated

        params = validated(ScalingParams, run_ids=_ids(runs), metric=args.metric, by=args.scale,
                           at=[int(n) for n in _settings(args.at, False)], clients=args.clients,
                           client_link_gbps=args.link_gbps, node_link_gbps=args.node_link_gbps, split_by=split_by)
        print_json(_models(store).scaling(params).model_dump(mode="json"))
        return 0
    scale, unit = _unit(args.metric)
    for sentence in _splits_said(runs, args.metric, split_by):
        print(sentence + "\n")
    reports = scale_runs(runs, args.metric, by=args.scale, at=_settings(args.at, False), clients=args.clients,
                         client_link_bytes_per_s=args.link_gbps * 1e9 / 8 if args.link_gbps else None,
                         node_link_bytes_per_s=args.node_link_gbps * 1e9 / 8 if args.node_link_gbps else None,
                         split_by=split_by)
    for r in reports:
        print(f"{r.label}: {r.fit.describe(scale, unit)}")
        if r.client_link_bytes_per_s:
            print(f"  client link {r.client_link_bytes_per_s * 8 / 1e9:g} Gb/s ({r.client_link_source})")
        print("\n".join(f"  {p.sentence(args.scale, scale, unit)}" for p in r.projections))
    return 0


# --- specs -----------------------------------------------------------------------------------

def _correlate(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.correlation import correlation_by_node_count
    from ssdprof.model.workload import WorkloadError

    runs = [r for r in select_runs(store, args.run_ids, args.tags, args.sweep) if r.status in ("ok", "partial")]
    if not runs:
        raise WorkloadError.single("run_ids", "RUN_ID", "name the runs to correlate: RUN_ID..., --tag KEY=VALUE or --sweep ID")
    if args.json:
        from ssdprof.app.contract.analysis import CorrelationParams
        from ssdprof.app.planner import validated

        params = validated(CorrelationParams, run_ids=_ids(runs), method=args.method)
        print_json(_models(store).correlation(params).model_dump(mode="json"))
        return 0
    matrices = correlation_by_node_count(runs, method=args.method)
    for nodes, m in matrices.items():
        print(f"{'runs without a nodes tag' if nodes is None else f'{nodes} storage nodes'} ({m.runs} runs, {m.method}; "
              "blank: not varied or too few runs)")
        print(m.format() + "\n")
    return 0


