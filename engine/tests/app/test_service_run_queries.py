"""Finding runs at any size over the RPC: History's pages, select-all-matching, the users and machines
that stored runs, and runs grouped by a tag the way the Groups panel draws them; and the analysis
methods taking every matching run, with no cap below a whole study."""

from __future__ import annotations

from analysis_runs import make_run
from rpc_client import Client

from ssdprof.app.contract.run_queries import MAX_RUN_IDS
from ssdprof.app.contract.specs import RunsCompareParams
from ssdprof.model.sweep import SweepSpec


def store_study(client: Client, per_group: int = 3) -> list[int]:
    """Runs of two interfaces at two access sizes, repeated: a little study in one sweep."""
    store = client.service.store
    settings = [(interface, bs) for interface in ("SATA", "PCIe") for bs in (4096, 65536)]
    runs = [make_run(bs=bs, iops=(2000 if interface == "PCIe" else 1000) + 10 * r, lat_ns=50_000.0,
                     tags={"study": "ceph", "interface": interface}, hosts=8)
            for interface, bs in settings for r in range(per_group)]
    sweep = store.create_sweep(SweepSpec(name="study", points=[runs[0].workload]))
    return [store.add_run(run.model_copy(update={"sweep_id": sweep, "repeat": i % per_group}),
                          point_index=i // per_group).id or 0 for i, run in enumerate(runs)]


def test_history_pages_newest_first_and_says_how_many_match(client: Client) -> None:
    ids = store_study(client)
    first = client.call("runs.page", {"filter": {}, "offset": 0, "limit": 5})
    assert [r["id"] for r in first["rows"]] == ids[::-1][:5] and first["total"] == len(ids)
    second = client.call("runs.page", {"filter": {}, "offset": 5, "limit": 5})
    assert [r["id"] for r in second["rows"]] == ids[::-1][5:10]
    row = first["rows"][0]
    assert row["label"].endswith("on 8 hosts") and row["tags"]["interface"] == "PCIe" and row["iops"] > 0
    assert row["measured_by"] is not None and row["measured_on"]


def test_a_search_takes_tags_and_words_together(client: Client) -> None:
    store_study(client)
    page = client.call("runs.page", {"filter": {"search": "interface=SATA study=ceph fio"}})
    assert page["total"] == 6 and all(r["tags"]["interface"] == "SATA" for r in page["rows"])
    assert client.call("runs.page", {"filter": {"search": "interface=SATA nvme-nowhere"}})["total"] == 0


def test_select_all_matching_returns_every_id_and_the_tag_keys(client: Client) -> None:
    ids = store_study(client, per_group=30)
    found = client.call("runs.select", {"filter": {"tags": ["study=ceph"]}})
    assert found["run_ids"] == ids and found["total"] == 120 and found["tag_keys"] == ["interface", "study"]


def test_a_search_says_how_it_was_read_and_offers_the_tags_a_bare_word_names(client: Client) -> None:
    store_study(client)
    found = client.call("runs.select", {"filter": {"search": "study=ceph interface"}})
    assert found["total"] == 0  # 'interface' is looked for as text: no target or device holds it
    assert found["understood"] == ["tag study=ceph", "“interface” in a target, device model, engine or source"]
    assert found["offers"] == [{"tag": "interface=PCIe", "runs": 6, "search": "study=ceph interface=PCIe"},
                               {"tag": "interface=SATA", "runs": 6, "search": "study=ceph interface=SATA"}]
    by_value = client.call("runs.select", {"filter": {"search": "SATA"}})
    assert [o["search"] for o in by_value["offers"]] == ["interface=SATA"]


def test_history_filters_by_user_and_machine(client: Client) -> None:
    store = client.service.store
    store.add_run(make_run().model_copy(update={"measured_by": "ana", "measured_on": "lab-1"}))
    store.add_run(make_run().model_copy(update={"measured_by": "ben", "measured_on": "lab-2"}))
    assert client.call("runs.people", {}) == {"users": ["ana", "ben"], "machines": ["lab-1", "lab-2"]}
    page = client.call("runs.page", {"filter": {"measured_by": "ben"}})
    assert [r["measured_on"] for r in page["rows"]] == ["lab-2"]


def test_groups_by_a_tag_are_named_by_its_values_and_count_the_settings_shared(client: Client) -> None:
    ids = store_study(client)
    found = client.call("runs.groups", {"run_ids": ids, "key": "tag interface"})
    assert found["key"] == "tag interface" and found["name"] == "interface" and found["why"] == ""
    assert [(g["label"], g["shared_settings"]) for g in found["groups"]] == [("PCIe", 2), ("SATA", 2)]
    assert [(k["key"], k["name"]) for k in found["keys"]] == [
        ("none", "no split"), ("tag interface", "interface"), ("tag study", "study"),
        ("recorded interface", "recorded interface"), ("recorded drive", "recorded drive")]


def test_without_a_key_the_engine_splits_by_the_tag_whose_groups_measured_the_same_settings(client: Client) -> None:
    store = client.service.store
    runs = [make_run(bs=bs, iops=1000.0 + bs / 1024, tags={"chunk": str(bs), "interface": interface})
            for bs in (4096, 65536) for interface in ("SATA", "PCIe") for _ in range(2)]
    ids = [store.add_run(run).id or 0 for run in runs]
    found = client.call("runs.groups", {"run_ids": ids, "key": ""})
    # chunk's groups each measured their own access size: nothing side by side; interface's share both
    assert found["key"] == "tag interface"
    assert found["why"] == "interface splits these runs into 2 groups that measured 2 setting(s) in common"
    by_chunk = client.call("runs.groups", {"run_ids": ids, "key": "tag chunk"})
    assert [(g["label"], g["shared_settings"]) for g in by_chunk["groups"]] == [("4096", 1), ("65536", 0)]
    unknown = client.call("runs.groups", {"run_ids": ids, "key": "tag nodes"})
    assert unknown["key"] == "tag interface"  # a key these runs do not offer: the engine's choice


def test_runs_no_tag_splits_comparably_are_one_group(client: Client) -> None:
    store = client.service.store
    ids = [store.add_run(make_run(bs=bs, tags={"chunk": str(bs)})).id or 0 for bs in (4096, 65536)]
    found = client.call("runs.groups", {"run_ids": ids, "key": ""})
    assert found["key"] == "none" and found["name"] == "no split"
    assert found["why"] == "no tag splits these runs into groups that measured the same settings"
    assert [(g["label"], g["run_ids"]) for g in found["groups"]] == [("all runs", ids)]


def test_groups_compare_by_welch_over_all_their_runs_naming_both(client: Client) -> None:
    ids = store_study(client, per_group=100)
    groups = client.call("runs.groups", {"run_ids": ids, "key": "tag interface"})["groups"]
    pcie, sata = (g["run_ids"] for g in groups)
    verdict = client.call("runs.compare", {"a": sata, "b": pcie, "metric": "iops", "a_label": "SATA", "b_label": "PCIe"})
    assert [c["a"]["n"] for c in verdict["comparisons"]] == [100, 100] and verdict["comparisons"][0]["significant"]
    assert verdict["comparisons"][0]["verdict"].startswith("PCIe is ") and " higher than SATA " in verdict["comparisons"][0]["verdict"]
    assert verdict["summary"].startswith("PCIe against SATA at 2 setting(s): PCIe higher at 2, lower at 0; "
                                         "significantly different at 2 (Welch's t-test at 95 %); median difference +")
    bars = client.call("runs.bars", {"groups": [{"label": g["label"], "run_ids": g["run_ids"]} for g in groups]})
    assert [s["label"] for s in bars["series"]] == ["PCIe", "SATA"]


def test_a_group_of_a_whole_studys_size_is_valid_params() -> None:
    half = list(range(1, 4321))  # the study's runs of one interface: the old cap (2000) answered "invalid params"
    assert len(RunsCompareParams.model_validate({"a": half, "b": half}).a) == 4320


def test_the_analysis_methods_take_a_whole_study_of_ids(client: Client) -> None:
    ids = store_study(client, per_group=3)
    too_many = client.request("analysis.correlation", {"run_ids": list(range(1, MAX_RUN_IDS + 2))})
    assert too_many["error"]["data"]["problems"][0]["field"] == "run_ids"
    assert MAX_RUN_IDS >= 8640 * 10
    found = client.call("analysis.correlation", {"run_ids": ids})
    assert found["groups"][0]["runs"] == len(ids)


def test_opening_a_selection_lists_exactly_those_runs_light(client: Client) -> None:
    ids = store_study(client)
    listed = client.call("runs.list", {"run_ids": [ids[2], ids[0]]})
    assert [r["id"] for r in listed["runs"]] == [ids[0], ids[2]] and listed["total"] == 2
    assert listed["runs"][0]["progress"] == [] and listed["runs"][0]["read"]["lat_bins_ns"] == {}
