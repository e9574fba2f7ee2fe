"""The report's judgement: vendor spec comparison and group statistics (from ``ssdprof.analysis`` when it
is installed), then the observations and the validity warnings of every run.

The analysis modules are optional here: a report without them still has its facts, tables and
charts, and says which sections it left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ssdprof.model.results import RunResult, Severity
from ssdprof.report.groups import RunGroup, repeat_summaries
from ssdprof.report.layout import Builder

if TYPE_CHECKING:
    from ssdprof.analysis.observations import Observation

__all__ = ["predictions_section", "spec_and_statistics_section", "warnings_section"]

_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
_UNIT_SCALE = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(1 << 20), "GiB/s": float(1 << 30), "IOPS": 1.0, "us": 1e3, "ms": 1e6}


def spec_and_statistics_section(b: Builder, groups: Sequence[RunGroup], spec_folders: Sequence[Path | None],
                                spec_id: str | None) -> list[str]:
    """Writes what the analysis modules can say; returns the notes on what was left out and why."""
    try:
        from ssdprof.analysis.spec_comparison import best_comparisons, compare_repeats
        from ssdprof.analysis.spec_library import SpecLibrary
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
        # Repeats of a setting are compared as the mean of their measurements (as on screen and in the CLI).
        for c in best_comparisons(compare_repeats(spec, summary.runs)):
            if c.pct_of_spec is None or c.measured is None:
                continue
            measured = c.measured / _UNIT_SCALE.get(c.figure.unit, 1.0)
            rows.append([summary.label, spec.title, f"{_figure(c.figure.value)} {c.figure.unit} ({c.figure.conditions()})",
                         f"{measured:,.1f} {c.figure.unit}", f"{c.pct_of_spec:.0f}", "; ".join(c.notes) or "conditions match"])
    if rows or len(groups) > 1:
        b.heading("Comparison with the vendor specification and between groups")
    if rows:
        b.table(["Setting", "Spec sheet", "Rated", "Measured", "% of spec", "Note"], rows,
                "measured against the vendor's rated figures, only where measured the way the figure was rated; "
                "MB/s is 10^6 bytes/s, MiB/s 2^20", widths=[62, 66, 160, 62, 30, 102], numeric_from=3, text_from=5)
    if spec_id and spec_id not in library.specs:
        notes.append(f"no spec sheet with id {spec_id!r} in the library")
    elif unmatched and not rows:
        notes.append("no vendor spec sheet matches the drive model " + ", ".join(sorted(f"'{m}'" for m in unmatched))
                     + "; choose one with --spec ID (see: ssdprof specs list)")
    if len(groups) > 1:
        _group_statistics(b, groups)
    return notes


def _figure(value: float) -> str:
    """A rated figure as the datasheet writes it: 1,000,000 rather than 1e+06."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.6g}"


def _group_statistics(b: Builder, groups: Sequence[RunGroup]) -> None:
    """Every later group against the first, setting by setting (Welch's t-test on the repeats)."""
    try:
        from ssdprof.analysis.metrics import latency_kind_note
        from ssdprof.analysis.stats import compare_groups, drive_state_note
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
        notes = [n for other in groups[1:] if (n := latency_kind_note(first.runs, other.runs))]
        notes += [f"{other.label} vs {first.label}: {n}" for other in groups[1:] if (n := drive_state_note(first.runs, other.runs))]
        b.table(["Groups", "Setting", f"{first.label} (mean ± 95 % CI)", "Other group (mean ± 95 % CI)", "Difference (%)",
                 "p (Welch)"], rows, "groups compared setting by setting; p below 0.05 means the difference is unlikely "
                "to be noise" + "".join(f". Note: {n}" for n in notes), numeric_from=4)


