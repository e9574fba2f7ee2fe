"""Multi-host runs against real sshd hosts in network namespaces (tests/infra), with real fio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.netns_hosts import ssdprof_on_hosts as ssdprof

from ssdprof.model import histogram
from ssdprof.portable.proof import disk_of
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.launch import FioCommand, Launch
from ssdprof.remote.ssh import Ssh, SshSettings
from ssdprof.store.db import Store

pytestmark = requires_fio


def remote_run(hosts: Any, db: Path, *extra: str, runtime: str = "2") -> subprocess.CompletedProcess[str]:
    dirs = [f"--remote-dir={alias}={hosts.host_dirs[alias]}" for alias in ("h1", "h2")]
    return ssdprof(hosts, "run", "--host", "h1", "--host", "h2", *dirs, "--size", "32MiB",
                   "--runtime", runtime, "--ramp", "0", "--qd", "4", "--json", *extra, db=db)


def leftover_files(hosts: Any, alias: str) -> list[Path]:
    return list(Path(hosts.host_dirs[alias]).glob("ssdprof-testfile-*"))


def no_fio_anywhere(hosts: Any) -> bool:
    return all(name != "fio" for alias in hosts.aliases for _, name in hosts.processes(alias))


def test_a_run_on_two_hosts_gives_per_host_results_and_an_exact_aggregate(ssh_hosts: Any, tmp_path: Path) -> None:
    done = remote_run(ssh_hosts, tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    per_host = {h["host"]: h for h in run["hosts"]}
    assert set(per_host) == {"h1", "h2"} and all(h["error"] is None for h in per_host.values())
    assert run["read"]["iops"] == pytest.approx(sum(h["read"]["iops"] for h in per_host.values()))
    assert run["read"]["io_count"] == sum(h["read"]["io_count"] for h in per_host.values())
    assert run["start_skew_ms"] is not None and run["start_skew_ms"] < 1000
    assert {s["host"] for s in run["monitor"]} == {"h1", "h2"}
    # Each host's disk counters, read by its session around the point: how much of its queue reached the disk.
    for alias, host in per_host.items():
        queue = host["device_queue"]
        assert queue is not None, f"{alias} recorded no device queue"
        assert queue["disk"] == disk_of(Path(ssh_hosts.host_dirs[alias])) and queue["requested_outstanding"] == 4
        assert queue["mean_in_flight"] > 0 and queue["read_request_lat_ns_mean"] > 0
        # The disk's own word, asked by the host's session before and after: a virtio disk has no SMART, and says so.
        health = host["drive_health"]
        assert health is not None and health["before"]["device"] == f"/dev/{queue['disk']}", health
        assert health["before"]["sources"] or health["before"]["missing"], health
    stored = subprocess.run([sys.executable, "-m", "ssdprof", "runs", "show", str(run["id"]), "--db", str(tmp_path / "r.db"), "--json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(stored.stdout)["hosts"][0]["host"] in ("h1", "h2")
    kept = Store(tmp_path / "r.db").run(run["id"])
    assert kept is not None and {s.host for s in kept.progress} == {"h1", "h2"}, "each host's per-second series is kept"
    assert no_fio_anywhere(ssh_hosts)
    assert leftover_files(ssh_hosts, "h1") == leftover_files(ssh_hosts, "h2") == []


def test_the_aggregate_percentiles_are_those_of_the_summed_bins(ssh_hosts: Any, tmp_path: Path) -> None:
    from ssdprof.store.db import Store

    db = tmp_path / "r.db"
    run_id = json.loads(remote_run(ssh_hosts, db).stdout)["id"]
    run = Store(db).run(run_id)
    assert run is not None
    summed = histogram.merge(h.read.lat_bins_ns for h in run.hosts)
    assert summed and run.read.lat_bins_ns == summed
    assert run.read.lat_ns.p99 == histogram.percentile(summed, 99)
    assert run.read.lat_ns.p50 == histogram.percentile(summed, 50)
    assert run.read.clat_bins_ns == histogram.merge(h.read.clat_bins_ns for h in run.hosts)


def _argv(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def kill_when_measuring(hosts: Any, alias: str) -> None:
    """Lose the host 1.5 s into the measurement."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(name == "fio" and "--status-interval=1" in _argv(pid) for pid, name in hosts.processes(alias)):  # not the layout's
            time.sleep(1.5)
            hosts.kill_sshd(alias)
            return
        time.sleep(0.05)


