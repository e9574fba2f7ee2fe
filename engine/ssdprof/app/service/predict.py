"""The session's model methods: predict untested settings, project larger clusters, show which
factors move which metrics, and keep the user's own spec sheets.

Thin like ``app/service/analysis.py``: the maths is ``ssdprof.analysis.prediction`` (shared with
``ssdprof predict``), loaded on first use because scipy takes half a second to import.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ssdprof.analysis.groupings import key_name, split_key
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.contract.analysis import (
    CheckInfo,
    CorrelationGroup,
    CorrelationParams,
    CorrelationResult,
    CurvePoint,
    FitQualityInfo,
    LooPointInfo,
    MeasuredPoint,
    ObservationInfo,
    ObserveParams,
    ObserveResult,
    PredictionInfo,
    PredictParams,
    PredictResult,
    ScalingFit,
    ScalingParams,
    ScalingProjection,
    ScalingResult,
    SeriesFit,
    SpecDeleteParams,
    SpecSaveParams,
    SpecSaveResult,
    SplitInfo,
)
from ssdprof.app.contract.runs import DeleteResult
from ssdprof.app.service.kept_answers import KeptAnswers
from ssdprof.app.service.registry import handles
from ssdprof.app.spec_sheets import delete_own_spec, save_own_spec
from ssdprof.model.run_summary import AnyRun
from ssdprof.model.workload import WorkloadError

if TYPE_CHECKING:
    from ssdprof.analysis.fit_quality import FitQuality
    from ssdprof.analysis.models import Prediction
    from ssdprof.analysis.prediction import ScalingReport, SeriesReport

__all__ = ["Models"]

CURVE_POINTS = 48


@dataclass
class Models:
    """``runs`` resolves run ids to their figures (the store's summaries; KeyError for a missing one); spec
    sheets are saved in ``user_spec_dir``."""

    runs: Callable[[Sequence[int]], Sequence[AnyRun]]
    library: Callable[[], SpecLibrary]
    user_spec_dir: Path | None
    kept: KeptAnswers = field(default_factory=KeptAnswers, init=False)

    @handles("analysis.predict")
    def predict(self, params: PredictParams) -> PredictResult:
        from ssdprof.analysis.prediction import predict_runs

        runs = self.runs(params.run_ids)
        check = self.runs([params.check_run_id])[0] if params.check_run_id is not None else None
        if any(x <= 0 or not math.isfinite(x) for x in params.at):
            raise WorkloadError.single("at", "--at", "settings to predict must be positive numbers (bytes or I/O counts)")
        split_by = split_key(runs, params.split_by)
        try:
            reports = predict_runs(runs, params.metric, vary=params.vary, at=params.at, degree=params.degree,
                                   confidence=params.confidence, check=check, split_by=split_by)
        except ValueError as exc:
            raise WorkloadError.single("run_ids", "RUN_ID", str(exc)) from None
        return PredictResult(metric=params.metric, vary=params.vary,
                             series=[_series_fit(r, params, check) for r in reports], split_by=split_by,
                             split_name=key_name(split_by) if split_by else "",
                             splits=_splits(runs, params.metric, split_by, params.confidence))

    @handles("analysis.scaling")
    def scaling(self, params: ScalingParams) -> ScalingResult:
        from ssdprof.analysis.prediction import scale_runs

        def link(gbps: float | None) -> float | None:
            return gbps * 1e9 / 8 if gbps else None

        runs = self.runs(params.run_ids)
        split_by = split_key(runs, params.split_by)
        try:
            reports = scale_runs(runs, params.metric, by=params.by, at=[float(n) for n in params.at],
                                 clients=params.clients, client_link_bytes_per_s=link(params.client_link_gbps),
                                 node_link_bytes_per_s=link(params.node_link_gbps), split_by=split_by)
        except ValueError as exc:
            raise WorkloadError.single("run_ids", "RUN_ID", str(exc)) from None
        fits = [_scaling_fit(r) for r in reports]
        return ScalingResult(metric=params.metric, by=params.by, fits=fits, split_by=split_by,
                             split_name=key_name(split_by) if split_by else "",
                             splits=_splits(runs, params.metric, split_by))

    @handles("analysis.correlation")
    def correlation(self, params: CorrelationParams) -> CorrelationResult:
        asked = self.runs(params.run_ids)
        return self.kept.answer("analysis.correlation", params, asked, lambda: _correlation(params, asked))

    @handles("analysis.observe")
    def observe(self, params: ObserveParams) -> ObserveResult:
        from ssdprof.analysis.observations import observe

        found = observe(self.runs(params.run_ids), link_bytes_per_s=params.link_gbps * 1e9 / 8 if params.link_gbps else None)
        return ObserveResult(observations=[ObservationInfo.of(o) for o in found])

    @handles("specs.save")
    def save_spec(self, params: SpecSaveParams) -> SpecSaveResult:
        written, overrides = save_own_spec(self.library(), self._user_folder("spec.id"), params.spec,
                                           replace=params.replace)
        return SpecSaveResult(spec=params.spec, path=str(written), overrides_bundled=overrides)

    @handles("specs.delete")
    def delete_spec(self, params: SpecDeleteParams) -> DeleteResult:
        delete_own_spec(self.library(), self._user_folder("spec_id"), params.spec_id)
        return DeleteResult(deleted=True)

    def _user_folder(self, field: str) -> Path:
        if self.user_spec_dir is None:
            raise WorkloadError.single(field, "ID", "this engine has no folder for your own spec sheets")
        return self.user_spec_dir


def _splits(runs: Sequence[AnyRun], metric: str, split_by: str, confidence: float = 0.95) -> list[SplitInfo]:
    from ssdprof.analysis.groupings import splits_besides

    return [SplitInfo(key=s.key, name=s.name, groups=list(s.groups), settings=s.settings, differing=s.differing,
                      sentence=s.sentence) for s in splits_besides(runs, metric, split_by, confidence)]


def _span(low: float, high: float, *, linear: bool = False) -> list[float]:
    """CURVE_POINTS values from low to high: evenly spaced, or evenly in log scale."""
    if high <= low:
        return [low]
    if linear:
        return [low + (high - low) * i / (CURVE_POINTS - 1) for i in range(CURVE_POINTS)]
    ratio = math.log(high / low)
    return [low * math.exp(ratio * i / (CURVE_POINTS - 1)) for i in range(CURVE_POINTS)]


def _prediction(p: Prediction) -> PredictionInfo:
    return PredictionInfo(x=p.x, value=p.value, low=p.low, high=p.high, confidence=p.confidence)


def _scaling_fit(report: ScalingReport) -> ScalingFit:
    fit = report.fit
    top = max([*fit.units, *(p.units for p in report.projections)])
    curve = [CurvePoint(x=n, value=fit.value_at(n), low=None, high=None)
             for n in _span(1.0, top, linear=True)]
    observed = [CurvePoint(x=n, value=v, low=None, high=None)
                for n, v in zip(fit.units, fit.observed, strict=True)]
    return ScalingFit(
        setting=report.label, lam=fit.lam, sigma=fit.sigma, kappa=fit.kappa,
        peak_units=fit.peak_units, fit=_quality(fit.quality), observed=observed, curve=curve,
        projections=[ScalingProjection(**p.__dict__) for p in report.projections],
        description=fit.describe(), client_link_bytes_per_s=report.client_link_bytes_per_s,
        client_link_source=report.client_link_source)


def _quality(quality: FitQuality) -> FitQualityInfo:
    return FitQualityInfo(**asdict(quality))


def _series_fit(report: SeriesReport, params: PredictParams, check: AnyRun | None) -> SeriesFit:
    from ssdprof.analysis.metrics import metric_value

    data, model, loo = report.series, report.model, report.validation
    xs = [*data.xs, *params.at]
    curve = [CurvePoint(**_prediction(model.predict(x, params.confidence)).model_dump(exclude={"confidence"}))
             for x in _span(min(xs), max(xs))]
    measured = [MeasuredPoint(run_id=r.id, x=x, value=v) for r, x in zip(data.runs, data.xs, strict=True)
                if r.id is not None and (v := metric_value(r, params.metric)) is not None]
    checked = None
    if report.anomaly is not None and check is not None and check.id is not None:
        a = report.anomaly
        checked = CheckInfo(run_id=check.id, anomalous=a.anomalous, observed=a.observed, prediction=_prediction(a.prediction),
                            message=a.message)
    return SeriesFit(label=data.label, model=model.family, model_choice=report.model_choice,
                     run_ids=[r.id for r in data.runs if r.id is not None], measured=measured,
                     loo_mean_abs_error_pct=loo.mean_abs_error_pct, loo_rmse=loo.rmse,
                     loo_r2=loo.r2, loo=[LooPointInfo(x=p.x, actual=p.actual, predicted=p.predicted,
                                                      error_pct=p.error_pct) for p in loo.points],
                     fit=_quality(model.quality), curve=curve,
                     predictions=[_prediction(p) for p in report.predictions], check=checked)


def _correlation(params: CorrelationParams, asked: Sequence[AnyRun]) -> CorrelationResult:
    from ssdprof.analysis.correlation import correlation_by_node_count

    runs = [r for r in asked if r.status in ("ok", "partial")]
    groups = []
    for nodes, matrix in correlation_by_node_count(runs, method=params.method).items():
        groups.append(CorrelationGroup(nodes=nodes, runs=matrix.runs, factors=list(matrix.factors), metrics=list(matrix.metrics),
                                       values=[list(row) for row in matrix.values]))
    return CorrelationResult(method=params.method, groups=groups)
