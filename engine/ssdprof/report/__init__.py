"""PDF reports of runs, sweeps and comparisons: matplotlib charts (vector) laid out with reportlab.

The PDF side loads on first use: the engine imports ``report.series`` and ``report.percentiles`` (the
charts' numbers, for the GUI) at start-up, and matplotlib and reportlab take most of a second to import."""

from typing import TYPE_CHECKING, Any

from ssdprof.report.groups import RunGroup

if TYPE_CHECKING:
    from ssdprof.report.pdf import ReportError, ReportRequest, build_pdf, report_charts

__all__ = ["ReportError", "ReportRequest", "RunGroup", "build_pdf", "report_charts"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ssdprof.report import pdf

        return getattr(pdf, name)
    raise AttributeError(f"module 'ssdprof.report' has no attribute {name!r}")
