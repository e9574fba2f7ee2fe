"""Finding stored runs at any size, from the store's summaries: History's pages, 'select all matching'
(every id, no cap), the users and machines that stored runs, and runs split into groups by a tag or
a recorded fact, the grouping the Groups panel draws (one rule, here)."""

from __future__ import annotations

from collections.abc import Callable

from ssdprof.analysis.repeats import setting_label
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.run_queries import (
    PeopleResult,
    RunGroupInfo,
    RunRow,
    RunsGroupsParams,
    RunsGroupsResult,
    RunsPageParams,
    RunsPageResult,
    RunsQuery,
    RunsSelectParams,
    RunsSelectResult,
)
from ssdprof.app.service.registry import handles
from ssdprof.model.run_summary import RunSummary
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store

__all__ = ["RECORDED", "RunQueries", "group_runs", "run_filter"]

RECORDED: dict[str, Callable[[RunSummary], str]] = {
    "recorded interface": lambda r: r.environment.interface or "not recorded",
    "recorded drive": lambda r: r.environment.device_model or "not recorded",
}
"""Facts every run records that runs can be grouped by, beside their tags."""


def run_filter(query: RunsQuery) -> RunFilter:
    return RunFilter(text=query.search or None, tags=tuple(t for t in query.tags if t.strip()), since=query.since or None,
                     sweep_id=query.sweep_id, measured_by=query.measured_by or None,
                     measured_on=query.measured_on or None, limit=None)


def row(run: RunSummary) -> RunRow:
    env = run.environment
    return RunRow(id=run.id or 0, sweep_id=run.sweep_id, repeat=run.repeat, started_at=run.started_at,
                  status=run.status, label=setting_label(run), target=run.workload.target,
                  device=" ".join(p for p in (env.device, env.device_model) if p), engine=run.engine.name,
                  iops=run.read.iops + run.write.iops, bw_bytes_per_s=run.read.bw_bytes_per_s + run.write.bw_bytes_per_s,
                  tags=run.tags, measured_by=run.measured_by, measured_on=run.measured_on, source=run.source)


def group_runs(runs: list[RunSummary], key: str) -> RunsGroupsResult:
    """The runs split by ``key`` ('tag interface', 'recorded drive'; '' or unknown: the first offered)."""
    keys = [*(f"tag {k}" for k in sorted({k for r in runs for k in r.tags})), *RECORDED]
    chosen = key if key in keys else keys[0]
    if chosen in RECORDED:
        value = RECORDED[chosen]
    else:
        tag = chosen.removeprefix("tag ")

        def value(r: RunSummary) -> str:
            return f"{tag}={r.tags[tag]}" if tag in r.tags else f"no {tag} tag"

    groups: dict[str, list[int]] = {}
    for run in runs:
        if run.id is not None:
            groups.setdefault(value(run), []).append(run.id)
    return RunsGroupsResult(key=chosen, name=chosen.removeprefix("tag "), keys=keys,
                            groups=[RunGroupInfo(label=label, run_ids=ids) for label, ids in sorted(groups.items())])


class RunQueries:
    def __init__(self, store: Store):
        self.store = store

    @handles("runs.page")
    def page(self, params: RunsPageParams) -> RunsPageResult:
        found, total = self.store.page(run_filter(params.filter), params.offset, params.limit)
        return RunsPageResult(rows=[row(r) for r in found], total=total, offset=params.offset, limit=params.limit)

    @handles("runs.select")
    def select(self, params: RunsSelectParams) -> RunsSelectResult:
        where = run_filter(params.filter)
        ids = self.store.run_ids(where)
        return RunsSelectResult(run_ids=ids, total=len(ids), tag_keys=self.store.tag_keys(where))

    @handles("runs.groups")
    def groups(self, params: RunsGroupsParams) -> RunsGroupsResult:
        if not params.run_ids:
            raise WorkloadError.single("run_ids", "RUN_ID", "name the runs to group")
        return group_runs(self.store.summaries_of(params.run_ids), params.key)

    @handles("runs.people")
    def people(self, _: Params) -> PeopleResult:
        users, machines = self.store.people()
        return PeopleResult(users=users, machines=machines)