def test_a_host_lost_mid_run_keeps_the_other_hosts_data_and_marks_the_run_partial(ssh_hosts: Any, tmp_path: Path) -> None:
    threading.Thread(target=kill_when_measuring, args=(ssh_hosts, "h2"), daemon=True).start()
    done = remote_run(ssh_hosts, tmp_path / "r.db", runtime="5")
    assert done.stdout, done.stderr
    run = json.loads(done.stdout)
    per_host = {h["host"]: h for h in run["hosts"]}
    assert done.returncode == 1  # ended early, data kept
    assert run["status"] == "partial", (done.stderr, [(h["host"], h["error"]) for h in run["hosts"]])
    assert per_host["h1"]["error"] is None and per_host["h1"]["read"]["iops"] > 0
    assert per_host["h2"]["error"]
    deadline = time.monotonic() + 15  # the wrapper on h2 ends fio by its PID once its connection is gone
    while not no_fio_anywhere(ssh_hosts) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert no_fio_anywhere(ssh_hosts)
    assert leftover_files(ssh_hosts, "h1") == []  # h2's could not be removed: it is gone, and the run says so
    assert any(w["code"] == "remote_cleanup" and "h2" in w["message"] for w in run["warnings"])


def test_an_unreachable_host_fails_fast_before_anything_starts(ssh_hosts: Any, tmp_path: Path) -> None:
    ssh_hosts.kill_sshd("h2")
    before = leftover_files(ssh_hosts, "h1") + leftover_files(ssh_hosts, "h2")
    started = time.monotonic()
    done = remote_run(ssh_hosts, tmp_path / "r.db")
    assert done.returncode == 1
    assert "h2" in done.stderr and "connect" in done.stderr
    assert time.monotonic() - started < 30
    assert leftover_files(ssh_hosts, "h1") + leftover_files(ssh_hosts, "h2") == before
    assert no_fio_anywhere(ssh_hosts)


def test_a_changed_host_key_is_refused_with_a_clear_message(ssh_hosts: Any, tmp_path: Path) -> None:
    ssh_hosts.change_host_key("h1")
    done = remote_run(ssh_hosts, tmp_path / "r.db")
    assert done.returncode == 1
    assert "CHANGED" in done.stderr and "refuses" in done.stderr


def test_an_unknown_host_key_is_shown_and_only_the_accepted_fingerprint_is_trusted(ssh_hosts: Any, tmp_path: Path) -> None:
    config = tmp_path / "ssh_config"
    empty_known = tmp_path / "empty_known_hosts"
    empty_known.write_text("")
    config.write_text(ssh_hosts.ssh_config_path.read_text().replace(str(ssh_hosts.known_hosts_path), str(empty_known)))
    env = {"XDG_DATA_HOME": str(tmp_path / "data")}
    argv = [sys.executable, "-m", "ssdprof", "hosts", "add", "h1", "--ssh-config", str(config), "--db", str(tmp_path / "r.db")]
    first = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, **env}, stdin=subprocess.DEVNULL, check=False)
    assert first.returncode == 2 and "SHA256:" in first.stderr and "--accept-fingerprint" in first.stderr
    fingerprint = first.stderr.split("--accept-fingerprint ")[1].split()[0]
    wrong = subprocess.run([*argv, "--accept-fingerprint", "SHA256:" + "A" * 43], capture_output=True, text=True,
                           env={**os.environ, **env}, check=False)
    assert wrong.returncode == 1 and "nothing was accepted" in wrong.stderr
    accepted = subprocess.run([*argv, "--accept-fingerprint", fingerprint], capture_output=True, text=True,
                              env={**os.environ, **env}, check=False)
    assert accepted.returncode == 0, accepted.stderr
    assert "fio-" in accepted.stdout and "CPUs" in accepted.stdout
    listed = subprocess.run([sys.executable, "-m", "ssdprof", "hosts", "list", "--json", "--db", str(tmp_path / "r.db")],
                            capture_output=True, text=True, check=True)
    assert json.loads(listed.stdout)["hosts"][0]["fingerprint"] == fingerprint


