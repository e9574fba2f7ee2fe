"""Runs split by a tag or a recorded fact: groups named by their values in natural order, the split
the Groups panel opens with, and the splits whose groups differ at one setting."""

from __future__ import annotations

import pytest
from analysis_runs import make_run

from ssdprof.analysis.groupings import (
    NO_SPLIT,
    comparable_split,
    differing_splits,
    group_label,
    shared_settings,
    split,
)
from ssdprof.analysis.stats import compare_groups


def test_groups_are_named_by_their_values_numbers_in_order_and_runs_without_the_tag_said() -> None:
    runs = [make_run(tags={"nodes": n}) for n in ("10", "2", "3")] + [make_run()]
    assert list(split(runs, "tag nodes")) == ["2", "3", "10", "no nodes tag"]
    assert list(split(runs, NO_SPLIT)) == ["all runs"]
    assert list(split([make_run(interface="NVMe")], "recorded interface")) == ["NVMe"]


def test_a_series_label_names_its_group() -> None:
    assert group_label("tag interface")(make_run(tags={"interface": "SATA"})) == " interface=SATA"
    assert group_label("tag interface")(make_run()) == " (no interface tag)"
    assert group_label("recorded drive")(make_run(device_model="X1")) == " (recorded drive: X1)"
    assert group_label("")(make_run()) == ""


def test_the_split_that_puts_the_same_settings_side_by_side_is_chosen_over_one_that_does_not() -> None:
    runs = [make_run(bs=bs, tags={"chunk": str(bs), "interface": i, "nodes": n})
            for bs in (4096, 65536) for i in ("SATA", "PCIe") for n in ("2", "3")]
    key, why = comparable_split(runs)
    # interface: both groups span both node counts, so 4 settings (size x nodes) are compared like with like;
    # nodes: 2 (the node count tells the groups apart); chunk: none
    assert (key, why) == ("tag interface", "interface splits these runs into 2 groups that measured 4 setting(s) in common")
    assert shared_settings(list(split(runs, "tag nodes").values())) == [2, 2]
    assert shared_settings(list(split(runs, "tag chunk").values())) == [2, 0]  # each size at 2 and 3 nodes
    assert comparable_split([make_run(tags={"chunk": "4096"}), make_run(bs=8192, tags={"chunk": "8192"})])[0] == NO_SPLIT


def test_groups_spanning_the_same_node_counts_are_compared_at_each_node_count() -> None:
    def runs(interface: str, iops: float) -> list:
        return [make_run(iops=iops * n * f, tags={"interface": interface, "nodes": str(n)})
                for n in (2, 5) for f in (0.99, 1.0, 1.01)]

    found = compare_groups(runs("SATA", 1000), runs("PCIe", 1100), "iops", labels=("SATA", "PCIe"))
    assert [c.setting for c in found] == ["randread 4KiB QD1 T1 nodes=2", "randread 4KiB QD1 T1 nodes=5"]
    assert all(c.result.verdict.startswith("PCIe is 10.0 % higher than SATA") for c in found)
    # split by node count, the node count tells the groups apart: one setting compared across it
    two = [r for r in runs("SATA", 1000) if r.tags["nodes"] == "2"]
    five = [r for r in runs("SATA", 1000) if r.tags["nodes"] == "5"]
    assert [c.setting for c in compare_groups(two, five, "iops")] == ["randread 4KiB QD1 T1"]


def test_a_tag_whose_groups_differ_at_one_setting_is_said_and_one_that_splits_settings_apart_is_not() -> None:
    runs = [make_run(bs=bs, iops=(3000 if i == "PCIe" else 1000) * f, interface=i,
                     tags={"interface": i, "chunk": str(bs), "operator": o})
            for bs in (4096, 65536) for i in ("SATA", "PCIe") for o in ("ana", "ben") for f in (0.98, 1.0, 1.02)]
    found = differing_splits(runs, "iops")
    # chunk never splits one setting; the operator's groups measured alike; the recorded interface splits as the tag does
    assert [(s.key, s.groups, s.settings, s.differing) for s in found] == [("tag interface", ("PCIe", "SATA"), 2, 2)]
    assert found[0].sentence == ("interface splits these runs into groups that differ: SATA against PCIe differs at 2 of "
                                 "the 2 settings both measured (Welch's t-test at 95 %); typically SATA is 67 % lower than "
                                 "PCIe. Fitted together they mix two populations.")


def test_tags_ssdprof_writes_that_restate_a_setting_are_no_split_and_a_split_is_named_by_its_tag_alone() -> None:
    from ssdprof.analysis.groupings import keys_of, split_key
    from ssdprof.model.problems import WorkloadError

    runs = [make_run(tags={"curve_pct": "50", "offered_iops": "1000", "pts_round": "2", "pts_bs": "4096",
                           "pts_mix": "100/0", "interface": "SATA"})]
    assert keys_of(runs) == ["tag interface", "recorded interface", "recorded drive"]
    assert [split_key(runs, k) for k in ("", "tag interface", "drive", "recorded interface")] == [
        "", "tag interface", "recorded drive", "recorded interface"]
    with pytest.raises(WorkloadError, match="'interface' names more than one split of these runs: 'tag interface' or "
                                            "'recorded interface'"):
        split_key(runs, "interface")
    with pytest.raises(WorkloadError, match="cannot be split by 'pts_round'; they offer 'tag interface'"):
        split_key(runs, "pts_round")
