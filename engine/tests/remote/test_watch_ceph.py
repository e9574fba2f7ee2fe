"""A Ceph cluster's OSD hosts from its own map, on real `ceph osd tree -f json` output
(tests/data/ceph, captured from the test cluster), matched to known SSH hosts; and asked over SSH on
the real test cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ssdprof.remote.addresses import HostError, parse_host
from ssdprof.remote.ssh import Ssh, SshSettings
from ssdprof.remote.watch_ceph import OsdHost, ask_osd_hosts, match_known, osd_hosts

DATA = Path(__file__).parent.parent / "data" / "ceph"


def test_the_osd_hosts_and_their_osds_are_read_from_a_real_osd_tree() -> None:
    assert osd_hosts((DATA / "osd_tree_one_host.json").read_text()) == [
        OsdHost(name="vm", osds=("osd.0", "osd.1", "osd.2"), osds_up=3)
    ]


def test_text_that_is_no_osd_tree_is_refused_naming_what_it_was() -> None:
    for text in ("", "Error EACCES: access denied", '{"stray": []}'):
        with pytest.raises(ValueError, match="not the JSON of ceph osd tree"):
            osd_hosts(text)


def test_an_osd_host_matches_a_known_host_by_name_address_or_the_name_it_gave_itself() -> None:
    found = [
        *osd_hosts((DATA / "osd_tree_one_host.json").read_text()),
        OsdHost("osd2", (), 0),
        OsdHost("osd3.lab.example", (), 0),
        OsdHost("osd4", (), 0),
    ]
    known = {
        "ceph-a": ["ceph-a", "ceph-a", "vm"],
        "root@osd2:2222": ["root@osd2:2222", "osd2", ""],
        "osd3": ["osd3", "osd3", ""],
        "c1": ["c1", "10.0.0.4", "c1"],
    }
    assert match_known(found, known) == {
        "vm": "ceph-a",
        "osd2": "root@osd2:2222",
        "osd3.lab.example": "osd3",
        "osd4": "",
    }


def test_the_osd_hosts_are_asked_over_ssh_on_a_real_ceph_cluster(
    ceph_cluster: Any, ssh_hosts: Any
) -> None:
    """Where the RBD target is reached: h1, with the cluster's ceph.conf. All OSDs of the test
    cluster sit in one namespace that shares the machine's hostname, which is none of the SSH hosts.
    """
    ssh = Ssh(SshSettings(config=ssh_hosts.ssh_config_path))
    found = ask_osd_hosts(ssh, parse_host("h1"), str(ceph_cluster.conf_path))
    assert [(h.osds, h.osds_up) for h in found] == [(("osd.0", "osd.1", "osd.2"), 3)]
    assert match_known(found, {"h1": ["h1", "h1", "h1"], "h2": ["h2", "h2", "h2"]}) == {
        found[0].name: ""
    }
    with pytest.raises(HostError, match="h1: ceph osd tree failed"):
        ask_osd_hosts(ssh, parse_host("h1"), "/nonexistent/ceph.conf")