def test_a_host_name_with_shell_metacharacters_is_rejected_and_never_run(ssh_hosts: Any, tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    done = ssdprof(ssh_hosts, "run", "--host", f"h1;touch {canary}", "--host", f"$(touch {canary})", db=tmp_path / "r.db")
    assert done.returncode == 2 and "host (--host)" in done.stderr
    assert not canary.exists()


def test_hosts_test_reports_fio_engines_cpus_and_nics(ssh_hosts: Any, tmp_path: Path) -> None:
    done = ssdprof(ssh_hosts, "hosts", "test", "h1", "h2", "--json", db=tmp_path / "r.db")
    facts = json.loads(done.stdout)["hosts"]
    assert done.returncode == 0
    for alias in ("h1", "h2"):
        assert facts[alias]["reachable"] and facts[alias]["fio_version"].startswith("fio-")
        assert "libaio" in facts[alias]["fio_engines"] and facts[alias]["cpu_count"] >= 1
        assert facts[alias]["nics"]


def test_rbd_images_on_a_real_ceph_cluster_from_two_hosts(ceph_cluster: Any, ssh_hosts: Any, tmp_path: Path) -> None:
    """Each Ceph client measures its own image through fio's rbd engine; the cluster's facts are recorded."""
    done = ssdprof(ssh_hosts, "run", "--host", "h1", "--host", "h2", "--rbd", f"{ceph_cluster.pool}/img-{{host}}",
                   "--ceph-conf", str(ceph_cluster.conf_path), "--rw", "randwrite", "--size", "16MiB", "--runtime", "2",
                   "--ramp", "0", "--qd", "4", "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    per_host = {h["host"]: h for h in run["hosts"]}
    assert per_host["h1"]["target"] == f"{ceph_cluster.pool}/{ceph_cluster.images['h1']}"
    assert all(h["write"]["iops"] > 0 and h["error"] is None for h in per_host.values())
    assert run["write"]["iops"] == pytest.approx(sum(h["write"]["iops"] for h in per_host.values()))
    assert run["engine"]["ioengine"] == "rbd"
    assert all(h["device_queue"] is None for h in per_host.values())  # librbd: no block device on the client to count
    cluster = run["environment"]["cluster"]
    assert cluster["osd_count"] == 3 and cluster["osds_up"] == 3 and cluster["storage_nodes"] >= 1
    assert cluster["health"].startswith("HEALTH_") and cluster["ceph_version"]
    assert no_fio_anywhere(ssh_hosts)


def test_sixteen_hosts_start_together_and_leave_nothing_behind(tmp_path: Path) -> None:
    """16 SSH test hosts (started in parallel), one short point: every host's data, the exact aggregate, the start skew
    from the hosts' own clocks, and nothing left running or on disk."""
    from infra import InfraUnavailable
    from infra.netns_hosts import ssh_hosts

    try:
        context = ssh_hosts(16)
        hosts = context.__enter__()
    except InfraUnavailable as reason:
        pytest.skip(str(reason))
    try:
        aliases = hosts.aliases
        done = ssdprof(hosts, "run", *(f"--host={a}" for a in aliases), *(f"--remote-dir={a}={hosts.host_dirs[a]}" for a in aliases),
                       "--size", "8MiB", "--runtime", "1", "--ramp", "0", "--qd", "2", "--json", db=tmp_path / "r.db")
        assert done.returncode == 0, done.stderr
        run = json.loads(done.stdout)
        per_host = {h["host"]: h for h in run["hosts"]}
        assert sorted(per_host) == sorted(aliases)
        assert all(h["error"] is None and h["read"]["io_count"] > 0 and h["start_epoch_ns"] for h in per_host.values())
        assert run["read"]["io_count"] == sum(h["read"]["io_count"] for h in per_host.values())
        assert run["read"]["iops"] == pytest.approx(sum(h["read"]["iops"] for h in per_host.values()))
        starts = [h["start_epoch_ns"] for h in per_host.values()]
        assert run["start_skew_ms"] == pytest.approx((max(starts) - min(starts)) / 1e6)  # one machine: one clock
        assert {s["host"] for s in run["monitor"]} == set(aliases)
        for alias in aliases:
            assert [name for _, name in hosts.processes(alias) if name != "sshd"] == [], alias
            assert list(Path(hosts.host_dirs[alias]).glob("ssdprof-testfile-*")) == [], alias
    finally:
        context.__exit__(None, None, None)


def test_a_cancel_before_the_start_ends_every_hosts_fio_and_lets_no_job_through(ssh_hosts: Any, tmp_path: Path) -> None:
    """Cancelled while fio sets up on the hosts (here: before the point is even sent): no "go" is sent, each host ends its
    fio by PID (a 30 s job that would otherwise outlast the 20 s the cancel waits), and nothing is left running."""
    aliases = ["h1", "h2"]
    ssh = Ssh(SshSettings(config=ssh_hosts.ssh_config_path, leftovers=tmp_path / "leftovers"))
    addresses = [parse_host(alias) for alias in aliases]
    commands = {alias: FioCommand(["fio", "--output-format=json+", "--name=ssdprof", f"--filename={ssh_hosts.host_dirs[alias]}/c.dat",
                                   "--size=8MiB", "--rw=randread", "--bs=4k", "--runtime=30", "--time_based=1"], jobs=1)
                for alias in aliases}
    cancel = threading.Event()
    cancel.set()
    ssh.open_masters(addresses)
    try:
        ssh.wait_masters()
        launch = Launch(ssh, addresses)
        try:
            runs = launch.run(commands, ramp_s=0, duration_s=30, on_progress=None, cancel=cancel)
            assert all(run.done.is_set() for run in runs), [run.stderr_lines for run in runs]
            assert [run.result().read.io_count for run in runs] == [0, 0]
        finally:
            launch.end()
    finally:
        ssh.close_masters()
    assert all(ssh_hosts.settled_processes(alias) == {"sshd"} for alias in aliases)
