"""From stored runs to predictions: the models of :mod:`models` and :mod:`scaling` applied to runs.

This is what the CLI's ``predict``, the app's prediction view and the PDF's models table share:
pick the runs that differ only in the swept factor, fit, validate by leaving each setting out,
predict untested settings with an interval, and optionally judge one more run against the fit.
Each says the error leaving each setting out first: it is what to expect of a prediction, where
the fit over the runs can be exact and check nothing (:mod:`fit_quality`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ssdprof.analysis import model_choice, models, scaling
from ssdprof.analysis.groupings import group_label
from ssdprof.analysis.metrics import metric_name, metric_value, setting_key
from ssdprof.model.quantities import format_number as number
from ssdprof.model.quantities import format_size
from ssdprof.model.run_summary import AnyRun, node_count

__all__ = ["ScalingReport", "Series", "SeriesReport", "fit_series", "predict_runs", "scale_runs", "series"]


# What each swept factor holds fixed: a block-size series keeps numjobs (one model per numjobs,
# as the cluster study fits them); a queue series keeps the access size and lets QD x jobs vary.
_VARY: dict[str, tuple[frozenset[str], Callable[[AnyRun], float]]] = {
    "block_size": (frozenset({"bs"}), lambda r: float(r.workload.block_size_bytes)),
    "outstanding": (frozenset({"qd", "jobs"}), lambda r: float(r.engine.effective_queue_depth * r.workload.numjobs))}
_THROUGHPUT = ("iops", "bw_bytes_per_s", "read_iops", "write_iops", "read_bw_bytes_per_s", "write_bw_bytes_per_s")


@dataclass(frozen=True)
class Series:
    """Runs that differ only in the swept factor, with the metric of each."""

    vary: str
    metric: str
    label: str
    key: tuple[object, ...]
    runs: tuple[AnyRun, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]

    split_by: str = ""
    """The split each group of which is a series apart ('' none)."""
    group: str = ""

    @property
    def settings(self) -> int:
        return len(set(self.xs))

    def setting_of(self, run: AnyRun) -> float | None:
        """The run's value of the swept factor if the run belongs to this series, else None."""
        drop, setting = _VARY[self.vary]
        same = setting_key(run, drop) == self.key and group_label(self.split_by)(run) == self.group
        return setting(run) if same else None


def series(runs: Sequence[AnyRun], vary: str, metric: str, split_by: str = "") -> list[Series]:
    """Split runs into series along ``vary`` ('block_size' or 'outstanding'), each with ≥ 2 settings;
    with ``split_by`` (a :mod:`~ssdprof.analysis.groupings` key), each of its groups apart."""
    if vary not in _VARY:
        raise KeyError(f"unknown factor {vary!r}; use block_size or outstanding")
    drop, setting = _VARY[vary]
    group_of = group_label(split_by)
    groups: dict[tuple[object, ...], list[tuple[AnyRun, float, float]]] = {}
    for run in runs:
        value = metric_value(run, metric)
        if run.status in ("ok", "partial") and value is not None and value > 0:
            groups.setdefault((*setting_key(run, drop), group_of(run)), []).append((run, setting(run), value))
    found = []
    for key, members in groups.items():
        if len({x for _, x, _ in members}) >= 2:
            first = members[0][0]
            found.append(Series(vary, metric, _series_label(first, vary) + group_of(first), key[:-1],
                                tuple(m[0] for m in members), tuple(m[1] for m in members), tuple(m[2] for m in members),
                                split_by, group_of(first)))
    return found


def _series_label(run: AnyRun, vary: str) -> str:
    w = run.workload
    mix = f" {w.read_pct}%R" if w.pattern.fixed_read_pct is None else ""
    fixed = f"jobs={w.numjobs} QD{w.queue_depth}" if vary == "block_size" else format_size(w.block_size_bytes)
    hosts = f" on {len(run.hosts)} hosts" if len(run.hosts) > 1 else ""
    nodes = f" nodes={run.tags['nodes']}" if "nodes" in run.tags else ""
    return f"{w.pattern.value}{mix} {fixed}{hosts}{nodes}"


