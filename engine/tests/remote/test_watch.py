"""Watched hosts: monitor-only hosts (storage nodes) sampled during real runs on the SSH test hosts,
running no I/O; and the per-second lines their session sends, parsed."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from infra.netns_hosts import ssdprof_on_hosts

from ssdprof.remote.monitor import MonitorParser

SHAPED_MBIT = 80
"""h2's link while it is watched: 10 MB/s, which a stream pulled from it fills."""


def diskstats(io_ticks_ms: int, *, reads: int = 500) -> str:
    """Three /proc/diskstats lines as watch.sh joins them: a disk, its partition and a loop slot
    never used."""
    disk = f"   8       0 sda {reads} 0 4000 300 20 0 160 40 0 {io_ticks_ms} 340 0 0 0 0 0 0"
    part = f"   8       1 sda1 {reads} 0 4000 300 20 0 160 40 0 {io_ticks_ms} 340 0 0 0 0 0 0"
    return f"{disk};{part};   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0;"


def test_a_disk_busy_share_is_its_io_ticks_growth_over_the_second_whole_disks_only() -> None:
    parser = MonitorParser("osd1")
    cpu = "cpu  100 0 100 800 0 0 0 0 0 0"
    net = "  eth0: 1000 10 0 0 0 0 0 0 2000 20 0 0 0 0 0 0;"
    assert parser.feed(f"1000000000 {cpu} | {net} | {diskstats(10_000)}") is None
    sample = parser.feed(
        f"3000000000 cpu  200 0 200 1400 0 0 0 0 0 0 | {net} | {diskstats(11_500, reads=900)}"
    )
    assert sample is not None and sample.elapsed_s == 2.0
    assert sample.disk_busy_pct == {
        "sda": 75.0
    }  # 1.5 s of I/O in flight over 2 s; sda1 is part of sda
    assert sample.cpu_busy_pct == pytest.approx(25.0)
    assert sample.net_tx_bytes_per_s == {"eth0": 0.0}


def test_the_fio_wrappers_lines_without_a_disk_part_still_parse() -> None:
    parser = MonitorParser("h1")
    parser.feed("1000000000 cpu  100 0 100 800 0 | eth0: 1000 1 0 0 0 0 0 0 2000 2 0 0 0 0 0 0;")
    sample = parser.feed(
        "2000000000 cpu  150 0 150 900 0 | eth0: 5000 1 0 0 0 0 0 0 2000 2 0 0 0 0 0 0;"
    )
    assert (
        sample is not None
        and sample.disk_busy_pct == {}
        and sample.net_rx_bytes_per_s == {"eth0": 4000.0}
    )


class ProcessWatch:
    """The names of every process seen on a host, polled while a run goes on."""

    def __init__(self, hosts: Any, alias: str):
        self.seen: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, args=(hosts, alias), daemon=True)
        self._thread.start()

    def _poll(self, hosts: Any, alias: str) -> None:
        while not self._stop.wait(0.2):
            self.seen |= {name for _, name in hosts.processes(alias)}

    def stop(self) -> set[str]:
        self._stop.set()
        self._thread.join(timeout=10)
        return self.seen


def test_a_monitor_only_host_is_watched_during_a_real_run_and_named_when_its_link_was_the_limit(
    ssh_hosts: Any, tmp_path: Path
) -> None:
    """h1 measures; h2, added monitor-only, runs no I/O: its link is shaped to 80 Mb/s and a stream
    pulled from it (as a storage node serving a client) fills it. The run records h2's CPU,
    interfaces and disks each second, and names h2's eth0 as the limit; no fio ever runs on h2."""
    db = tmp_path / "r.db"
    added = ssdprof_on_hosts(ssh_hosts, "hosts", "add", "h2", "--monitor-only", db=db)
    assert added.returncode == 0, added.stderr
    assert "monitor-only" in added.stdout
    listed = json.loads(ssdprof_on_hosts(ssh_hosts, "hosts", "list", "--json", db=db).stdout)[
        "hosts"
    ]
    assert [(h["name"], h["role"]) for h in listed] == [("h2", "monitor")]
    ssh_hosts.shape_link("h2", SHAPED_MBIT)
    stream = subprocess.Popen(
        ssh_hosts.ssh_argv("h2", ["cat", "/dev/zero"]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    processes = ProcessWatch(ssh_hosts, "h2")
    try:
        done = ssdprof_on_hosts(
            ssh_hosts,
            "run",
            "--host",
            "h1",
            "--rw",
            "randread",
            "--bs",
            "4k",
            "--qd",
            "4",
            "--size",
            "16MiB",
            "--runtime",
            "5",
            "--ramp",
            "1",
            "--json",
            db=db,
        )
    finally:
        seen = processes.stop()
        stream.kill()
        stream.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert [h["host"] for h in run["hosts"]] == ["h1"] and "fio" not in seen, seen
    [watched] = run["watched"]
    assert (watched["host"], watched["role"], watched["error"]) == ("h2", "monitor", None)
    assert watched["seconds"] >= 3 and 0 <= watched["cpu_busy_pct_mean"] <= 100
    eth0 = next(load for load in watched["interfaces"] if load["interface"] == "eth0")
    rate = SHAPED_MBIT * 1e6 / 8
    assert (
        eth0["link_limit_bytes_per_s"] == rate and eth0["link_limit_source"] == "tbf rate on eth0"
    )
    assert eth0["tx_bytes_per_s_median"] == pytest.approx(rate, rel=0.1), eth0
    assert watched["disk_busy_pct_median"] and all(
        0 <= v <= 100 for v in watched["disk_busy_pct_median"].values()
    )
    seconds = [s for s in run["monitor"] if s["host"] == "h2"]
    assert len(seconds) == watched["seconds"] and all(
        s["disk_busy_pct"] and s["net_tx_bytes_per_s"] for s in seconds
    )
    # The test hosts share this machine's CPUs and disks (/proc/stat, /proc/diskstats): under load
    # their verdicts
    # may come too; the link is h2's own.
    [verdict] = [w for w in run["warnings"] if w["code"] == "watched_network_bound"]
    assert verdict["concerns"] == ["watched.h2"]
    assert verdict["message"].startswith("h2: eth0 carried ") and verdict["message"].endswith(
        "MB/s link (tbf rate on eth0): the storage node's network was the limit"
    )


def test_a_watched_host_that_cannot_be_reached_is_named_and_the_run_goes_on(
    ssh_hosts: Any, tmp_path: Path
) -> None:
    db = tmp_path / "r.db"
    assert (
        ssdprof_on_hosts(ssh_hosts, "hosts", "add", "h2", "--monitor-only", db=db).returncode == 0
    )
    ssh_hosts.kill_sshd("h2")
    done = ssdprof_on_hosts(
        ssh_hosts,
        "run",
        "--host",
        "h1",
        "--rw",
        "randread",
        "--bs",
        "4k",
        "--size",
        "8MiB",
        "--runtime",
        "2",
        "--json",
        db=db,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    [watched] = run["watched"]
    assert watched["host"] == "h2" and watched["error"] and watched["seconds"] == 0
    assert any(
        w["code"] == "watched_unreachable" and w["concerns"] == ["watched.h2"]
        for w in run["warnings"]
    )
    assert run["status"] == "ok" and run["read"]["iops"] > 0
