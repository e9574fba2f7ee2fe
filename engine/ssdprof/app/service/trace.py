"""The session's trace method: ``trace.describe``, what a trace file holds, said before anything runs (the same
reading as ``ssdprof replay --describe``)."""

from __future__ import annotations

from ssdprof.app.contract.replay import TraceDescribeParams
from ssdprof.app.replay_planner import describe_trace
from ssdprof.app.service.registry import handles
from ssdprof.model.trace import TraceSummary

__all__ = ["Traces"]


class Traces:
    @handles("trace.describe")
    def describe(self, params: TraceDescribeParams) -> TraceSummary:
        return describe_trace(params.trace, params.format)