def warnings_section(b: Builder, groups: Sequence[RunGroup], notes: Sequence[str]) -> None:
    """Observations across runs, then each distinct validity warning once with the runs it concerns."""
    b.heading("Observations and warnings")
    runs = [r for g in groups for r in g.runs]
    found = _observed(runs)
    observations = [f"{o.severity.upper() if o.severity == 'warning' else 'Observation'}: {o.message}" for o in found]
    # a busy CPU is said once, by the observation that gives every run's figure
    said = {"cpu_saturated"} if any(o.code == "cpu_bound" for o in found) else set()
    seen: dict[tuple[str, str], tuple[Severity, list[str]]] = {}
    for run in runs:
        for warning in (w for w in run.warnings if w.code not in said):
            entry = seen.setdefault((warning.code, warning.message), (warning.severity, []))
            entry[1].append(str(run.id) if run.id else run.workload.label)
    if not observations and not seen and not notes:
        b.para("No observations, and no validity warnings: every run passed ssdprof's checks.")
    for text in observations:
        b.bullet(text)
    for (_, message), (severity, where) in sorted(seen.items(), key=lambda item: _ORDER[item[1][0]]):
        runs_text = ", ".join(where[:12]) + (f" and {len(where) - 12} more" if len(where) > 12 else "")
        b.bullet(f"{severity.value.upper()}: {message} (run {runs_text})")
    for note in notes:
        b.bullet(f"NOTE: {note}")


def _model_rows(runs: Sequence[RunResult]) -> list[list[str]]:
    """A row per series of three or more settings: leave-one-out error first, then the fit."""
    from ssdprof.analysis.metrics import metric_name
    from ssdprof.analysis.prediction import predict_runs
    from ssdprof.model.quantities import format_number as number

    rows: list[list[str]] = []
    for vary, metric in _MODELLED:
        name = metric_name(metric)
        try:
            reports = predict_runs(runs, metric, vary=vary)
        except ValueError:  # no series along this factor
            continue
        for report in (r for r in reports if r.series.settings >= 3):
            model, loo = report.model, report.validation
            error = "–" if loo.mean_abs_error_pct is None else f"{loo.mean_abs_error_pct:.1f}"
            # a perfect prediction leaves rounding noise (1e-14), which would print in e-notation
            shown = None if loo.rmse is None else round(loo.rmse / name.scale, 6)
            rmse = "–" if shown is None else f"{number(shown)} {name.unit}"
            rows.append([report.series.label, name.title, model.family, error, rmse,
                         model.quality.summary()])
    return rows


def _observed(runs: Sequence[RunResult]) -> list[Observation]:
    from ssdprof.analysis.observations import observe

    return observe(runs)


_MODELLED = (("block_size", "iops"), ("block_size", "bw_bytes_per_s"), ("outstanding", "iops"),
             ("outstanding", "lat_ns_mean"))


def predictions_section(b: Builder, groups: Sequence[RunGroup]) -> None:
    """Models fitted to the runs (as `ssdprof predict` fits them), with their leave-one-setting-out
    validation, and the scalability fit across node counts when runs are tagged nodes=N."""
    try:
        from ssdprof.analysis.prediction import scale_runs
        from ssdprof.model.quantities import format_number as number
    except ImportError:
        return
    runs = [r for g in groups for r in g.runs]
    rows = _model_rows(runs)
    scaling_rows: list[list[str]] = []
    try:
        for found in scale_runs(runs, "iops", by="nodes"):
            for point in found.projections:
                scaling_rows.append([found.label, f"{point.units:g}", number(point.predicted), point.binding,
                                     "–" if found.fit.peak_units is None else f"{found.fit.peak_units:.1f}"])
    except ValueError:  # runs at fewer than two node counts
        pass
    if not rows and not scaling_rows:
        return
    b.heading("Models and predictions")
    if rows:
        header = ["Series", "Metric", "Model", "Mean |error| leaving each setting out (%)",
                  "RMSE leaving each setting out", "Fit over the runs"]
        b.table(header, rows, "each metric modelled along the factor the runs vary, and validated "
                "by predicting every setting from the others: that error is what to expect of a "
                "prediction. R² is given only where settings outnumber the model's parameters, "
                "adjusted for them (ssdprof predict gives intervals for untested settings)",
                widths=[74, 56, 104, 56, 70, 122], numeric_from=3, text_from=5)
    if scaling_rows:
        b.table(["Setting", "Nodes", "Predicted IOPS", "Binding limit", "Peak at nodes"], scaling_rows,
                "Universal Scalability Law fitted across storage-node counts (runs tagged nodes=N)", numeric_from=1)
