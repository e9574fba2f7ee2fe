"""PDF reports of runs, sweeps and comparisons: matplotlib charts (vector) laid out with reportlab."""

from ssdprof.report.groups import RunGroup
from ssdprof.report.pdf import ReportError, ReportRequest, build_pdf, report_charts

__all__ = ["ReportError", "ReportRequest", "RunGroup", "build_pdf", "report_charts"]
