"""The contract's analysis methods: predictions with intervals, scale-out what-ifs, scale-up sizing
of an all-flash array, the factor x metric heatmap, and the user's own spec sheets. Part of
:mod:`ssdprof.app.contract` (which lists them in ``METHODS``); kept apart so each file stays
readable.

Metric values are in the metric's own unit (IOPS, bytes/s, ns), like everywhere in the contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import ConfigDict, Field, ValidationInfo, WithJsonSchema, field_validator

from ssdprof.analysis.scale_up_inputs import ScaleUpDesign, ScaleUpPoint
from ssdprof.analysis.specs import Spec
from ssdprof.app.contract.base import Params, Result
from ssdprof.app.contract.run_queries import MAX_RUN_IDS
from ssdprof.model.quantities import parse_size_bytes

if TYPE_CHECKING:
    from ssdprof.analysis.observations import Observation

Typed = WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "string"}]}, mode="validation")
"""Numbers a client may send as the user typed them ("4k", "16"): the engine reads them, and names the field if it cannot."""

__all__ = [
    "CorrelationGroup", "CorrelationParams", "CorrelationResult", "CurvePoint", "FitQualityInfo",
    "LooPointInfo", "ObservationInfo",
    "ObserveParams", "ObserveResult", "PredictParams",
    "PredictResult", "PredictionInfo", "ScaleUpParams", "ScalingFit", "ScalingParams", "ScalingProjection",
    "ScalingResult",
    "SeriesFit", "SpecDeleteParams", "SpecSaveParams", "SpecSaveResult", "SplitFits", "SplitInfo",
]


Metric = Literal["iops", "bw_bytes_per_s", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9",
                 "read_iops", "write_iops", "read_bw_bytes_per_s", "write_bw_bytes_per_s",
                 "read_lat_ns_mean", "write_lat_ns_mean", "read_lat_ns_p99", "write_lat_ns_p99"]
RunIds = Field(min_length=1, max_length=MAX_RUN_IDS, description="the runs to learn from (e.g. a sweep's, or History's selection)")


# ------------------------------------------------------------------------------------ predict

class PredictParams(Params):
    run_ids: list[int] = RunIds
    metric: Metric = "iops"
    vary: Literal["block_size", "outstanding"] = Field(
        default="block_size", description="the swept factor: access size, or outstanding I/Os (QD x jobs)")
    at: list[Annotated[float, Typed]] = Field(default_factory=list, max_length=20,
                                              description="untested settings to predict: sizes (4k, 1MiB or bytes) for block_size, "
                                                          "a count for outstanding")
    degree: int = Field(default=2, ge=1, le=4, description=(
        "highest polynomial degree in log2 access size: lower ones are tried too, and the one that "
        "best predicts each setting left out is kept; never one through every setting"))
    confidence: float = Field(default=0.95, gt=0.5, lt=1)
    check_run_id: int | None = Field(default=None, description="judge this run against the model of the others")
    split_by: str = Field(default="", max_length=210, description=(
        "fit each group of this split apart: 'tag KEY' (e.g. 'tag interface') or a recorded fact ('recorded drive'); "
        "'' fits across every split (and says which ones differ)"))

    @field_validator("at", mode="before")
    @classmethod
    def _typed_settings(cls, value: object, info: ValidationInfo) -> object:
        if not isinstance(value, list):
            return value
        if info.data.get("vary", "block_size") != "block_size":
            return value
        # every size typed wrong named at once ('zz' and '-4'), the advice they share said once
        read, wrong = [], []
        for typed in value:
            try:
                read.append(parse_size_bytes(typed) if isinstance(typed, str) else typed)
            except ValueError as exc:
                wrong.append(str(exc).partition("; "))
        if wrong:
            advice = list(dict.fromkeys(tail for _, _, tail in wrong if tail))
            raise ValueError("; ".join([*(head for head, _, _ in wrong), *advice]))
        return read


class CurvePoint(Result):
    x: float
    value: float
    low: float | None = Field(description="prediction interval; None where the model has no spare degrees of freedom")
    high: float | None


class PredictionInfo(CurvePoint):
    confidence: float


class LooPointInfo(Result):
    x: float
    actual: float = Field(description="mean of the runs at this setting")
    predicted: float | None = Field(description="from a model fitted without this setting; None when too few remain")
    error_pct: float | None


class MeasuredPoint(Result):
    run_id: int
    x: float
    value: float


class CheckInfo(Result):
    run_id: int
    anomalous: bool
    observed: float
    prediction: PredictionInfo
    message: str


class FitQualityInfo(Result):
    """Goodness of fit over the runs a model was fitted to, counted against its parameters: a model
    with as many parameters as settings passes through them all, so has no R² or RMSE to report."""

    check: Literal["none", "weak", "ok"] = Field(
        description="none: an exact fit, no check possible; weak: few settings beyond the "
                    "parameters; ok")
    note: str = Field(description="why there is no R² (an exact fit) or why the check is weak; "
                      "empty when ok")
    runs: int
    settings: int
    parameters: int
    r2: float | None = Field(description="None for an exact fit (or every run measured the same)")
    adjusted_r2: float | None = Field(description="R² with the parameters' freedom taken back; "
                                      "None for an exact fit")
    rmse: float | None = Field(description="in the metric's own unit; None for an exact fit")


class SeriesFit(Result):
    label: str = Field(description="what the series holds fixed, e.g. 'read jobs=1 QD1'")
    model: str = Field(description="the model family and its parameters in words")
    model_choice: str = Field(description="why this model or degree was chosen; empty: no choice")
    run_ids: list[int]
    measured: list[MeasuredPoint]
    loo_mean_abs_error_pct: float | None = Field(
        description="leave-one-setting-out, each setting predicted from the others: what to expect "
                    "of a prediction; None when too few settings remain")
    loo_rmse: float | None
    loo_r2: float | None
    loo: list[LooPointInfo]
    fit: FitQualityInfo = Field(description="the fit over every run, after the leave-one-out error")
    curve: list[CurvePoint] = Field(description="the fitted curve with its interval across the measured (and asked) range")
    predictions: list[PredictionInfo]
    check: CheckInfo | None


class SplitInfo(Result):
    """A split (a tag or recorded fact) whose groups differ at one setting: fitted together, a series mixes them."""

    key: str = Field(description="as split_by takes it: 'tag interface'")
    name: str = Field(description="in words: 'interface'")
    groups: list[str] = Field(description="the groups' values, e.g. ['PCIe', 'SATA']")
    settings: int = Field(description="settings measured by at least two of the groups")
    differing: int = Field(description="of those, where a group differs from the first (Welch's t-test)")
    sentence: str = Field(description="the verdict in words, naming the groups")


class SplitFits(Result):
    """Fits made apart for each group of a split, or across them: which, and the splits that differ."""

    split_by: str = Field(default="", description="the split each group of which was fitted apart ('' none)")
    split_name: str = Field(default="", description="that split in words: 'interface'")
    splits: list[SplitInfo] = Field(default_factory=list, description=(
        "splits whose groups differ, beyond the one fitted apart: offered to fit apart"))


class PredictResult(SplitFits):
    metric: str
    vary: str
    series: list[SeriesFit]


# ------------------------------------------------------------------------------------ scaling

class ScalingParams(Params):
    run_ids: list[int] = RunIds
    metric: Metric = "bw_bytes_per_s"
    by: Literal["nodes", "clients"] = Field(default="nodes", description="storage nodes (the runs' nodes tag) or client hosts")
    at: list[Annotated[int, Typed]] = Field(default_factory=list, max_length=20,
                                            description="counts to predict (default: twice the largest)")
    client_link_gbps: float | None = Field(default=None, gt=0, le=10_000,
                                           description="each client's network link, Gb/s (default: the hosts' recorded link limits)")
    node_link_gbps: float | None = Field(default=None, gt=0, le=10_000, description="each storage node's link, Gb/s")
    clients: int | None = Field(default=None, ge=1, le=10_000, description="clients for the network cap (default: hosts per run)")
    split_by: str = Field(default="", max_length=210, description=(
        "fit each group of this split apart: 'tag KEY' (e.g. 'tag interface') or a recorded fact ('recorded drive'); "
        "'' fits across every split (and says which ones differ)"))


class ScalingProjection(Result):
    units: float
    usl: float = Field(description="the Universal Scalability Law's value")
    client_network_cap: float | None
    node_network_cap: float | None
    predicted: float = Field(description="the smallest of the limits")
    binding: str = Field(description="scalability, client network or node network")


class ScalingFit(Result):
    setting: str
    lam: float = Field(description="throughput of one unit")
    sigma: float = Field(description="contention: the serialised share")
    kappa: float = Field(description="coherency: the cost of units keeping in step")
    peak_units: float | None = Field(description="where adding units starts to lower throughput; None: no peak in sight")
    fit: FitQualityInfo
    observed: list[CurvePoint] = Field(description="x: unit count; value: measured (low/high unused)")
    curve: list[CurvePoint] = Field(description="the USL curve from 1 unit to beyond the largest asked")
    projections: list[ScalingProjection]
    client_link_bytes_per_s: float | None = Field(default=None, description="the client link that capped the projections")
    client_link_source: str = Field(default="", description="'given', or the hosts' recorded limit it came from")
    description: str


class ScalingResult(SplitFits):
    metric: str
    by: str
    fits: list[ScalingFit]


# -------------------------------------------------------------------------------- correlation

class CorrelationParams(Params):
    run_ids: list[int] = RunIds
    method: Literal["spearman", "pearson"] = "spearman"


class CorrelationGroup(Result):
    nodes: int | None = Field(description="storage-node count (the runs' nodes tag); None for untagged runs")
    runs: int
    factors: list[str]
    metrics: list[str]
    values: list[list[float | None]] = Field(description="values[i][j]: factor i against metric j; None when not estimable")


class CorrelationResult(Result):
    method: str
    groups: list[CorrelationGroup]


# ------------------------------------------------------------------------------- observations

class ObserveParams(Params):
    run_ids: list[int] = RunIds
    link_gbps: float | None = Field(default=None, gt=0, le=10_000, description="one client's network link, to flag network-bound runs")


class ObservationInfo(Result):
    code: str = Field(description="qd_knee, qd_still_rising, qd_within_spread, read_write_gap, random_sequential_gap, "
                                  "above_interface_limit, "
                                  "network_bound, cpu_bound or shared_limit")
    severity: Literal["info", "warning"]
    message: str
    run_ids: list[int]

    @classmethod
    def of(cls, o: Observation) -> ObservationInfo:
        return cls(code=o.code, severity="warning" if o.severity == "warning" else "info",
                   message=o.message, run_ids=[i for i in o.run_ids if i is not None])


class ObserveResult(Result):
    observations: list[ObservationInfo]


# -------------------------------------------------------------------------------- spec sheets

class SpecSaveParams(Params):
    spec: Spec
    replace: bool = Field(default=False, description="overwrite the user's own spec with this id")


class SpecSaveResult(Result):
    spec: Spec
    path: str
    overrides_bundled: bool = Field(description="a bundled sheet has this id; the user's copy is used instead")


class SpecDeleteParams(Params):
    spec_id: str = Field(min_length=1, max_length=80)


# ------------------------------------------------------------------------------------ scale-up

class ScaleUpParams(ScaleUpDesign):
    """Size an all-flash array from a small profile: the profiling points come from runs tagged
    arrays=N (enclosures=K, controller=NAME) and/or are typed in."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    run_ids: list[int] = Field(default_factory=list, max_length=5000,
                               description="profiling runs, tagged arrays=N and enclosures=K")
    metric: Literal["iops", "read_iops", "write_iops"] = "iops"
    points: list[ScaleUpPoint] = Field(default_factory=list, max_length=1000,
                                       description="profiling points typed in, added to the runs'")
    title: str | None = Field(default=None, max_length=200,
                              description="the PDF's title (analysis.scale_up_report)")

