"""The charts' numbers for the GUI: the same series the PDF draws (``report/series.py``), computed here and
drawn by the renderer as they arrive, so no statistic is worked out twice. Series and bars read the
runs' summaries (the store's figures); a run's latency distribution, and a percentile of several runs
(their added bins), read the documents' bins."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ssdprof.analysis.pooled import Bins, StoredBins
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.contract.runs import BarsParams, ChartsParams, RunIdParams
from ssdprof.app.service.kept_answers import KeptAnswers
from ssdprof.app.service.registry import handles
from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import RunSummary
from ssdprof.report.groups import RunGroup
from ssdprof.report.percentiles import PercentileCurve, percentile_curve
from ssdprof.report.series import BarChart, ChartSet, bar_chart, chart_set

__all__ = ["Charts"]


@dataclass
class Charts:
    summaries: Callable[[Sequence[int]], list[RunSummary]]
    runs: Callable[[Sequence[int]], list[RunResult]]
    library: Callable[[], SpecLibrary]
    bins: Callable[[Sequence[int]], dict[int, Bins]]
    kept: KeptAnswers = field(default_factory=KeptAnswers, init=False)

    @handles("runs.charts")
    def charts(self, params: ChartsParams) -> ChartSet:
        spec = self.library().get(params.spec_id) if params.spec_id else None
        bins = StoredBins(self.bins, [*params.run_ids, *params.compare_with])
        return chart_set(self.summaries(params.run_ids), self.summaries(params.compare_with), spec,
                         params.pool_same_setting, bins)

    @handles("runs.bars")
    def bars(self, params: BarsParams) -> BarChart:
        bins = StoredBins(self.bins, [i for g in params.groups for i in g.run_ids])
        groups = [RunGroup(g.label, tuple(self.summaries(g.run_ids)), params.pool_same_setting, bins)
                  for g in params.groups]
        return self.kept.answer("runs.bars", params, [r for g in groups for r in g.runs],
                                lambda: bar_chart(groups, params.metric))

    @handles("runs.percentiles")
    def percentiles(self, params: RunIdParams) -> PercentileCurve:
        return percentile_curve(self.runs([params.run_id])[0])
