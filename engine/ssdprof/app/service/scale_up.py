"""The session's scale-up sizing: an all-flash array's architectures predicted from a small profile
(``analysis.scale_up``), and the same as a PDF page (``analysis.scale_up_report``).

Thin: the model is ``ssdprof.analysis.scale_up*`` (shared with ``ssdprof predict --scale-up``);
scipy, matplotlib and reportlab load on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdprof.analysis.scale_up_inputs import ScaleUpDesign
from ssdprof.analysis.scale_up_space import ScaleUpResult
from ssdprof.app.contract.analysis import ScaleUpParams
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.service.registry import handles
from ssdprof.model.results import RunResult

__all__ = ["ScaleUp"]


@dataclass
class ScaleUp:
    """``runs`` resolves run ids (raising KeyError for a missing one)."""

    runs: Callable[[Sequence[int]], list[RunResult]]

    @handles("analysis.scale_up")
    def size(self, params: ScaleUpParams) -> ScaleUpResult:
        from ssdprof.analysis.scale_up_runs import size_array

        design = ScaleUpDesign.model_validate(
            params.model_dump(include=set(ScaleUpDesign.model_fields))
        )
        runs = self.runs(params.run_ids) if params.run_ids else []
        return size_array(design, runs, params.points, params.metric)

    @handles("analysis.scale_up_report")
    def report(self, params: ScaleUpParams) -> ReportResult:
        from ssdprof.report.scale_up import build_scale_up_pdf

        result = self.size(params)
        pdf = build_scale_up_pdf(result, title=params.title)
        return ReportResult.of(pdf, f"ssdprof-scale-up-{result.target_ssds}-ssds.pdf", len(result.profile.run_ids))
