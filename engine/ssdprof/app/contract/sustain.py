"""The sustained-write tests' part of the contract: estimate, start (events follow as ``sustain.event``),
resume, cancel, status, list, get and report, with their params and results."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ssdprof.app.contract.base import Params, Result
from ssdprof.app.contract.kind import JobFace
from ssdprof.app.contract.runs import DeviceEffect
from ssdprof.app.contract.specs import ReportResult
from ssdprof.app.sustain_planner import SustainRequest
from ssdprof.model.sustain import SustainWear
from ssdprof.model.sustain_events import (
    SustainFinished,
    SustainIdle,
    SustainSampled,
    SustainStarted,
    SustainStepDone,
    SustainStepStarted,
)
from ssdprof.model.sustain_results import SustainInfo, SustainParameters, SustainResult

__all__ = ["FACE", "TOPIC", "SustainEstimate", "SustainIdParams", "SustainListResult", "SustainReportParams",
           "SustainResumeParams", "SustainWhere"]


class SustainEstimate(DeviceEffect):
    """What the test will write and for how long, said before it starts (a device's fill is its capacity)."""

    name: str
    label: str = Field(description="e.g. 'write 1MiB QD8, 64GiB to /dev/nvme0n1'")
    parameters: SustainParameters
    write_bytes: int = Field(description="the fill")
    recovery_bytes_each: int = Field(description="each recovery write (an estimate when it follows the cache found)")
    recovery_bytes_auto: bool = Field(description="true: 1.5x the cache found, known only after the fill")
    total_bytes: int = Field(description="the fill and every recovery write")
    idle_total_s: float
    estimated_s: float = Field(description="writes at the assumed speed plus every idle interval")
    assumed_bw_bytes_per_s: float = Field(description="the speed the estimate assumes (the real one is shown live)")
    free_bytes: int | None = Field(default=None, description="a file target: the filesystem's free space")
    wear: SustainWear
    notes: list[str] = Field(default_factory=list)
    fill_words: str = Field(default="", description="what the amount to write means, said beside Start: a blank one "
                                                     "fills the region once, its size and the bytes written in all")
    too_short: str = Field(default="", description="set when the fill may be over too soon to judge (its cliff is found "
                                                    "from at least 10 s of writes): why, and how much would do")


class SustainResumeParams(Params):
    sustain_id: int | None = Field(default=None, description="default: the last unfinished sustained-write test")


class SustainIdParams(Params):
    sustain_id: int = Field(ge=1)


class SustainReportParams(SustainIdParams):
    title: str | None = Field(default=None, max_length=200)


class SustainWhere(Result):
    """Where a running sustained-write test is: the fields its status adds."""

    step: str = Field(default="", description="fill, idle or recovery")
    recovery_step: int = 0


class SustainListResult(Result):
    tests: list[SustainInfo] = Field(description="newest first")


SustainEventUnion = Annotated[
    SustainStarted | SustainStepStarted | SustainSampled | SustainIdle | SustainStepDone | SustainFinished,
    Field(discriminator="kind"),
]


FACE = JobFace.made("sustain", "sustained-write test", SustainEventUnion, where=SustainWhere, title="Sustain", doc=(
    "``sustain.event``: one event of the running sustained-write test, in order: started, the fill's\n"
    "start and each second, its end, then per recovery step idle time, its start, seconds and end; the end."))
"""SustainStatus, SustainCancelResult and SustainEventNotification, and its place in the job layer."""

TOPIC = FACE.topic(
    listed=SustainListResult, plural="sustained-write tests", kept="writes",
    estimate=(SustainRequest, SustainEstimate,
              "a sustained-write test's bytes, time and wear against the drive's rating; runs nothing"),
    start=(SustainRequest, SustainStarted,
           "start a sustained-write test: the fill, then idle and recovery writes; events as sustain.event"),
    resume=(SustainResumeParams, SustainStarted,
            "continue an interrupted test: the recovery writes not yet done (a cut fill is re-run)"),
    get=(SustainIdParams, SustainResult,
         "a test: per-second and per-GiB series, phases, the cliff verdict, throttling, recovery rows"),
    report=(SustainReportParams, ReportResult,
            "a test's PDF page (base64): the verdict, the fill with its phases, the recovery table"))
