"""``ssdprof runs summary``: the student's summary of a sweep, as the app and the PDF show it; a
spec sheet given with ``--spec`` is remembered for the device (``--forget-spec`` forgets it)."""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.flags import command, common

if TYPE_CHECKING:
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.analysis.summary import StudentSummary
    from ssdprof.analysis.summary_model import GlanceCell
    from ssdprof.model.results import RunResult
    from ssdprof.store.db import Store

__all__ = ["format_summary", "summary", "summary_flags", "summary_of"]

_WIDTH = 100
_COLUMNS = ("Read MB/s", "Read IOPS", "Read µs", "Write MB/s", "Write IOPS", "Write µs")


def summary_flags(runs_sub: Any) -> None:
    parser = command(runs_sub, "summary", "what to write in the report: key figures, each factor's "
                     "effect, the best figure against the spec sheet, caveats",
                     "ssdprof runs summary --sweep 3\n"
                     "  ssdprof runs summary --sweep 3 --spec samsung-970-evo-plus-1tb")
    parser.add_argument("run_ids", type=int, nargs="*", metavar="RUN_ID")
    parser.add_argument("--sweep", type=int, help="every run of this sweep")
    parser.add_argument("--spec", metavar="SPEC_ID", help="compare with this spec sheet and "
                        "remember it for the device (default: the one remembered, else matched)")
    parser.add_argument("--forget-spec", action="store_true",
                        help="forget the sheet remembered for the device")
    parser.add_argument("--no-spec", action="store_true", help="compare with no spec sheet")
    parser.add_argument("--spec-dir", type=Path,
                        help="your own spec sheets, added to the bundled ones")
    common(parser)


def _runs(args: argparse.Namespace, store: Store) -> list[RunResult]:
    return named_runs(store, args.sweep, args.run_ids, "ssdprof runs summary --sweep 3")


def named_runs(store: Store, sweep_id: int | None, run_ids: list[int], example: str) -> list[RunResult]:
    """The runs a command names: a sweep's, then each run id given; at least one."""
    from ssdprof.model.workload import WorkloadError
    from ssdprof.store.db import RunFilter

    runs = store.runs(RunFilter(sweep_id=sweep_id, limit=None)) if sweep_id is not None else []
    for run_id in run_ids:
        found = store.run(run_id)
        if found is None:
            raise KeyError(f"run {run_id} does not exist; see: ssdprof runs list")
        runs.append(found)
    if not runs:
        raise WorkloadError.single("run_ids", "RUN_ID", f"name run ids or --sweep ID, e.g. {example}")
    return runs


def summary_of(runs: list[RunResult], store: Store) -> StudentSummary:
    """The summary a report of ``runs`` opens with, against the sheet remembered or matched."""
    from ssdprof.app.service.summary import summary_for

    return summary_for(store, _library(None), runs)


def summary(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.app.service.summary import remember_spec, summary_for

    runs = _runs(args, store)
    library = _library(args.spec_dir)
    if args.forget_spec or args.spec:
        device = remember_spec(store, library, runs[0], None if args.forget_spec else args.spec)
        if not args.json:
            print(f"spec sheet for {device}: {'forgotten' if args.forget_spec else args.spec}\n")
    found = summary_for(store, library, runs, args.spec, compare_spec=not args.no_spec)
    print(json.dumps(found.model_dump(mode="json"), indent=2) if args.json
          else format_summary(found))
    return 0


def _library(own: Path | None) -> SpecLibrary:
    from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
    from ssdprof.analysis.spec_library import SpecLibrary

    return SpecLibrary.load((bundled_spec_dir(), own or default_user_spec_dir()))


def _cells(cell: GlanceCell | None) -> list[str]:
    if cell is None:
        return ["", "", ""]
    latency = "" if cell.lat_ns_mean is None else f"{cell.lat_ns_mean / 1e3:,.1f}"
    return [f"{cell.bw_bytes_per_s / 1e6:,.1f}", f"{cell.iops:,.0f}", latency]


def _table(found: StudentSummary) -> list[str]:
    width = max(len(row.label) for row in found.table)
    lines = [f"{'Test':<{width}}  " + "  ".join(f"{c:>10}" for c in _COLUMNS)]
    for row in found.table:
        cells = [*_cells(row.read), *_cells(row.write)]
        lines.append(f"{row.label:<{width}}  " + "  ".join(f"{c:>10}" for c in cells).rstrip())
    notes = [c.all_runs.sentence for row in found.table for c in (row.read, row.write) if c is not None and c.all_runs]
    lines += [wrapped for note in notes for wrapped in textwrap.wrap(f"{note}.", _WIDTH, subsequent_indent="  ")]
    return [*lines, *textwrap.wrap(f"({found.table_note})", _WIDTH)]


def _bullets(title: str, sentences: list[str]) -> list[str]:
    lines = ["", title]
    for sentence in sentences:
        lines += textwrap.wrap(sentence, _WIDTH, initial_indent="  - ", subsequent_indent="    ")
    return lines


def format_summary(found: StudentSummary) -> str:
    lines = [f"Summary of {found.runs} run(s) of {found.device}", ""]
    lines += _table(found) if found.table else ["No run only read or only wrote: no table of them."]
    if found.factors:
        lines += _bullets("How each factor moved the figures", [f.sentence for f in found.factors])
    lines += _bullets("Best figures and the spec sheet", [*(b.sentence for b in found.best),
                                                          found.spec.sentence])
    if found.caveats:
        lines += _bullets("What these figures cannot tell", [c.message for c in found.caveats])
    return "\n".join(lines)
