"""The RPC's params and results for spec sheets, % of spec, group comparisons and the PDF report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.analysis.spec_comparison import SpecComparison
from ssdprof.analysis.specs import Spec
from ssdprof.app.contract.base import Params, Result


class SpecsListResult(Result):
    specs: list[Spec]
    problems: list[str] = Field(description="spec files that could not be read, each naming the file and field")
    user_spec_ids: list[str] = Field(default_factory=list, description="the specs that are the user's own (editable, deletable)")
    user_spec_dir: str | None = Field(default=None, description="where the user's own spec sheets are saved")


class SpecMatchParams(Params):
    device_model: str = Field(min_length=1, max_length=300)
    capacity_bytes: int | None = Field(default=None, gt=0)


class SpecMatchResult(Result):
    spec: Spec | None
    score: int = Field(description="3 exact, 2 the pattern appears in the model, 1 same family; 0 no match")
    note: str


class SpecRememberParams(Params):
    run_id: int = Field(description="a run of the device: the choice is kept for its drive (model "
                        "and serial) or, for a drive the OS does not name, its machine and disk")
    spec_id: str | None = Field(default=None, max_length=80, description="null: forget the choice")


class SpecRememberResult(Result):
    device: str = Field(description="the device the choice is kept for, as named to the user")
    spec_id: str | None


class SpecCompareParams(Params):
    run_ids: list[int] = Field(min_length=1, max_length=2000)
    spec_id: str | None = Field(default=None, description="default: the spec matching each run's device model")


class RunSpecComparison(Result):
    run_id: int = Field(description="the first of run_ids")
    run_ids: list[int] = Field(description="repeats of one setting, compared as the mean of their measurements")
    spec_id: str
    how: str = Field(description="why this spec: matched the device model, or chosen")
    comparison: SpecComparison
    sentence: str


class SpecCompareResult(Result):
    comparisons: list[RunSpecComparison]
    unmatched: dict[str, str] = Field(description="run id -> why no spec was compared with it")


class RunsCompareParams(Params):
    a: list[int] = Field(min_length=1, max_length=2000, description="run ids of group A (e.g. an earlier run)")
    b: list[int] = Field(min_length=1, max_length=2000, description="run ids of group B")
    metric: Literal["iops", "bw_bytes_per_s", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9"] = "iops"
    confidence: float = Field(default=0.95, gt=0.5, lt=1)


class MeanInterval(Result):
    n: int
    mean: float
    stddev: float | None
    half_width: float | None = Field(description="half the confidence interval; null when n < 2")


class GroupVerdict(Result):
    setting: str
    same_setting: bool
    a_run_ids: list[int]
    b_run_ids: list[int]
    a: MeanInterval
    b: MeanInterval
    diff_pct: float | None = Field(description="mean(B) - mean(A), relative to mean(A)")
    p_value: float | None = Field(description="Welch's t-test, two-sided; null without 2 repeats a side")
    significant: bool
    verdict: str


class RunsCompareResult(Result):
    metric: str
    unit: str = Field(description="of the means: IOPS, MB/s (10^6 bytes/s) or µs")
    comparisons: list[GroupVerdict]
    latency_note: str = Field(default="", description="set when A's and B's latencies are of different kinds")


class ReportParams(Params):
    run_ids: list[int] = Field(default_factory=list, max_length=2000)
    sweep_id: int | None = None
    compare_with: list[int] = Field(default_factory=list, max_length=2000, description="earlier runs: a second group")
    spec_id: str | None = Field(default=None, description="default: the spec matching the device model")
    title: str | None = Field(default=None, max_length=200)
    pool_same_setting: bool = Field(default=False, description="pool runs of one setting beyond the "
                                                               "repeats a sweep asked for, as runs.charts")


class ReportResult(Result):
    pdf_base64: str
    filename: str
    bytes: int
    runs: int
