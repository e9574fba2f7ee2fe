"""The RPC's params and results for spec sheets, % of spec, group comparisons and the PDF report."""

from __future__ import annotations

import base64
import builtins
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ssdprof.analysis.spec_comparison import SpecComparison
from ssdprof.analysis.specs import ACCESS_NAMES, UNITS, Interface, Spec
from ssdprof.app.contract.analysis import ObservationInfo
from ssdprof.app.contract.base import Params, Result
from ssdprof.app.contract.run_queries import MAX_RUN_IDS
from ssdprof.model.problems import Choice

if TYPE_CHECKING:
    from ssdprof.analysis.stats import GroupComparison, GroupSummary
    from ssdprof.analysis.welch import MeanCI


class SpecChoices(Result):
    """The lists a spec-sheet form offers, as the engine reads them."""

    interfaces: list[Choice]
    accesses: list[Choice]
    units: list[Choice]

    @classmethod
    def listed(cls) -> SpecChoices:
        return cls(interfaces=[Choice(value=i.value, label=i.value) for i in Interface],
                   accesses=[Choice(value=a.value, label=name) for a, name in ACCESS_NAMES.items()],
                   units=[Choice(value=u, label="µs" if u == "us" else u) for u in UNITS])


class SpecsListResult(Result):
    specs: list[Spec]
    choices: SpecChoices = Field(default_factory=SpecChoices.listed)
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
    run_ids: list[int] = Field(min_length=1, max_length=MAX_RUN_IDS)
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
    a: list[int] = Field(min_length=1, max_length=MAX_RUN_IDS, description="run ids of group A (e.g. an earlier run)")
    b: list[int] = Field(min_length=1, max_length=MAX_RUN_IDS, description="run ids of group B")
    metric: Literal["iops", "bw_bytes_per_s", "lat_ns_mean", "lat_ns_p50", "lat_ns_p99", "lat_ns_p99_9"] = "iops"
    confidence: float = Field(default=0.95, gt=0.5, lt=1)
    a_label: str = Field(default="A", min_length=1, max_length=200, description="group A's name in the verdicts, e.g. 'SATA'")
    b_label: str = Field(default="B", min_length=1, max_length=200, description="group B's name in the verdicts, e.g. 'PCIe'")


class MeanInterval(Result):
    n: int
    mean: float
    stddev: float | None
    half_width: float | None = Field(description="half the confidence interval; null when n < 2")

    @classmethod
    def of(cls, ci: MeanCI) -> MeanInterval:
        return cls(n=ci.n, mean=ci.mean, stddev=ci.stddev, half_width=ci.half_width)


_POOLED = ("of a latency percentile (lat_ns_p50, lat_ns_p99, lat_ns_p99_9: all I/Os, reads and writes "
           "together), in the unit of the means: the percentile of all the group's runs' I/Os, from their "
           "added histogram bins; null for other metrics, or where a run's bins are not known")


class GroupVerdict(Result):
    setting: str
    same_setting: bool
    a_run_ids: list[int]
    b_run_ids: list[int]
    a: MeanInterval = Field(description="A's runs' values: mean ± CI (of a percentile: the mean of the runs' "
                                        "own, what Welch's test compares)")
    b: MeanInterval
    a_pooled: float | None = Field(default=None, description=_POOLED)
    b_pooled: float | None = Field(default=None, description=_POOLED)
    diff_pct: float | None = Field(description="mean(B) - mean(A), relative to mean(A)")
    p_value: float | None = Field(description="Welch's t-test, two-sided; null without 2 repeats a side")
    significant: bool
    verdict: str
    drive_state_note: str = Field(default="", description=(
        "set when A and B were taken in different drive states (fresh, preconditioned, steady)"))

    @classmethod
    def of(cls, c: GroupComparison) -> GroupVerdict:
        r = c.result
        return cls(setting=c.setting, same_setting=c.same_setting,
                   a_run_ids=[i for i in c.a_run_ids if i is not None],
                   b_run_ids=[i for i in c.b_run_ids if i is not None],
                   a=MeanInterval.of(r.a), b=MeanInterval.of(r.b), diff_pct=r.diff_pct,
                   a_pooled=c.pooled[0] if c.pooled else None, b_pooled=c.pooled[1] if c.pooled else None,
                   p_value=r.p_value, significant=r.significant, verdict=r.verdict,
                   drive_state_note=c.drive_state_note)


class RunsCompareResult(Result):
    metric: str
    unit: str = Field(description="of the means: IOPS, MB/s (10^6 bytes/s) or µs")
    comparisons: list[GroupVerdict]
    latency_note: str = Field(default="", description="set when A's and B's latencies are of different kinds")
    summary: str = Field(default="", description=(
        "the comparisons in one sentence naming both groups: how many settings, where B is higher, where significant"))


class RepeatGroup(Result):
    """Runs of one setting as one figure: a sweep's repeats, one run, or runs pooled on request."""

    n: int
    mean: float = Field(description="the runs' mean; of a latency percentile of several runs, the "
                                    "percentile of all their I/Os from their added bins (pooled)")
    stddev: float | None
    half_width: float | None = Field(description="half the confidence interval; null when n < 2 and for "
                                                 "a pooled percentile")
    pooled: bool = Field(default=False, description="mean is a percentile of all the runs' I/Os together")
    setting: str
    hosts: list[str]
    nodes: int | None
    run_ids: list[int]
    source: str = Field(description="n and where the runs came from, e.g. 'n = 3 repeats of sweep 12'")
    low: float | None = Field(description="the interval's ends; null when n < 2")
    high: float | None

    @classmethod
    def of(cls, g: GroupSummary) -> RepeatGroup:
        ci = g.ci
        return cls(n=ci.n, mean=ci.mean, stddev=ci.stddev, half_width=ci.half_width, pooled=ci.pooled,
                   setting=g.label, hosts=list(g.hosts), nodes=g.nodes,
                   run_ids=[i for i in g.run_ids if i is not None], source=g.source,
                   low=ci.low, high=ci.high)


class CompareReport(Result):
    """``ssdprof compare --json``: two groups' verdicts per setting (``comparisons``, with
    ``--with``), or one group's figures (``groups``) and their % of spec (``spec``); the
    observations either way. Values are in the metric's own unit (IOPS, bytes/s, ns)."""

    metric: str
    unit: str = Field(description="the metric's display unit (scale it with METRIC_NAMES)")
    comparisons: list[GroupVerdict] = Field(default_factory=list)
    latency_note: str = ""
    groups: list[RepeatGroup] = Field(default_factory=list)
    spec: list[RunSpecComparison] = Field(default_factory=list)
    observations: list[ObservationInfo] = Field(default_factory=list)


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

    @classmethod
    def of(cls, pdf: builtins.bytes, filename: str, runs: int) -> ReportResult:
        """A PDF as every report method answers with it."""
        return cls(pdf_base64=base64.b64encode(pdf).decode("ascii"), filename=filename, bytes=len(pdf), runs=runs)
