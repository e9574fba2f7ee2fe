"""Answers worked out from runs' summaries are kept while those summaries stand: the same question of
the same runs is worked out once, and a run changed since (a tag set) is read and worked out anew."""

from __future__ import annotations

from pydantic import BaseModel
from rpc_client import Client
from test_service_run_queries import store_study

from ssdprof.app.service.kept_answers import KeptAnswers
from ssdprof.model.run_summary import RunSummary
from ssdprof.store.db import RunFilter


class Answer(BaseModel):
    count: int


class Asked(BaseModel):
    run_ids: list[int]


def test_the_same_question_of_the_same_summaries_is_worked_out_once(client: Client) -> None:
    ids = store_study(client)
    store, kept, worked = client.service.store, KeptAnswers(), []

    def ask(runs: list[RunSummary]) -> Answer:
        return kept.answer("runs.test", Asked(run_ids=ids), runs, lambda: worked.append(1) or Answer(count=len(worked)))

    first = ask(store.summaries_of(ids))
    assert ask(store.summaries_of(ids)) is first and len(worked) == 1
    store.set_tags(ids[0], {"interface": "NVMe"})
    assert ask(store.summaries_of(ids)).count == 2, "a run changed: its summary is read again, the answer worked out again"
    assert kept.answer("runs.test", Asked(run_ids=ids[1:]), store.summaries_of(ids[1:]), lambda: Answer(count=9)).count == 9


def test_the_oldest_answers_go_first_past_the_most_kept(client: Client) -> None:
    ids = store_study(client)
    runs = client.service.store.summaries(RunFilter(limit=None))
    kept = KeptAnswers(most=2)
    for n in range(3):
        kept.answer("runs.test", Asked(run_ids=[n]), runs, lambda n=n: Answer(count=n))  # type: ignore[misc]
    assert kept.answer("runs.test", Asked(run_ids=[0]), runs, lambda: Answer(count=7)).count == 7
    assert kept.answer("runs.test", Asked(run_ids=[2]), runs, lambda: Answer(count=8)).count == 2
    assert len(ids) == 12


def test_groups_asked_again_follow_a_tag_changed_between(client: Client) -> None:
    ids = store_study(client)
    first = client.call("runs.groups", {"run_ids": ids, "key": "tag interface"})
    assert client.call("runs.groups", {"run_ids": ids, "key": "tag interface"}) == first
    client.call("runs.tag", {"run_id": ids[0], "tags": {"interface": "NVMe"}})
    again = client.call("runs.groups", {"run_ids": ids, "key": "tag interface"})
    assert [g["label"] for g in again["groups"]] == ["NVMe", "PCIe", "SATA"]
