"""Finding stored runs at any size, from the store's summaries: History's pages, 'select all matching'
(every id, no cap), the users and machines that stored runs, and runs split into groups by a tag or
a recorded fact, the grouping the Groups panel draws (one rule, here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ssdprof.analysis.groupings import (
    NO_SPLIT,
    comparable_split,
    key_name,
    keys_of,
    shared_settings,
    split,
)
from ssdprof.analysis.metrics import settings_kept
from ssdprof.analysis.repeats import setting_label
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.run_queries import (
    GroupingKey,
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
    SearchOffer,
)
from ssdprof.app.service.kept_answers import KeptAnswers
from ssdprof.app.service.registry import handles
from ssdprof.model.run_summary import RunSummary
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store

__all__ = ["RunQueries", "group_runs", "run_filter"]

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
    """The runs split by ``key`` ('tag interface', 'recorded drive', 'none'; '' or one these runs do not
    offer: the split whose groups measured the most settings in common, else none)."""
    keys = [NO_SPLIT, *keys_of(runs)]
    with settings_kept(runs):  # every split tried keys the same runs
        chosen, why = (key, "") if key in keys else comparable_split(runs)
        parts = split(runs, chosen)
        shared = shared_settings(list(parts.values()))
    groups = [RunGroupInfo(label=label, run_ids=[r.id for r in members if r.id is not None], shared_settings=common)
              for (label, members), common in zip(parts.items(), shared, strict=True)]
    return RunsGroupsResult(key=chosen, name=key_name(chosen), keys=[GroupingKey(key=k, name=key_name(k)) for k in keys],
                            groups=groups, why=why)


@dataclass
class RunQueries:
    store: Store
    kept: KeptAnswers = field(default_factory=KeptAnswers, init=False)

    @handles("runs.page")
    def page(self, params: RunsPageParams) -> RunsPageResult:
        found, total = self.store.page(run_filter(params.filter), params.offset, params.limit)
        return RunsPageResult(rows=[row(r) for r in found], total=total, offset=params.offset, limit=params.limit)

    @handles("runs.select")
    def select(self, params: RunsSelectParams) -> RunsSelectResult:
        where = run_filter(params.filter)
        ids = self.store.run_ids(where)
        understood, offers = self._read_search(params.filter.search)
        return RunsSelectResult(run_ids=ids, total=len(ids), tag_keys=self.store.tag_keys(where),
                                understood=understood, offers=offers)

    def _read_search(self, search: str) -> tuple[list[str], list[SearchOffer]]:
        """How a search's words were read (key=value: a tag; any other word: text in a target, device
        model, engine or source), and the tags a word that names one may have meant."""
        words = search.replace(",", " ").split()
        understood = [f"tag {w}" if "=" in w else f"“{w}” in a target, device model, engine or source" for w in words]
        offers = []
        for i, word in enumerate(words):
            if "=" in word:
                continue
            for key, value, runs in self.store.tag_counts(word):
                tag = f"{key}={value}"
                offers.append(SearchOffer(tag=tag, runs=runs, search=" ".join([*words[:i], tag, *words[i + 1:]])))
        return understood, offers

    @handles("runs.groups")
    def groups(self, params: RunsGroupsParams) -> RunsGroupsResult:
        if not params.run_ids:
            raise WorkloadError.single("run_ids", "RUN_ID", "name the runs to group")
        runs = self.store.summaries_of(params.run_ids)
        return self.kept.answer("runs.groups", params, runs, lambda: group_runs(runs, params.key))

    @handles("runs.people")
    def people(self, _: Params) -> PeopleResult:
        users, machines = self.store.people()
        return PeopleResult(users=users, machines=machines)
