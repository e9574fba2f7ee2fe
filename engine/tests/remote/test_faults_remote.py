"""Remote faults caused for real on the SSH test hosts (tests/infra), during a 2-host run with real fio:
a link that goes down, a host that reboots, fio killed on a host, a host starved of CPU. Each run must end
in bounded time with the other host's data, say what happened and to whom, and leave nothing behind:
no fio, wrapper or sleep on any host, no local SSH connection, no test file on a host that can be reached.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from conftest import requires_fio
from infra import InfraUnavailable

from ssdprof.remote.heartbeat import LOST_AFTER_S

pytestmark = requires_fio


def remote_run(hosts: Any, tmp_path: Path, *, runtime: int, aliases: tuple[str, ...] = ("h1", "h2")) -> tuple[dict[str, Any], float]:
    """`ssdprof run --json` on the hosts; returns the run and its wall time."""
    argv = [sys.executable, "-m", "ssdprof", "run", *(f"--host={a}" for a in aliases),
            *(f"--remote-dir={a}={hosts.host_dirs[a]}" for a in aliases), "--size", "32MiB", "--runtime", str(runtime),
            "--ramp", "0", "--qd", "4", "--json", "--ssh-config", str(hosts.ssh_config_path), "--db", str(tmp_path / "r.db")]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # this test's own record of leftovers
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False, env=env)
    assert done.stdout, done.stderr
    return json.loads(done.stdout), time.monotonic() - started


class Fault(threading.Thread):
    """Does `action` to a host `after_s` into its measurement, then notes when fio has gone from it."""

    def __init__(self, hosts: Any, alias: str, action: Callable[[], None], after_s: float = 1.5):
        super().__init__(daemon=True)
        self.hosts, self.alias, self.action, self.after_s = hosts, alias, action, after_s
        self.done_at: float | None = None
        self.fio_gone_s: float | None = None  # from the fault to the last fio on the host ending

    def run(self) -> None:
        deadline = time.monotonic() + 60
        while not self._measuring():
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)
        time.sleep(self.after_s)
        self.action()
        self.done_at = time.monotonic()
        while "fio" in self._names() and time.monotonic() < self.done_at + 60:
            time.sleep(0.1)
        self.fio_gone_s = time.monotonic() - self.done_at

    def _measuring(self) -> bool:
        return bool(measuring_fio(self.hosts, self.alias))

    def _names(self) -> set[str]:
        return {name for _, name in self.hosts.processes(self.alias)}


def measuring_fio(hosts: Any, alias: str) -> list[int]:
    """PIDs of the run's fio on the host (not the layout's: that one prints no status every second)."""
    def argv(pid: int) -> str:
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            return ""  # it just ended
    return [pid for pid, name in hosts.processes(alias) if name == "fio" and "--status-interval=1" in argv(pid)]


def hosts_of(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["host"]: h for h in run["hosts"]}


def assert_nothing_left(hosts: Any, *, reachable: tuple[str, ...] = ("h1", "h2")) -> None:
    """No fio, wrapper or sleep on any host (their sshd may outlive a dropped connection: that is the host's, not ours),
    no local ssh to the hosts, and no test file on the hosts that can be reached."""
    deadline = time.monotonic() + 5
    while True:
        running = {alias: sorted({name for _, name in hosts.processes(alias)} - {"sshd"}) for alias in hosts.aliases}
        local = [p.pid for p in psutil.process_iter(["name", "cmdline"])
                 if p.info["name"] == "ssh" and str(hosts.ssh_config_path) in " ".join(p.info["cmdline"] or [])]
        if (not any(running.values()) and not local) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not any(running.values()), running
    assert local == [], "local ssh processes left running"
    for alias in reachable:
        assert list(Path(hosts.host_dirs[alias]).glob("ssdprof-testfile-*")) == [], alias


def test_a_link_that_goes_down_ends_the_run_in_bounded_time_and_the_host_ends_its_fio(ssh_hosts: Any, tmp_path: Path) -> None:
    fault = Fault(ssh_hosts, "h2", lambda: ssh_hosts.disconnect("h2"))
    fault.start()
    run, wall_s = remote_run(ssh_hosts, tmp_path, runtime=16)
    fault.join(timeout=30)
    per_host = hosts_of(run)
    assert run["status"] == "partial"
    assert per_host["h1"]["error"] is None and per_host["h1"]["read"]["iops"] > 0
    assert per_host["h2"]["error"].startswith("h2: ") and "mid-run" in per_host["h2"]["error"]
    assert "not responding" in per_host["h2"]["error"], per_host["h2"]["error"]  # ssh's own reason, from the shared connection
    assert wall_s < 16 + 30  # the run, ssh giving up on h2 (~6-8 s), one failed attempt to reach it (5 s), start-up
    # The host heard no heartbeat and ended fio by itself, well before its 16 s would have run out.
    assert fault.fio_gone_s is not None and fault.fio_gone_s < LOST_AFTER_S + 2.5
    assert any(w["code"] == "remote_cleanup" and "h2" in w["message"] and "next run" in w["message"] for w in run["warnings"])
    assert_nothing_left(ssh_hosts, reachable=("h1",))
    ssh_hosts.reconnect("h2")
    after, _ = remote_run(ssh_hosts, tmp_path, runtime=1)  # the next run reaching h2 removes what it was left with
    assert after["status"] == "ok", [h["error"] for h in after["hosts"]]
    assert_nothing_left(ssh_hosts)


def test_a_host_that_reboots_mid_run_is_partial_and_the_next_run_works(ssh_hosts: Any, tmp_path: Path) -> None:
    fault = Fault(ssh_hosts, "h2", lambda: ssh_hosts.reboot("h2", down_s=1.0))
    fault.start()
    run, _ = remote_run(ssh_hosts, tmp_path, runtime=5)
    fault.join(timeout=30)
    per_host = hosts_of(run)
    assert run["status"] == "partial"
    assert per_host["h1"]["error"] is None and per_host["h1"]["read"]["iops"] > 0
    assert per_host["h2"]["error"].startswith("h2: ")
    assert_nothing_left(ssh_hosts)  # h2 was back before the run ended: its file went at once
    after, _ = remote_run(ssh_hosts, tmp_path, runtime=1)
    assert after["status"] == "ok" and all(h["read"]["iops"] > 0 for h in after["hosts"])
    assert_nothing_left(ssh_hosts)


def test_fio_killed_on_one_host_is_partial_naming_how_fio_ended(ssh_hosts: Any, tmp_path: Path) -> None:
    fault = Fault(ssh_hosts, "h2", lambda: ssh_hosts.kill_processes("h2", "fio"))
    fault.start()
    run, _ = remote_run(ssh_hosts, tmp_path, runtime=4)
    fault.join(timeout=30)
    per_host = hosts_of(run)
    assert run["status"] == "partial"
    assert per_host["h1"]["error"] is None and per_host["h1"]["read"]["iops"] > 0
    assert per_host["h2"]["error"] == "h2: fio was killed by SIGKILL mid-run; its data up to then kept"
    assert_nothing_left(ssh_hosts)


def test_a_host_starved_of_cpu_completes_with_both_hosts_and_is_flagged_slow(ssh_hosts: Any, tmp_path: Path) -> None:
    def starve() -> None:  # a real limit: a cgroup's CPU quota on everything in h2, its fio included
        try:
            ssh_hosts.limit_cpu("h2", percent=2)  # 5 % was not always enough once the wrapper's sampling forked less
        except (InfraUnavailable, OSError) as exc:  # no cpu controller, or one this kernel will not limit
            skipped.append(str(exc))

    skipped: list[str] = []
    fault = Fault(ssh_hosts, "h2", starve, after_s=0.3)  # from the start of the measurement: set-up at 5 % takes long
    fault.start()
    run, _ = remote_run(ssh_hosts, tmp_path, runtime=4)
    fault.join(timeout=30)
    if skipped:
        pytest.skip(f"cannot starve a host of CPU here: {skipped[0]}")
    per_host = hosts_of(run)
    assert run["status"] == "ok", [h["error"] for h in run["hosts"]]
    assert per_host["h1"]["read"]["iops"] > 0 and per_host["h2"]["read"]["iops"] > 0
    slow = [w for w in run["warnings"] if w["code"] == "slow_host"]
    assert [w["concerns"] for w in slow] == [["hosts.h2"]], (per_host["h1"]["read"]["iops"], per_host["h2"]["read"]["iops"])
    assert_nothing_left(ssh_hosts)


def test_a_host_lost_mid_sweep_stops_the_sweep_and_resume_measures_the_rest(ssh_hosts: Any, tmp_path: Path) -> None:
    def sweep(*extra: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
        argv = [sys.executable, "-m", "ssdprof", "sweep", *extra, "--json", "--ssh-config", str(ssh_hosts.ssh_config_path),
                "--db", str(tmp_path / "r.db")]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=180, check=False,
                              env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
        assert done.stdout, done.stderr
        return done, json.loads(done.stdout)

    fault = Fault(ssh_hosts, "h2", lambda: ssh_hosts.reboot("h2", down_s=1.0))
    fault.start()
    done, out = sweep("--host=h1", "--host=h2", *(f"--remote-dir={a}={ssh_hosts.host_dirs[a]}" for a in ("h1", "h2")),
                      "--size", "32MiB", "--runtime", "4", "--ramp", "0", "--vary", "qd=1,4,8")
    fault.join(timeout=30)
    # Later points on one host would not measure the same pair, and could not start without h2: stop, keep, resume.
    assert out["status"] == "stopped" and "stopped after 1 of 3 points: h2: " in out["reason"], out
    assert [r["status"] for r in out["runs"]] == ["partial"]
    assert done.returncode == 1 and f"ssdprof sweep --resume {out['sweep_id']}" in done.stderr
    assert_nothing_left(ssh_hosts)
    done, resumed = sweep("--resume", str(out["sweep_id"]))
    assert resumed["status"] == "done", resumed
    assert [r["workload"]["queue_depth"] for r in resumed["runs"]] == [4, 8]
    assert all(r["status"] == "ok" for r in resumed["runs"])
    assert_nothing_left(ssh_hosts)
