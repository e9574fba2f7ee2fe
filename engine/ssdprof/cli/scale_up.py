"""``ssdprof predict --scale-up METRIC``: size an all-flash array from a small profile.

The flags map onto :class:`~ssdprof.analysis.scale_up_inputs.ScaleUpDesign` and the model runs in
:func:`~ssdprof.analysis.scale_up_runs.size_array`, as for the app; this module only reads flags and
prints. Bad input raises WorkloadError naming the flag (exit 2).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the flags load nothing of the engine; sizing loads it
    from ssdprof.analysis.scale_up_inputs import ScaleUpDesign, ScaleUpPoint
    from ssdprof.analysis.scale_up_space import ScaleUpArchitecture, ScaleUpResult
    from ssdprof.model.results import RunResult

__all__ = ["EXAMPLE", "add_flags", "parse_point", "print_result", "run", "scale_up"]

EXAMPLE = (
    "ssdprof predict --scale-up write_iops --target-ssds 240 --point 'arrays=1 iops=45k' "
    "--point 'arrays=6 iops=193k' --point 'arrays=8 iops=155k' --max-pcie-slots 3"
)
LISTED = 15
"""Architectures printed without --all: the most IOPS first (the picks are always printed)."""

_POINT_KEYS = {"arrays", "iops", "cores", "enclosures"}


def add_flags(parser: argparse.ArgumentParser) -> None:
    """The --scale-up flags of ``ssdprof predict``."""
    group = parser.add_argument_group(
        "scale-up sizing (--scale-up): profile a chassis and one enclosure, predict "
        "every SAS controller and enclosure architecture"
    )
    group.add_argument(
        "--scale-up",
        choices=["iops", "read_iops", "write_iops"],
        metavar="METRIC",
        help="size an all-flash array instead: iops, read_iops or write_iops of runs tagged "
        "arrays=N "
        "(enclosures=K, controller=NAME), or of --point figures",
    )
    group.add_argument("--target-ssds", type=int, help="SSDs in the array to size, e.g. 240")
    group.add_argument(
        "--ssds-per-enclosure",
        type=int,
        default=24,
        help="bays of the chassis and of each enclosure (default 24)",
    )
    group.add_argument(
        "--arrays-per-enclosure",
        type=int,
        help="arrays per chassis or enclosure (default: the most profiled)",
    )
    for which, default in (
        ("first", "profiled, else 10"),
        ("second", "profiled, else 20"),
        ("farther", "20"),
    ):
        group.add_argument(
            f"--{which}-enclosure-drop",
            type=float,
            metavar="PCT",
            help=f"IOPS lost for the {which} enclosure in a chain, %% (default {default})",
        )
    group.add_argument("--max-cores", type=float, help="CPU cores available")
    group.add_argument("--max-pcie-slots", type=int, help="PCIe slots for SAS controllers")
    group.add_argument(
        "--min-array-iops", help="IOPS every array must get (per-array QoS), e.g. 2000 or 2k"
    )
    group.add_argument(
        "--point",
        action="append",
        default=[],
        metavar="'arrays=N iops=X [cores=C] [enclosures=K]'",
        help="a profiling figure typed in (repeatable); enclosures: chained after the chassis (0)",
    )
    group.add_argument(
        "--pdf", type=Path, metavar="FILE", help="also write the sizing as a PDF page"
    )
    group.add_argument(
        "--all",
        action="store_true",
        help=f"list every architecture (default: the {LISTED} with the most IOPS and the picks)",
    )


def _number(text: str, key: str) -> float:
    from ssdprof.model.problems import WorkloadError, problem
    from ssdprof.model.quantities import parse_count

    try:
        return parse_count(text)
    except ValueError as exc:  # the engine's one rule for counts, named by the point's key
        raise WorkloadError([problem("points", f"{key}={exc}")]) from None


def parse_point(text: str) -> ScaleUpPoint:
    """``'arrays=8 iops=155k cores=9.3 enclosures=1'`` -> a profiling point."""
    from pydantic import ValidationError

    from ssdprof.analysis.scale_up_inputs import ScaleUpPoint
    from ssdprof.model.problems import WorkloadError, from_validation, problem, shown

    fields: dict[str, float] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or key not in _POINT_KEYS:
            raise WorkloadError(
                [
                    problem(
                        "points",
                        f"{shown(item)} is not one of {', '.join(sorted(_POINT_KEYS))}=VALUE",
                    )
                ]
            )
        fields[key] = _number(value, key)
    if "arrays" not in fields or "iops" not in fields:
        raise WorkloadError([problem("points", f"{shown(text)} needs arrays= and iops=")])
    values: dict[str, Any] = {
        "arrays": fields["arrays"],
        "iops": fields["iops"],
        "cpu_cores": fields.get("cores"),
        "enclosures": fields.get("enclosures", 0),
    }
    try:
        return ScaleUpPoint.model_validate(values)
    except ValidationError as exc:
        raise WorkloadError(
            [
                problem(
                    "points",
                    f"{shown(text)}: " + "; ".join(p.message for p in from_validation(exc)),
                    with_rule=False,
                )
            ]
        ) from None


def _design(args: argparse.Namespace) -> ScaleUpDesign:
    from pydantic import ValidationError

    from ssdprof.analysis.scale_up_inputs import ScaleUpDesign
    from ssdprof.model.problems import WorkloadError, from_validation, problem

    if args.target_ssds is None:
        raise WorkloadError([problem("target_ssds", "is required with --scale-up")])
    given = {
        "target_ssds": args.target_ssds,
        "ssds_per_unit": args.ssds_per_enclosure,
        "arrays_per_unit": args.arrays_per_enclosure,
        "first_drop_pct": args.first_enclosure_drop,
        "second_drop_pct": args.second_enclosure_drop,
        "farther_drop_pct": args.farther_enclosure_drop,
        "max_cpu_cores": args.max_cores,
        "max_pcie_slots": args.max_pcie_slots,
        "min_array_iops": args.min_array_iops,
    }
    try:
        return ScaleUpDesign.model_validate(given)
    except ValidationError as exc:
        raise WorkloadError(from_validation(exc, ScaleUpDesign)) from None


def scale_up(args: argparse.Namespace, runs: Sequence[RunResult]) -> ScaleUpResult:
    """The sizing the flags ask for (every flag checked before anything is computed)."""
    from ssdprof.analysis.scale_up_runs import size_array

    points = [parse_point(text) for text in args.point]
    return size_array(_design(args), runs, points, args.scale_up)


def _row(a: ScaleUpArchitecture, key_width: int) -> str:
    """One architecture on a line, its key padded to the longest listed so the columns align; a
    missed limit on the next line, where a long cabling cannot push it out of sight."""
    cpu = "" if a.cpu_cores is None else f"  {a.cpu_cores:6.1f} cores"
    mark = "✓" if a.within_limits else "✗"
    slots = f"{a.pcie_slots:>2} slot{'' if a.pcie_slots == 1 else 's'}"
    row = f"  {mark} {a.key:<{key_width}}  {slots:<8}  {a.iops:>12,.0f} IOPS{cpu}  {a.label}"
    return row if a.within_limits else f"{row}\n      missed: {'; '.join(a.broken)}"


def print_result(result: ScaleUpResult, every: bool) -> None:
    p = result.profile
    print(
        f"Scale-up: {result.sized} "
        f"of {p.ssds_per_unit} ({result.label})"
    )
    print(f"  chassis IOPS {p.chassis_iops.value:,.0f}: {p.chassis_iops.source}")
    for name, figure in (
        ("first", p.first_drop_pct),
        ("second", p.second_drop_pct),
        ("farther", p.farther_drop_pct),
    ):
        print(f"  drop for the {name} enclosure {figure.value:.1f} %: {figure.source}")
    if p.cpu_factor is not None:
        print(
            f"  CPU factor {p.cpu_factor.slope_cores_per_iops_per_array:.3g}·N + "
            f"{p.cpu_factor.intercept_cores_per_iops:.3g} "
            f"cores per IOPS: {p.cpu_factor.source}; {p.cpu_factor.quality.summary()}"
        )
    print("\n".join(result.summary))
    if result.none_fit:
        print(result.none_fit)
    within = sum(a.within_limits for a in result.architectures)
    listed = result.architectures if every else result.architectures[:LISTED]
    print(
        f"{result.count} architectures, {within} within the limits, those first, most IOPS first"
        + (
            ""
            if every or len(listed) == result.count
            else f" (the first {len(listed)}; --all lists every one)"
        )
        + ":"
    )
    key_width = max(len(a.key) for a in listed)
    print("\n".join(_row(a, key_width) for a in listed))
    print("\n".join(f"note: {n}" for n in [*result.notes, result.error_band.text]))


def run(args: argparse.Namespace, runs: Sequence[RunResult]) -> int:
    """``ssdprof predict --scale-up``: print (or --json) the sizing, and write --pdf."""
    result = scale_up(args, runs)
    if args.pdf is not None:
        from ssdprof.cli.terminal import say_written
        from ssdprof.report.scale_up import build_scale_up_pdf

        pdf = build_scale_up_pdf(result)
        args.pdf.write_bytes(pdf)
        say_written(args.pdf, len(pdf), "scale-up sizing")
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), indent=2))
    else:
        print_result(result, args.all)
    return 0