def fit_series(data: Series, degree: int = 2) -> model_choice.Chosen:
    """The model family that suits the factor, fitted and validated by leaving each setting out;
    a polynomial's degree is at most ``degree``, chosen by that validation."""
    if data.vary == "outstanding" and data.metric in _THROUGHPUT and data.settings >= 3:
        model = models.fit_queueing(data.xs, data.ys)
        loo = models.leave_one_setting_out(models.fit_queueing, data.xs, data.ys, min_settings=2)
        return model_choice.Chosen(model, loo, "")
    return model_choice.choose_log_polynomial(data.xs, data.ys, degree)


@dataclass(frozen=True)
class SeriesReport:
    series: Series
    model: models.Fit
    validation: models.Validation
    predictions: tuple[models.Prediction, ...]
    anomaly: models.Anomaly | None = None
    """Set when a checked run belongs to this series."""
    model_choice: str = ""
    """Why this model (e.g. its degree) was chosen; empty when there was no choice."""

    def as_dict(self) -> dict[str, Any]:
        """Plain values for JSON, leave-one-out first; metric values in the metric's own unit
        (bytes/s, IOPS, ns)."""
        loo, anomaly = self.validation, self.anomaly
        check = None if anomaly is None else {**anomaly.__dict__,
                                              "prediction": anomaly.prediction.__dict__}
        return {"series": self.series.label, "vary": self.series.vary, "metric": self.series.metric,
                "metric_label": metric_name(self.series.metric).label, "model": self.model.family,
                "model_choice": self.model_choice, "run_ids": [r.id for r in self.series.runs],
                "loo_mean_abs_error_pct": loo.mean_abs_error_pct, "loo_rmse": loo.rmse,
                "loo_r2": loo.r2,
                "loo": [{**p.__dict__, "error_pct": p.error_pct} for p in loo.points],
                "fit": asdict(self.model.quality),
                "predictions": [p.__dict__ for p in self.predictions], "check": check}

    def describe(self, scale: float = 1.0, unit: str = "") -> str:
        """Leave-one-setting-out first, then the fit over the runs, predictions and check, one line
        each; values divided by ``scale``."""
        data, model = self.series, self.model
        choice = f" ({self.model_choice})" if self.model_choice else ""
        text = [f"{data.label}, {metric_name(data.metric).label}: {model.family}{choice}",
                *self._loo_lines(scale, unit), f"fit {model.quality.describe(scale, unit)}"]
        for p in self.predictions:
            interval = ("no interval (as many parameters as runs)"
                        if p.low is None or p.high is None
                        else f"{p.confidence:.0%} prediction interval {number(p.low / scale)} – "
                             f"{number(p.high / scale)}")
            text.append(f"  predict {_format_x(p.x, data.vary)}: {number(p.value / scale)} {unit}, {interval}")
        if (a := self.anomaly) is not None:
            verdict = "ANOMALY, " if a.anomalous else ""
            text.append(f"  check run: measured {number(a.observed / scale)} {unit} — "
                        f"{verdict}{a.message}")
        return "\n".join(text)

    def _loo_lines(self, scale: float, unit: str) -> list[str]:
        loo = self.validation
        if loo.rmse is None or loo.mean_abs_error_pct is None:
            return ["leaving each setting out: too few settings to predict one from the others"]
        loo_r2 = "n/a" if loo.r2 is None else f"{loo.r2:.3f}"
        lines = [f"leaving each setting out (on setting means): mean |error| "
                 f"{loo.mean_abs_error_pct:.1f} %, RMSE {number(loo.rmse / scale)} {unit}, "
                 f"R² {loo_r2}"]
        for point in loo.points:
            guess = ("-" if point.predicted is None
                     else f"{number(point.predicted / scale)} ({point.error_pct or 0:+.1f} %)")
            lines.append(f"  {_format_x(point.x, self.series.vary):>16}: measured "
                         f"{number(point.actual / scale)}, predicted without it {guess}")
        return lines


def _format_x(x: float, vary: str) -> str:
    return format_size(int(x)) if vary == "block_size" else f"{x:g} outstanding"


def predict_runs(runs: Sequence[AnyRun], metric: str, *, vary: str = "block_size", at: Sequence[float] = (),
                 degree: int = 2, confidence: float = 0.95, check: AnyRun | None = None,
                 anomaly_confidence: float = 0.99, split_by: str = "") -> list[SeriesReport]:
    """One report per series of ``runs`` along ``vary`` (each group of ``split_by`` apart); ``check``
    is left out of the fit and judged."""
    history = [r for r in runs if check is None or r.id != check.id]
    found = series(history, vary, metric, split_by)
    if not found:
        raise ValueError(f"no runs differ only in {vary.replace('_', ' ')} with two or more settings; widen the selection")
    reports = []
    for data in found:
        chosen = fit_series(data, degree)
        model = chosen.model
        anomaly = None
        if check is not None and (x := data.setting_of(check)) is not None and (observed := metric_value(check, metric)):
            anomaly = models.check_anomaly(model, x, observed, anomaly_confidence)
        predictions = tuple(model.predict(x, confidence) for x in at)
        reports.append(SeriesReport(data, model, chosen.validation, predictions, anomaly,
                                    chosen.reason))
    return reports


