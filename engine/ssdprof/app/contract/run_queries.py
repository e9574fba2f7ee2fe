"""The RPC's params and results for finding stored runs at any size: pages of History, every matching
run's id in one call, and runs split into groups by a tag or a recorded fact (the engine's rule)."""

from __future__ import annotations

from pydantic import Field

from ssdprof.app.contract.base import Params, Result
from ssdprof.model.status import RunStatus

__all__ = ["MAX_RUN_IDS", "GroupingKey", "PeopleResult", "RunGroupInfo", "RunRow", "RunsGroupsParams", "RunsGroupsResult",
           "RunsPageParams", "RunsPageResult", "RunsQuery", "RunsSelectParams", "RunsSelectResult",
           "SearchOffer"]

MAX_RUN_IDS = 100_000
"""The most run ids one call names: a whole study (8,640 runs) many times over."""


class RunsQuery(Params):
    """Which stored runs: every condition given must hold."""

    search: str = Field(default="", max_length=500, description=(
        "words: key=value ones are tags (each must match), the others are matched against target, device "
        "model, engine and source, e.g. 'interface=SATA nodes=3 nvme'"))
    tags: list[str] = Field(default_factory=list, max_length=20, description="key=value, or a bare value matching any tag")
    since: str | None = Field(default=None, description="ISO date or time")
    sweep_id: int | None = None
    measured_by: str | None = Field(default=None, max_length=200, description="runs stored by this user")
    measured_on: str | None = Field(default=None, max_length=200, description="runs stored from this machine")


class RunsPageParams(Params):
    filter: RunsQuery = Field(default_factory=RunsQuery)
    offset: int = Field(default=0, ge=0, description="how many of the newest matching runs to skip")
    limit: int = Field(default=100, ge=1, le=500, description="runs on the page")


class RunRow(Result):
    """A stored run as History lists it."""

    id: int
    sweep_id: int | None
    repeat: int
    started_at: str
    status: RunStatus
    label: str = Field(description="the setting, e.g. 'randread 4KiB QD1 T1 on 8 hosts nodes=3'")
    target: str
    device: str = Field(description="the block device and drive model, as far as recorded")
    engine: str
    iops: float = Field(description="reads and writes added")
    bw_bytes_per_s: float
    tags: dict[str, str]
    measured_by: str = Field(description="the user who stored it ('' for runs stored before ssdprof kept it)")
    measured_on: str = Field(description="the machine it was stored from")
    source: str


class RunsPageResult(Result):
    rows: list[RunRow] = Field(description="newest first")
    total: int = Field(description="how many runs match in all")
    offset: int
    limit: int


class RunsSelectParams(Params):
    filter: RunsQuery = Field(default_factory=RunsQuery)


class SearchOffer(Result):
    """A tag offered for a word of a search that names one (a key, or a value), as the search to use."""

    tag: str = Field(description="key=value, e.g. 'interface=SATA'")
    runs: int = Field(description="how many stored runs carry it")
    search: str = Field(description="the search with the word replaced by the tag")


class RunsSelectResult(Result):
    run_ids: list[int] = Field(description="every matching run, oldest first: no limit")
    total: int
    tag_keys: list[str] = Field(description="the tag keys these runs carry, sorted")
    understood: list[str] = Field(default_factory=list, description=(
        "how the search was read, a part each: 'tag study=ceph', '“interface” in a target, device model, engine or source'"))
    offers: list[SearchOffer] = Field(default_factory=list, description=(
        "for each word of the search that is a tag's key or value: the tags it may have meant"))


class RunsGroupsParams(Params):
    run_ids: list[int] = Field(max_length=MAX_RUN_IDS)
    key: str = Field(default="", max_length=210, description=(
        "'tag KEY' (e.g. 'tag interface'), 'recorded interface', 'recorded drive' or 'none' (every run in one group); "
        "'' for the engine's choice: the split whose groups measured the most settings in common, else none"))


class GroupingKey(Result):
    key: str = Field(description="as runs.groups takes it: 'tag interface', 'recorded drive', 'none'")
    name: str = Field(description="in words: 'interface', 'recorded drive', 'no split'")


class RunGroupInfo(Result):
    label: str = Field(description="the group's value: 'SATA', '3', 'no interface tag', 'NVMe', 'all runs'")
    run_ids: list[int]
    shared_settings: int = Field(description=(
        "settings this group measured that the first group measured too (the first group: its own settings), "
        "by the rule Welch's comparison of groups uses"))


class RunsGroupsResult(Result):
    key: str = Field(description="the key the runs were split by (the one asked for, else the engine's choice)")
    name: str = Field(description="the key in words, for titles: 'interface', 'recorded drive', 'no split'")
    keys: list[GroupingKey] = Field(description="every key the runs can be split by: none, their tags, then recorded facts")
    groups: list[RunGroupInfo] = Field(description="in the order of their values (numbers in order)")
    why: str = Field(default="", description="why the engine chose this key, when it chose")


class PeopleResult(Result):
    users: list[str] = Field(description="every user who stored runs here")
    machines: list[str] = Field(description="every machine runs were stored from")
