"""The session's analysis methods: spec sheets, % of spec, comparing groups, the PDF report.

Thin: each method resolves run ids through the store and calls ``ssdprof.analysis``,
``ssdprof.analysis.specs`` or ``ssdprof.report``; bad input raises :class:`WorkloadError` (-32602), a
missing run or spec :class:`KeyError` (-32001), as everywhere in ``app/service/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ssdprof.analysis.pooled import StoredBins
from ssdprof.analysis.repeats import pools
from ssdprof.analysis.spec_choice import drive_environment
from ssdprof.analysis.spec_comparison import best_comparisons, compare_repeats
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec
from ssdprof.app.adaptive import adaptive_summaries
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.specs import (
    GroupVerdict,
    ReportParams,
    ReportResult,
    RunsCompareParams,
    RunsCompareResult,
    RunSpecComparison,
    SpecCompareParams,
    SpecCompareResult,
    SpecMatchParams,
    SpecMatchResult,
    SpecsListResult,
)
from ssdprof.app.service.kept_answers import KeptAnswers
from ssdprof.app.service.registry import handles
from ssdprof.app.service.summary import spec_for, summary_for
from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import AnyRun, RunSummary
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store

# scipy (statistics) and matplotlib (report charts) load on first use: together they take ~1.4 s,
# which would otherwise delay every start of the app.

__all__ = ["Analysis"]


class Analysis:
    """Spec sheets from ``spec_folders`` (bundled first, then the user's own, which override)."""

    def __init__(self, store: Store, spec_folders: Sequence[Path | None]):
        self.store = store
        self.spec_folders = tuple(spec_folders)
        self.kept = KeptAnswers()

    def library(self) -> SpecLibrary:
        return SpecLibrary.load(self.spec_folders)  # re-read: the user may have edited a spec since

    @handles("specs.list")
    def specs_list(self, _: Params) -> SpecsListResult:
        library = self.library()
        user = self.spec_folders[-1] if len(self.spec_folders) > 1 else None
        return SpecsListResult(specs=sorted(library.specs.values(), key=lambda s: (s.vendor, s.model)),
                               problems=library.problems, user_spec_dir=str(user) if user else None,
                               user_spec_ids=sorted(i for i, path in library.origins.items() if user and path.parent == user))

    @handles("specs.match")
    def specs_match(self, params: SpecMatchParams) -> SpecMatchResult:
        found = self.library().match_detail(params.device_model, params.capacity_bytes)
        if found is None:
            return SpecMatchResult(spec=None, score=0, note=f"no spec sheet matches {params.device_model!r}")
        return SpecMatchResult(spec=found.spec, score=found.score, note=found.note)

    @handles("specs.compare")
    def specs_compare(self, params: SpecCompareParams) -> SpecCompareResult:
        library = self.library()
        chosen = library.get(params.spec_id) if params.spec_id else None
        out: list[RunSpecComparison] = []
        unmatched: dict[str, str] = {}
        for members in (p.runs for p in pools(self.summaries(params.run_ids))):
            ids = [run.id for run in members if run.id is not None]
            spec, how = (chosen, "chosen") if chosen else _auto(self.store, library, members[0])
            if spec is None:
                unmatched.update(dict.fromkeys(map(str, ids), how))
                continue
            comparisons = best_comparisons(compare_repeats(spec, members))
            if not comparisons:
                unmatched.update(dict.fromkeys(map(str, ids), f"{spec.title} rates no figure for this access pattern"))
            out += [RunSpecComparison(run_id=ids[0], run_ids=ids, spec_id=spec.id, how=how, comparison=c, sentence=c.sentence())
                    for c in comparisons]
        return SpecCompareResult(comparisons=out, unmatched=unmatched)

    @handles("runs.compare")
    def runs_compare(self, params: RunsCompareParams) -> RunsCompareResult:
        a, b = self.summaries(params.a), self.summaries(params.b)
        return self.kept.answer("runs.compare", params, [*a, *b], lambda: self._compared(params, a, b))

    def _compared(self, params: RunsCompareParams, a: list[RunSummary], b: list[RunSummary]) -> RunsCompareResult:
        from ssdprof.analysis.metrics import latency_kind_note, metric_name
        from ssdprof.analysis.stats import compare_groups, comparison_summary

        shown = metric_name(params.metric)
        scale, unit = shown.scale, shown.unit
        labels = (params.a_label, params.b_label)
        found = compare_groups(a, b, params.metric, confidence=params.confidence, scale=scale, unit=unit, labels=labels,
                               bins_of=StoredBins(self.store.latency_bins, [*params.a, *params.b]))
        if not found:
            raise WorkloadError.single("b", "-", f"{comparison_summary(found, labels)}; compare like with like")
        return RunsCompareResult(metric=params.metric, unit=unit, comparisons=[GroupVerdict.of(c) for c in found],
                                 latency_note=latency_kind_note(a, b), summary=comparison_summary(found, labels))

    @handles("report.pdf")
    def report_pdf(self, params: ReportParams) -> ReportResult:
        from ssdprof.report import ReportError, ReportRequest, RunGroup, build_pdf

        runs = self.store.runs(RunFilter(sweep_id=params.sweep_id, limit=None)) if params.sweep_id is not None else []
        runs += self.runs(params.run_ids)
        if not runs:
            raise WorkloadError.single("run_ids", "RUN_ID", "name at least one run id or a sweep id")
        if params.spec_id:
            self.library().get(params.spec_id)
        scope = f"sweep {params.sweep_id}, {len(runs)} run(s)" if params.sweep_id is not None else f"{len(runs)} run(s)"
        pool = params.pool_same_setting
        groups: tuple[RunGroup, ...] = (RunGroup("runs", tuple(runs), pool),)
        if params.compare_with:
            earlier = self.runs(params.compare_with)
            groups = (RunGroup("A (earlier)", tuple(earlier), pool), RunGroup("B", tuple(runs), pool))
            scope += f" compared with {len(earlier)} earlier run(s)"
        curves, slos = adaptive_summaries(self.store, params.sweep_id, self.library(), params.spec_id)
        library = self.library()
        _, pick = spec_for(self.store, library, drive_environment(runs[0]), params.spec_id)
        chosen = pick.spec_id if pick.how != "matched" else None  # now or before, for every run
        summary = None if params.compare_with else summary_for(self.store, library, runs, params.spec_id,
                                                               pool_same_setting=pool)
        request = ReportRequest(groups=groups, title=params.title or "SSD performance report", scope=scope,
                                spec_folders=self.spec_folders, spec_id=chosen, curves=curves,
                                slos=slos, summary=summary)
        try:
            pdf = build_pdf(request)
        except ReportError as exc:
            raise WorkloadError.single("run_ids", "RUN_ID", str(exc)) from None
        name = f"ssdprof-sweep-{params.sweep_id}.pdf" if params.sweep_id is not None else f"ssdprof-runs-{runs[0].id}.pdf"
        return ReportResult.of(pdf, name, len(runs))

    def summaries(self, run_ids: Sequence[int]) -> list[RunSummary]:
        """The runs' figures from the store's summary tables (no documents opened); KeyError for a
        missing run."""
        return self.store.summaries_of(run_ids)

    def runs(self, run_ids: Sequence[int]) -> list[RunResult]:
        found = []
        for run_id in run_ids:
            run = self.store.run(run_id)
            if run is None:
                raise KeyError(f"run {run_id} does not exist")
            found.append(run)
        return found


def _auto(store: Store, library: SpecLibrary, run: AnyRun) -> tuple[Spec | None, str]:
    """The sheet chosen earlier for the run's device, else the one matching it; or why none."""
    spec, pick = spec_for(store, library, drive_environment(run))
    return spec, pick.note
