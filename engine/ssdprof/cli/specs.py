"""``ssdprof specs``: the vendor spec-sheet library listed, shown, matched to a drive, and the user's own sheets
added or deleted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.cli.analysis import print_json, spec_library
from ssdprof.cli.flags import command, command_actions, common

if TYPE_CHECKING:
    from ssdprof.analysis.spec_library import SpecLibrary
    from ssdprof.analysis.specs import Spec
    from ssdprof.app.service.analysis import Analysis
    from ssdprof.store.db import Store

__all__ = ["handle", "register"]


def _own_specs(args: argparse.Namespace, library: SpecLibrary) -> int:
    from ssdprof.analysis.specs import load_spec_file
    from ssdprof.app.spec_sheets import delete_own_spec, save_own_spec

    folder = args.spec_dir or default_user_spec_dir()
    if args.specs_command == "delete":
        delete_own_spec(library, folder, args.spec_id)
        print(f"deleted your spec sheet {args.spec_id}")
        return 0
    spec = load_spec_file(args.file)
    written, overrides = save_own_spec(library, folder, spec, replace=args.replace)
    print(f"saved {spec.title} as {written}"
          + (" (overrides the bundled sheet with this id)" if overrides else ""))
    return 0


def _analysis(args: argparse.Namespace, store: Store) -> Analysis:
    """The app's spec-sheet methods over the same folders: ``--json`` prints their answers."""
    from ssdprof.app.service.analysis import Analysis

    return Analysis(store, [bundled_spec_dir(), args.spec_dir or default_user_spec_dir()])


def handle(args: argparse.Namespace, store: Store) -> int:
    from ssdprof.analysis.specs import SpecError

    try:
        return _handle(args, store)
    except SpecError as exc:
        print(f"ssdprof: {exc}", file=sys.stderr)
        return 2


def _handle(args: argparse.Namespace, store: Store) -> int:
    library = spec_library(args)
    if args.specs_command in ("add", "delete"):
        return _own_specs(args, library)
    for problem in library.problems:
        print(f"ssdprof: skipped {problem}", file=sys.stderr)
    if args.specs_command == "list":
        rows = sorted(library.specs.values(), key=lambda s: (s.vendor, s.model))
        if args.json:
            from ssdprof.app.contract.base import Params

            print_json(_analysis(args, store).specs_list(Params()).model_dump(mode="json"))
        for s in [] if args.json else rows:
            print(f"{s.id:32} {s.title:44} {s.interface.value:5} {len(s.figures):2} figures{'  UNSOURCED' if s.unsourced else ''}")
        return 0
    if args.specs_command == "show":
        spec = library.get(args.spec_id)
        if args.json:
            print_json(spec.model_dump(mode="json"))
        else:
            print(_format_spec(spec, library.origins[spec.id]))
        return 0
    return _specs_match(args, store, library)


def _specs_match(args: argparse.Namespace, store: Store, library: SpecLibrary) -> int:
    from ssdprof.app.contract.specs import SpecMatchParams
    from ssdprof.model.workload import WorkloadError

    model = args.model
    if args.run is not None:
        run = store.run(args.run)
        if run is None:
            raise KeyError(f"run {args.run} does not exist; see: ssdprof runs list")
        model = run.environment.device_model
    if not model:
        raise WorkloadError.single("model", "MODEL", "give a model string or --run RUN_ID (with a recorded drive model)")
    found = library.match_detail(model)
    if args.json:
        answer = _analysis(args, store).specs_match(SpecMatchParams(device_model=model))
        print_json(answer.model_dump(mode="json"))
    elif found:
        print(f"'{model}' → {found.spec.id} ({found.spec.title}; pattern '{found.pattern}'){'; ' + found.note if found.note else ''}")
    else:
        print(f"'{model}': no spec sheet matches; add one to {args.spec_dir or default_user_spec_dir()}")
    return 0 if found else 1


def _format_spec(spec: Spec, origin: Path) -> str:
    lines = [f"{spec.title}  [{spec.id}]", f"  interface {spec.interface.value} ({spec.link}), form factor {spec.form_factor}",
             f"  capacity {spec.capacity_bytes / 1e9:g} GB" if spec.capacity_bytes else "  capacity: series (several)",
             f"  matches: {', '.join(spec.match_patterns) or '-'}", f"  file: {origin}"]
    for figure in spec.figures:
        lines.append(f"  {figure.statistic:7} {figure.value:>12,g} {figure.unit:5}  {figure.conditions()}"
                     f"{'  (' + figure.note + ')' if figure.note else ''}  [source {figure.source + 1}]")
    if not spec.figures:
        lines.append("  no rated figures (see notes)")
    lines += [f"  source {i + 1}: {s.title} {s.url or '(no public URL)'}" for i, s in enumerate(spec.sources)]
    if spec.unsourced:
        lines.append("  UNSOURCED: no public source URL for this sheet or some of its figures; % of spec against them cannot be checked")
    if spec.notes:
        lines.append(f"  notes: {spec.notes}")
    return "\n".join(lines)


def register(sub: Any) -> None:
    """Add ``specs`` with its actions."""
    specs_sub = command_actions(sub, "specs", "vendor spec sheets: list, show, match a drive model, add or delete your own",
                                "ssdprof specs match \"Samsung SSD 870 EVO 1TB\"")
    lst = command(specs_sub, "list", "list the spec library (bundled and your own)", "ssdprof specs list --json")
    show = command(specs_sub, "show", "show one spec sheet with its sources", "ssdprof specs show samsung-870-evo-1tb")
    show.add_argument("spec_id")
    match = command(specs_sub, "match", "which spec a drive model string (or a stored run's drive) matches",
                     "ssdprof specs match \"Samsung SSD 870 EVO 1TB\"\n  ssdprof specs match --run 12")
    match.add_argument("model", nargs="?", help="the model string as the OS reports it")
    match.add_argument("--run", type=int, help="use the drive model recorded with this run")
    add = command(specs_sub, "add", "add (or with --replace, change) one of your own spec sheets from a JSON file",
                   "ssdprof specs show samsung-870-evo-1tb --json > mine.json  # edit, then:\n  ssdprof specs add mine.json")
    add.add_argument("file", type=Path, help="a spec sheet as JSON (schema: assets/specs/README.md)")
    add.add_argument("--replace", action="store_true", help="overwrite your own spec sheet with the same id")
    delete = command(specs_sub, "delete", "delete one of your own spec sheets (bundled ones are never deleted)",
                      "ssdprof specs delete my-lab-drive")
    delete.add_argument("spec_id")
    for parser in (lst, show, match, add, delete):
        common(parser)
        parser.add_argument("--spec-dir", type=Path, help=f"your own spec sheets (default: {default_user_spec_dir()})")

