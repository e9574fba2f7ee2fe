"""The student's summary of a sweep: what to write in the report, computed once for the app, the
CLI and the PDF.

Four parts: a one-glance table of the key figures in CrystalDiskMark's terms (sequential and
random, QD1 and deep, read and write, in MB/s, IOPS and mean total latency); for each factor the
sweep varied (access size, read/write mix, queue depth) a sentence built from the measured figures;
the best figures and the best one against the spec sheet, where that comparison is fair; and what
the figures cannot tell. Only real repeats are averaged (``repeats.pools``); runs at an offered
rate (a load curve's points) measure a set load, not the drive's best, and are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from ssdprof.analysis.repeats import pools
from ssdprof.analysis.spec_choice import SpecPick
from ssdprof.analysis.specs import Spec
from ssdprof.analysis.summary_caveats import caveats
from ssdprof.analysis.summary_factors import factor_findings
from ssdprof.analysis.summary_figures import measured_runs
from ssdprof.analysis.summary_model import TABLE_NOTE, StudentSummary
from ssdprof.analysis.summary_notes import best_figures, spec_verdict
from ssdprof.analysis.summary_table import glance_table
from ssdprof.model.results import RunResult

__all__ = ["StudentSummary", "summarize"]


def summarize(runs: Sequence[RunResult], spec: Spec | None, pick: SpecPick,
              pool_same_setting: bool = False) -> StudentSummary:
    """The summary of ``runs`` (a sweep's, or any) against ``spec``, as ``pick`` chose it; runs of
    one setting are pooled beyond a sweep's repeats only on request (``pool_same_setting``)."""
    groups = [pool.runs for pool in pools(measured_runs(runs), pool_same_setting)]
    table = glance_table(groups)
    return StudentSummary(runs=sum(len(g) for g in groups), device=pick.device,
                          table=table, table_note=TABLE_NOTE,
                          factors=factor_findings(groups, table), best=best_figures(groups),
                          spec=spec_verdict(groups, spec, pick),
                          caveats=caveats(runs, groups, pick))