@dataclass(frozen=True)
class ScalingReport:
    label: str
    fit: scaling.UslFit
    projections: tuple[scaling.ScalingPoint, ...]
    client_link_bytes_per_s: float | None = None
    client_link_source: str = ""
    """Where the client link cap came from: the user's figure, or the hosts' recorded link limits."""

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.label, "usl": asdict(self.fit), "peak_units": self.fit.peak_units,
                "client_link_bytes_per_s": self.client_link_bytes_per_s, "client_link_source": self.client_link_source,
                "projections": [p.__dict__ for p in self.projections]}


def recorded_client_link(runs: Sequence[AnyRun]) -> tuple[float, str] | None:
    """The lowest link limit the runs' hosts recorded (NIC speed, egress shaping or the user's per-host speed),
    and where it came from, e.g. (25e6, "h1: tbf rate on eth0"); None when no host recorded one."""
    limits = [(host.link_limit_bytes_per_s, f"{host.host}: {host.link_limit_source or 'link limit'}")
              for run in runs for host in run.hosts if host.link_limit_bytes_per_s]
    return min(limits) if limits else None


def scale_runs(runs: Sequence[AnyRun], metric: str, *, by: str = "nodes", at: Sequence[float] = (),
               clients: int | None = None, client_link_bytes_per_s: float | None = None,
               node_link_bytes_per_s: float | None = None, split_by: str = "") -> list[ScalingReport]:
    """Fit the USL per setting across node counts (``nodes`` tag) or client counts (hosts per run);
    with ``split_by`` (a :mod:`~ssdprof.analysis.groupings` key), each of its groups apart.

    Links cap bandwidth metrics directly and IOPS metrics through the access size; latency
    metrics are not capped. Without ``client_link_bytes_per_s``, the client link is the lowest link
    limit the runs' hosts recorded (their NIC, egress shaping or per-host speed), named as such.
    Without ``at``, the projection is at twice the largest count measured.
    """
    if by not in ("nodes", "clients"):
        raise KeyError(f"unknown scale factor {by!r}; use nodes or clients")
    drop = frozenset({"nodes", "hosts", "device"})
    group_of = group_label(split_by)
    groups: dict[tuple[object, ...], list[tuple[AnyRun, float, float]]] = {}
    for run in runs:
        units = node_count(run) if by == "nodes" else max(len(run.hosts), 1)
        value = metric_value(run, metric)
        if units is not None and value and run.status in ("ok", "partial"):
            groups.setdefault((*setting_key(run, drop), group_of(run)), []).append((run, float(units), value))
    reports = []
    for members in groups.values():
        if len({u for _, u, _ in members}) < 2:
            continue
        first = members[0][0]
        fit = scaling.fit_usl([u for _, u, _ in members], [v for _, _, v in members])
        per_byte = 1.0 if "bw_bytes" in metric else 1 / first.workload.block_size_bytes if "iops" in metric else None
        link, source = client_link_bytes_per_s, "given" if client_link_bytes_per_s else ""
        if link is None and (recorded := recorded_client_link([r for r, _, _ in members])):
            link, source = recorded[0], f"recorded on the hosts (lowest: {recorded[1]})"
        client_cap = link * per_byte if link and per_byte else None
        node_cap = node_link_bytes_per_s * per_byte if node_link_bytes_per_s and per_byte else None
        count = clients or max(max(len(r.hosts), 1) for r, _, _ in members)
        points = list(at) or [2 * max(u for _, u, _ in members)]
        reports.append(ScalingReport(first.workload.label + group_of(first), fit,
                                     tuple(scaling.project(fit, points, count, client_cap, node_cap)), link, source))
    if not reports:
        raise ValueError(f"need runs of one setting at two or more {by} counts" +
                         (" (tag runs with nodes=N: ssdprof runs tag ID nodes=3)" if by == "nodes" else ""))
    return reports
