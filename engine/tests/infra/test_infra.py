"""The test infrastructure itself: SSH hosts in network namespaces and a local Ceph cluster (see tests/infra/README.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from infra import NETNS_DIR, cleanup_stale, namespace_pids, netns_hosts
from infra.ceph_cluster import TestCeph
from infra.netns_hosts import TestHosts, hosts_unavailable_reason


def run(argv: list[str], timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)


def ssh(hosts: TestHosts, alias: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return run(hosts.ssh_argv(alias, argv))


def links() -> set[str]:
    return {link["ifname"] for link in json.loads(run(["ip", "-j", "link"]).stdout)}


def skip_without_hosts() -> None:
    reason = hosts_unavailable_reason()
    if reason:
        pytest.skip(reason)


def test_each_host_answers_ssh_as_itself_on_its_own_address(ssh_hosts: TestHosts) -> None:
    for alias in ssh_hosts.aliases:
        result = ssh(ssh_hosts, alias, "sh", "-c", 'hostname; echo "$SSH_CONNECTION"')
        assert result.returncode == 0, result.stderr
        hostname, connection = result.stdout.split("\n")[:2]
        assert hostname == alias
        assert connection.split()[2:] == [ssh_hosts.addresses[alias], str(ssh_hosts.ports[alias])]


def test_a_host_is_also_reachable_as_user_at_address_and_port(ssh_hosts: TestHosts) -> None:
    target = f"root@{ssh_hosts.addresses['h2']}"
    result = run(["ssh", "-F", str(ssh_hosts.ssh_config_path), "-p", str(ssh_hosts.ports["h2"]), target, "hostname"])
    assert (result.returncode, result.stdout.strip()) == (0, "h2"), result.stderr


def test_hosts_have_separate_disk_backed_folders_and_no_route_out(ssh_hosts: TestHosts) -> None:
    folders = list(ssh_hosts.host_dirs.values())
    assert len(set(folders)) == len(folders) and all(folder.is_dir() for folder in folders)
    for folder in folders:
        assert run(["stat", "-f", "-c", "%T", str(folder)]).stdout.strip() != "tmpfs"
    routes = ssh_hosts.run_in("h1", ["ip", "-4", "route"]).stdout
    assert "default" not in routes and routes.strip().startswith(str(ssh_hosts.network.subnet))


def test_run_in_sees_the_hosts_namespace_and_its_sshd(ssh_hosts: TestHosts) -> None:
    assert ssh_hosts.run_in("h2", ["hostname"]).stdout.strip() == "h2"
    assert ssh_hosts.addresses["h2"] in ssh_hosts.run_in("h2", ["ip", "-4", "-o", "addr", "show", "eth0"]).stdout
    assert ssh_hosts.settled_processes("h2") == {"sshd"}


def test_a_changed_host_key_is_refused_until_reset(ssh_hosts: TestHosts) -> None:
    old_key = ssh_hosts.host_public_key("h1")
    assert ssh_hosts.change_host_key("h1") != old_key
    refused = ssh(ssh_hosts, "h1", "true")
    assert refused.returncode == 255 and "REMOTE HOST IDENTIFICATION HAS CHANGED" in refused.stderr
    assert ssh(ssh_hosts, "h2", "true").returncode == 0
    ssh_hosts.reset()
    assert ssh_hosts.host_public_key("h1") == old_key and ssh(ssh_hosts, "h1", "true").returncode == 0


def test_a_killed_host_drops_open_sessions_and_refuses_new_ones_until_reset(ssh_hosts: TestHosts) -> None:
    session = subprocess.Popen(ssh_hosts.ssh_argv("h1", ["sleep", "60"]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while "sleep" not in [name for _pid, name in ssh_hosts.processes("h1")] and time.monotonic() < deadline:
            time.sleep(0.05)
        ssh_hosts.kill_sshd("h1")
        assert session.wait(10) == 255
    finally:
        session.kill()
    refused = ssh(ssh_hosts, "h1", "true")
    assert refused.returncode == 255 and "Connection refused" in refused.stderr
    left = {name for _pid, name in ssh_hosts.processes("h1")}
    assert "sleep" in left and "sshd" not in left  # what the session started outlives it
    assert ssh(ssh_hosts, "h2", "true").returncode == 0
    assert any(name.startswith("sleep[") for name in ssh_hosts.reset())
    assert ssh(ssh_hosts, "h1", "true").returncode == 0


def test_a_disconnected_host_times_out(ssh_hosts: TestHosts) -> None:
    ssh_hosts.disconnect("h2")
    argv = ["ssh", "-F", str(ssh_hosts.ssh_config_path), "-o", "ConnectTimeout=1", "h2", "true"]
    result = run(argv)
    assert result.returncode == 255 and ("timed out" in result.stderr or "No route to host" in result.stderr)
    ssh_hosts.reconnect("h2")
    assert ssh(ssh_hosts, "h2", "true").returncode == 0


def test_hosts_leave_nothing_behind() -> None:
    skip_without_hosts()
    with netns_hosts.ssh_hosts(3) as hosts:
        assert ssh(hosts, "h3", "hostname").stdout.strip() == "h3"
        names, bridge, base = set(hosts.netns_names.values()), hosts.network.bridge, hosts.base_dir
        # The session's sshd of the `hostname` call may take a moment to exit after ssh returns: wait for it.
        deadline = time.monotonic() + 10
        def sshd_pids_now() -> list[int]:
            return [pid for alias in hosts.aliases for pid, _name in hosts.processes(alias)]
        while len(sshd_pids := sshd_pids_now()) > 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(sshd_pids) == 3 and bridge in links()
    assert not names & set(os.listdir(NETNS_DIR) if NETNS_DIR.exists() else [])
    assert not any(name.startswith(f"ssdv{hosts.network.tag}") or name == bridge for name in links())
    assert not base.exists()
    assert not [pid for pid in sshd_pids if Path(f"/proc/{pid}").exists()]


def test_cleanup_stale_removes_what_a_killed_run_left_and_nothing_alive(tmp_path: Path, ssh_hosts: TestHosts) -> None:
    script = textwrap.dedent("""
        import json, os, signal, sys
        from infra.netns_hosts import TestHosts
        hosts = TestHosts(1)
        hosts.start()
        print(json.dumps([hosts.netns_names["h1"], hosts.network.bridge, str(hosts.base_dir)]), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    crashed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False,
                             cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert crashed.returncode == -signal.SIGKILL, crashed.stderr
    netns, bridge, base = json.loads(crashed.stdout)
    assert (NETNS_DIR / netns).exists() and bridge in links() and Path(base).exists()
    removed = cleanup_stale()
    assert f"netns {netns}" in removed and f"link {bridge}" in removed and f"folder {base}" in removed
    assert not (NETNS_DIR / netns).exists() and bridge not in links() and not Path(base).exists()
    assert all(ssh(ssh_hosts, alias, "true").returncode == 0 for alias in ssh_hosts.aliases)


@pytest.mark.slow
def test_the_cluster_is_healthy_with_three_osds_and_one_image_per_host(ceph_cluster: TestCeph) -> None:
    status = ceph_cluster.status()
    assert status["health"]["status"] == "HEALTH_OK"
    assert status["osdmap"]["num_osds"] == status["osdmap"]["num_up_osds"] == 3
    images = json.loads(ceph_cluster.admin("rbd", "ls", "--pool", ceph_cluster.pool, "--format", "json"))
    assert sorted(images) == sorted(ceph_cluster.images.values()) == ["img-h1", "img-h2"]
    assert ceph_cluster.netns_name not in ceph_cluster.hosts.netns_names.values()
    assert [pid for pid in namespace_pids(ceph_cluster.netns_name)]  # the daemons live in their own namespace


@pytest.mark.slow
def test_clients_have_the_rbd_cache_fixed_off(ceph_cluster: TestCeph) -> None:
    argv = ["ceph-conf", "--conf", str(ceph_cluster.conf_path), "--name", "client.admin", "--show-config-value", "rbd_cache"]
    assert run(argv).stdout.strip() == "false"


@pytest.mark.slow
@pytest.mark.fio
def test_fio_rbd_engine_writes_each_hosts_image_over_ssh_at_once(ceph_cluster: TestCeph, ssh_hosts: TestHosts) -> None:
    env = [f"{key}={value}" for key, value in ceph_cluster.client_env().items()]
    runs = {alias: subprocess.Popen(ssh_hosts.ssh_argv(alias, [
        "env", *env, "fio", "--name=infra", "--ioengine=rbd", f"--clientname={ceph_cluster.client_name}",
        f"--pool={ceph_cluster.pool}", f"--rbdname={image}", "--rw=randwrite", "--bs=4k", "--iodepth=8",
        "--size=16m", "--runtime=2", "--time_based", "--output-format=json"]), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for alias, image in ceph_cluster.images.items()}
    for alias, process in runs.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        job = json.loads(out[out.index("{"):])["jobs"][0]
        assert job["error"] == 0 and job["write"]["io_bytes"] > 0, alias
    assert all(ssh_hosts.settled_processes(alias) == {"sshd"} for alias in ssh_hosts.aliases)
