"""hosts.* over the RPC against real SSH test hosts (engine/tests/infra): a key is accepted only by fingerprint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from infra.netns_hosts import TestHosts
from pydantic import BaseModel
from test_service_analysis import Rpc

from ssdprof.app.rpc import EngineService
from ssdprof.remote.ssh import SshSettings


@pytest.fixture
def rpc(tmp_path: Path, ssh_hosts: TestHosts) -> Iterator[Rpc]:
    def ignore(method: str, payload: BaseModel) -> None:
        pass

    known = ssh_hosts.known_hosts_path.read_text()
    ssh_hosts.known_hosts_path.write_text("")  # the hosts start unknown, as a new lab machine would
    service = EngineService(tmp_path / "results.sqlite3", ignore, default_dir=tmp_path,
                            ssh=SshSettings(config=ssh_hosts.ssh_config_path, known_hosts=tmp_path / "known_hosts"))
    try:
        yield Rpc(service)
    finally:
        service.close()
        ssh_hosts.known_hosts_path.write_text(known)  # the session's hosts are shared with later tests


def test_hosts_add_offers_the_fingerprint_and_adds_nothing_until_it_is_accepted(rpc: Rpc, tmp_path: Path) -> None:
    first = rpc.call("hosts.add", {"host": "h1"})
    assert first["added"] is False
    [offered] = [k for k in first["offered"] if k["key_type"] == "ED25519"]
    assert offered["fingerprint"].startswith("SHA256:")
    assert rpc.call("hosts.list")["hosts"] == []
    assert not (tmp_path / "known_hosts").exists()

    second = rpc.call("hosts.add", {"host": "h1", "accept_fingerprint": offered["fingerprint"]})
    assert second["added"] is True
    assert second["probe"]["fio_version"].startswith("fio-")
    [listed] = rpc.call("hosts.list")["hosts"]
    assert (listed["name"], listed["fingerprint"]) == ("h1", offered["fingerprint"])


def test_hosts_add_refuses_a_fingerprint_the_host_does_not_offer(rpc: Rpc) -> None:
    result = rpc.call("hosts.add", {"host": "h2", "accept_fingerprint": "SHA256:" + "A" * 43})
    assert result["added"] is False
    assert "nothing was accepted" in result["message"]
    assert rpc.call("hosts.list")["hosts"] == []


def test_hosts_test_reports_cpus_fio_and_nics(rpc: Rpc) -> None:
    fingerprint = rpc.call("hosts.add", {"host": "h1"})["offered"][0]["fingerprint"]
    rpc.call("hosts.add", {"host": "h1", "accept_fingerprint": fingerprint})
    probe = rpc.call("hosts.test", {"host": "h1"})["probe"]
    assert probe["reachable"] is True
    assert probe["cpu_count"] >= 1 and "libaio" in probe["fio_engines"] and probe["nics"]
    rpc.call("hosts.remove", {"host": "h1"})
    assert rpc.call("hosts.list")["hosts"] == []


def add(rpc: Rpc, host: str, **more: object) -> dict[str, object]:
    fingerprint = rpc.call("hosts.add", {"host": host})["offered"][0]["fingerprint"]
    params = {"host": host, "accept_fingerprint": fingerprint, **more}
    added: dict[str, object] = rpc.call("hosts.add", params)
    return added


def test_a_host_added_monitor_only_is_listed_so_and_its_role_can_be_changed(rpc: Rpc) -> None:
    added = add(rpc, "h2", role="monitor")
    assert added["added"] is True and "monitor-only" in str(added["message"])
    assert [(h["name"], h["role"]) for h in rpc.call("hosts.list")["hosts"]] == [("h2", "monitor")]
    assert rpc.call("hosts.set_role", {"host": "h2", "role": "client"})["role"] == "client"
    assert rpc.call("hosts.list")["hosts"][0]["role"] == "client"


def test_a_host_s_link_speed_is_set_and_cleared_and_a_host_not_in_the_list_is_named(rpc: Rpc) -> None:
    add(rpc, "h1")
    assert rpc.call("hosts.set_link", {"host": "h1", "link_gbps": 25})["link_gbps"] == 25
    assert rpc.call("hosts.list")["hosts"][0]["link_gbps"] == 25
    assert rpc.call("hosts.set_link", {"host": "h1", "link_gbps": None})["link_gbps"] is None
    for method, params in (("hosts.set_link", {"link_gbps": 10}), ("hosts.set_role", {"role": "monitor"})):
        error = rpc.request(method, {"host": "h9", **params})["error"]
        assert "host h9 is not in the list" in error["message"], error


def test_the_osd_hosts_of_a_real_ceph_cluster_are_offered_and_the_unreachable_ones_named(
        rpc: Rpc, ceph_cluster: Any) -> None:
    """The test cluster's OSDs share the machine's hostname, which is none of the SSH hosts: found,
    not matched, and named as not reachable with the command that adds it; h1, where the cluster is
    reached, keeps its role."""
    add(rpc, "h1")
    found = rpc.call("hosts.ceph_osd_hosts",
                     {"via": "h1", "ceph_conf": str(ceph_cluster.conf_path), "watch": True})
    [osd_host] = found["osd_hosts"]
    assert osd_host["osds"] == ["osd.0", "osd.1", "osd.2"] and osd_host["osds_up"] == 3
    assert (osd_host["known_host"], osd_host["role"]) == ("", None)
    assert f"not reachable as SSH hosts: {osd_host['name']}" in found["message"]
    assert "--monitor-only" in found["message"]
    assert rpc.call("hosts.list")["hosts"][0]["role"] == "client"
