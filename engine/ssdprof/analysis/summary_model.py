"""The student's summary as values: the one-glance table, the factor findings, the best figures
against the spec sheet and the caveats (computed in :mod:`ssdprof.analysis.summary`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ssdprof.analysis.spec_choice import SpecPick
from ssdprof.analysis.spec_comparison import SpecComparison
from ssdprof.model.value import Value

__all__ = ["TABLE_NOTE", "BestFigure", "Caveat", "CaveatCode", "Factor", "FactorFinding",
           "GlanceCell", "GlanceRow", "SettingFigures", "SpecVerdict", "StudentSummary"]

TABLE_NOTE = ("MB/s is 10^6 bytes/s; latency is the mean total latency (submission to completion); "
              "a blank cell was not measured; repeats are averaged, separate measurements are not (a cell "
              "measured by several separate runs shows one, and all of them beside it)")


class SettingFigures(Value):
    """Every run of one setting, separate measurements too, as mean ± half the 95 % CI (Student's t)."""

    sentence: str = Field(description="which run the cell shows, and what all the setting's runs give, in words")
    n: int = Field(description="runs of the setting")
    iops: float
    iops_half_width: float
    bw_bytes_per_s: float
    bw_half_width: float
    lat_ns_mean: float | None
    lat_half_width: float | None


class GlanceCell(Value):
    """One direction of one row: the mean of one setting's repeats, never of separate runs."""

    iops: float
    bw_bytes_per_s: float
    lat_ns_mean: float | None = Field(description="mean total latency, submission to completion")
    n: int = Field(description="runs averaged: repeats of this setting")
    run_ids: list[int]
    setting: str = Field(description="the workload measured, e.g. 'randread 4KiB QD1 T1'")
    separate_run_ids: list[int] = Field(description="other runs that measured this cell "
                                                    "separately; not averaged in")
    all_runs: SettingFigures | None = Field(
        default=None, description="where other runs measured the same setting separately: all its runs "
        "as mean ± 95 % CI, the figure pooling them gives (shown beside the one measurement, never "
        "instead of it)")


class GlanceRow(Value):
    label: str = Field(description="CrystalDiskMark's way: 'SEQ 1MiB QD8 T1', 'RND 4KiB QD1 T1'")
    random: bool
    block_size_bytes: int
    queue_depth: int
    numjobs: int
    read: GlanceCell | None = Field(description="null: not measured (never a zero)")
    write: GlanceCell | None = Field(description="null: not measured (never a zero)")


Factor = Literal["access_size", "read_pct", "queue_depth"]


class FactorFinding(Value):
    """How one factor moved the figures from its first to its last value, the rest held fixed."""

    factor: Factor
    held: str = Field(description="what stayed fixed, e.g. 'randread QD1 T1'")
    x_from: float = Field(description="bytes, % reads or queue depth")
    x_to: float
    iops_from: float
    iops_to: float
    bw_bytes_per_s_from: float
    bw_bytes_per_s_to: float
    lat_ns_mean_from: float | None
    lat_ns_mean_to: float | None
    run_ids: list[int] = Field(description="the runs of each point, in the order of the factor")
    sentence: str


class BestFigure(Value):
    quantity: Literal["iops", "bandwidth", "latency"]
    value: float = Field(description="IOPS, bytes/s or ns (mean total latency)")
    setting: str
    run_ids: list[int]
    sentence: str


class SpecVerdict(Value):
    pick: SpecPick
    comparison: SpecComparison | None = Field(description="the fair comparison with the best "
                                                          "% of spec, if any")
    run_ids: list[int] = Field(description="the runs of that comparison")
    fair: int = Field(description="comparisons that were fair (measured as the figure was rated)")
    sentence: str


CaveatCode = Literal["cache_suspected", "measurement_limit", "capped_outside", "short_runs", "one_repeat",
                     "separate_measurements", "device_unknown", "offered_rate", "other_tool", "not_measured"]


class Caveat(Value):
    code: CaveatCode
    message: str
    run_ids: list[int]


class StudentSummary(Value):
    runs: int = Field(description="runs summarised (finished, measured at full speed)")
    device: str
    table: list[GlanceRow]
    table_note: str
    factors: list[FactorFinding]
    best: list[BestFigure]
    spec: SpecVerdict
    caveats: list[Caveat]
