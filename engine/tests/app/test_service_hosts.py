"""hosts.* over the RPC against real SSH test hosts (engine/tests/infra): a key is accepted only by fingerprint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
