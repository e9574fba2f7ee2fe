"""The report's judgement: vendor spec comparison and group statistics (from ``ssdprof.analysis`` when it
is installed), then the observations and the validity warnings of every run.

The analysis modules are optional here: a report without them still has its facts, tables and
charts, and says which sections it left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ssdprof.report.groups import RunGroup, repeat_summaries
from ssdprof.report.layout import Builder
from ssdprof.results import RunResult, Severity

__all__ = ["spec_and_statistics_section", "warnings_section"]

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
_UNIT_SCALE = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(1 << 20), "GiB/s": float(1 << 30), "IOPS": 1.0, "us": 1e3, "ms": 1e6}


def spec_and_statistics_section(b: Builder, groups: Sequence[RunGroup], spec_folders: Sequence[Path | None],
                                spec_id: str | None) -> list[str]:
    """Writes what the analysis modules can say; returns the notes on what was left out and why."""
    try:
        from ssdprof.analysis.spec_comparison import best_comparisons, compare_run
        from ssdprof.specs import SpecLibrary
    except ImportError as exc:
        return [f"spec comparison and statistics were left out: the analysis modules are not installed ({exc.name})"]
    notes: list[str] = []
    library = SpecLibrary.load(spec_folders)
    rows: list[list[str]] = []
    unmatched: set[str] = set()
    for summary in repeat_summaries(groups):
        run = summary.runs[0]
        model = run.environment.device_model
        spec = library.specs.get(spec_id) if spec_id else library.match(model) if model else None
        if spec is None:
            unmatched.add(run.environment.device_model or "not recorded")
            continue
        for c in best_comparisons(compare_run(spec, run)):
            if c.pct_of_spec is None or c.measured is None:
                continue
            measured = c.measured / _UNIT_SCALE.get(c.figure.unit, 1.0)
            rows.append([summary.label, spec.title, f"{c.figure.value:,.6g} {c.figure.unit} ({c.figure.conditions()})",
                         f"{measured:,.1f} {c.figure.unit}", f"{c.pct_of_spec:.0f}", "; ".join(c.notes) or "conditions match"])
    if rows or len(groups) > 1:
        b.heading("Comparison with the vendor specification and between groups")
    if rows:
        b.table(["Setting", "Spec sheet", "Rated", "Measured", "% of spec", "Note"], rows,
                "measured against the vendor's rated figures, only where measured the way the figure was rated; "
                "MB/s is 10^6 bytes/s, MiB/s 2^20", numeric_from=4)
    if spec_id and spec_id not in library.specs:
        notes.append(f"no spec sheet with id {spec_id!r} in the library")
    elif unmatched and not rows:
        notes.append("no vendor spec sheet matches the drive model " + ", ".join(sorted(f"'{m}'" for m in unmatched))
                     + "; choose one with --spec ID (see: ssdprof specs list)")
    if len(groups) > 1:
        _group_statistics(b, groups)
    return notes


def _group_statistics(b: Builder, groups: Sequence[RunGroup]) -> None:
    """Every later group against the first, setting by setting (Welch's t-test on the repeats)."""
    try:
        from ssdprof.analysis.stats import compare_groups
    except ImportError:
        return
    first = groups[0]
    rows: list[list[str]] = []
    for other in groups[1:]:
        for metric, scale, unit in (("iops", 1.0, "IOPS"), ("lat_ns_mean", 1e3, "µs")):
            for comparison in compare_groups(first.runs, other.runs, metric, scale=scale, unit=unit):
                r = comparison.result
                setting = comparison.setting + ("" if comparison.same_setting else " (different settings)")
                rows.append([f"{other.label} vs {first.label}", setting,
                             f"{r.a.format(unit=unit)}", f"{r.b.format(unit=unit)}",
                             "–" if r.diff_pct is None else f"{r.diff_pct:+.1f}", "–" if r.p_value is None else f"{r.p_value:.3g}"])
    if rows:
        b.table(["Groups", "Setting", f"{first.label} (mean ± 95 % CI)", "Other group (mean ± 95 % CI)", "Difference (%)",
                 "p (Welch)"], rows, "groups compared setting by setting; p below 0.05 means the difference is unlikely "
                "to be noise", numeric_from=4)


def warnings_section(b: Builder, groups: Sequence[RunGroup], notes: Sequence[str]) -> None:
    """Observations across runs, then each distinct validity warning once with the runs it concerns."""
    b.heading("Observations and warnings")
    runs = [r for g in groups for r in g.runs]
    observations = _observations(runs)
    seen: dict[tuple[str, str], tuple[Severity, list[str]]] = {}
    for run in runs:
        for warning in run.warnings:
            entry = seen.setdefault((warning.code, warning.message), (warning.severity, []))
            entry[1].append(str(run.id) if run.id else run.workload.label())
    if not observations and not seen and not notes:
        b.para("No observations, and no validity warnings: every run passed ssdprof's checks.")
    for text in observations:
        b.bullet(text)
    for (_, message), (severity, where) in sorted(seen.items(), key=lambda item: _ORDER[item[1][0]]):
        runs_text = ", ".join(where[:12]) + (f" and {len(where) - 12} more" if len(where) > 12 else "")
        b.bullet(f"{severity.value.upper()}: {message} (run {runs_text})")
    for note in notes:
        b.bullet(f"NOTE: {note}")


def _observations(runs: Sequence[RunResult]) -> list[str]:
    try:
        from ssdprof.analysis.observations import observe
    except ImportError:
        return []
    return [f"{o.severity.upper() if o.severity == 'warning' else 'Observation'}: {o.message}" for o in observe(runs)]
