"""Multi-host orchestration at lab scale: overhead per point and start skew at 1, 2, 4, 8 and 16 hosts, side by side.

Goals (issue 17), at 16 hosts on this machine: orchestration overhead per point <= 2 s in total (not per host);
start skew <= 10 ms.

Overhead per point is measured by difference, so that nothing a local run also pays is counted: for every host count n,
a sweep of 1 point and a sweep of 3 points (bs 4k, 8k, 16k; 1 s each) run on n hosts and the same two sweeps run locally
(`--target`, same disk). One-time set-up (connections, probes, layout, clean-up) cancels in R3 - R1, the points' own
work in L3 - L1, so

    per point = ((R3 - R1) - (L3 - L1)) / 2        one-time = (R1 - L1) - per point

The 16 hosts are network namespaces on this 2-core machine: 16 fio processes start per point where the local run starts
one (fio's start-up alone is ~0.3 s of CPU), so the figure includes what 16 real clients would pay on their own CPUs.
Each test host has a home of its own, as each lab node has (empty: its sessions' shells read no rc file); before,
every session on every host ran this machine's root ~/.bashrc, whose pyenv init cost 0.09 s of CPU a session.
Start skew is the spread of the instants every fio job on every host began I/O, in ssdprof's clock: each job waits at a
gate after fio's set-up, and reads its host's clock as the gate opens, right before fio's I/O loop (the run's
start_skew_ms). Printed: the median and the largest over the 3-point sweep's points.
The gates' instants precede fio's first I/O by the job's own wake-up (its gate's shell ends, fio returns from
exec_prerun and enters its I/O loop). fio 3.33 reports no start time of its own, so a second table checks the figure
against fio's own per-I/O latency log (write_lat_log with log_unix_epoch: whole milliseconds, CLOCK_REALTIME): for
each host count, one point through the engine's own Launch on the same SSH hosts, and per job the instant its first
I/O was issued (its completion time minus its latency). Printed: the spread of the gates' instants, the spread of
the first I/Os (+-1 ms) and how long after its gate the latest job issued its first I/O.
The CPU each 1-point sweep cost on this machine is printed beside its wall clock: everything the sweep started, the
hosts' side too (their sshd sessions, login shells, probes, layouts, fio), read from a cgroup the bench puts itself and
its hosts in (cpuacct, or cgroup v2's cpu.stat). On two shared CPUs R1 - L1 cannot fall below (CPU R1 - CPU L1) / 2.
Run as root (it makes network namespaces): engine/.venv/bin/python bench/multihost.py [--hosts 1,2,4,8,16]
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Self

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine" / "tests"))

from infra.netns_hosts import ssh_hosts
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.launch import FioCommand, Launch, start_skew_ms
from ssdprof.remote.ssh import Ssh, SshSettings

RUNTIME_S = 1
SIZE = "16MiB"
SWEEP = ["--size", SIZE, "--runtime", str(RUNTIME_S), "--ramp", "0", "--json"]
ONE_POINT = ["--vary", "bs=4k"]
THREE_POINTS = ["--vary", "bs=4k,8k,16k"]


class CpuMeter:
    """CPU seconds used by this bench and everything it starts once entered (the hosts' sshd and all below them):
    this process moved into a cgroup of its own; nan where none can be made."""

    def __init__(self) -> None:
        v1 = Path("/sys/fs/cgroup/cpuacct")
        self.parent = v1 if (v1 / "cpuacct.usage").exists() else Path("/sys/fs/cgroup")
        self.group = self.parent / f"ssdprof-bench-{os.getpid()}"
        self.entered = False
        self.last_s = float("nan")
        """What the last timed command cost."""

    def __enter__(self) -> Self:
        try:
            self.group.mkdir()
            (self.group / "cgroup.procs").write_text(str(os.getpid()))
            self.entered = True
        except OSError as exc:
            print(f"(no CPU figures: cannot make a cgroup here: {exc})")
        return self

    def __exit__(self, *_: object) -> None:
        if self.entered:
            (self.parent / "cgroup.procs").write_text(str(os.getpid()))
            with contextlib.suppress(OSError):  # a process the hosts left still in it: their own clean-up says so
                self.group.rmdir()

    def seconds(self) -> float:
        if not self.entered:
            return float("nan")
        if (self.group / "cpuacct.usage").exists():
            return int((self.group / "cpuacct.usage").read_text()) / 1e9
        return int((self.group / "cpu.stat").read_text().split()[1]) / 1e6  # cgroup v2: usage_usec first


CPU = CpuMeter()


def timed(argv: list[str]) -> tuple[float, dict[str, Any]]:
    started, cpu = time.monotonic(), CPU.seconds()
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    CPU.last_s = CPU.seconds() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:6])} ... failed: {done.stderr.strip()[-500:]}")
    return seconds, json.loads(done.stdout)


def remote_sweep(hosts: Any, aliases: list[str], points: list[str], db: Path) -> tuple[float, list[float]]:
    dirs = [f"--remote-dir={a}={hosts.host_dirs[a]}" for a in aliases]
    wall, out = timed([sys.executable, "-m", "ssdprof", "sweep", *(f"--host={a}" for a in aliases), *dirs, *SWEEP, *points,
                       "--ssh-config", str(hosts.ssh_config_path), "--db", str(db)])
    return wall, [run["start_skew_ms"] for run in out["runs"] if run.get("start_skew_ms") is not None]


def local_sweep(hosts: Any, points: list[str], db: Path) -> float:
    wall, _ = timed([sys.executable, "-m", "ssdprof", "sweep", "--target", str(hosts.host_dirs["h1"]), *SWEEP, *points, "--db", str(db)])
    return wall


def first_io_check(hosts: Any, n: int, scratch: Path) -> tuple[float, float, float]:
    """One 1 s point on n hosts through Launch, fio's latency log on: (gates' spread, first I/Os' spread, latest lag), ms."""
    ssh = Ssh(SshSettings(config=hosts.ssh_config_path, leftovers=scratch / "leftovers"))
    aliases = hosts.aliases[:n]
    addresses = [parse_host(a) for a in aliases]
    commands = {}
    for alias in aliases:
        data = Path(hosts.host_dirs[alias]) / "first-io.dat"
        subprocess.run(["fio", "--name=layout", f"--filename={data}", "--size=16MiB", "--rw=write", "--bs=1M", "--output-format=json"],
                       capture_output=True, check=True)
        commands[alias] = FioCommand(["fio", "--output-format=json+", "--name=ssdprof", f"--filename={data}", "--rw=randread", "--bs=4k",
                                      "--ioengine=libaio", "--direct=1", "--iodepth=2", "--runtime=1", "--time_based=1",
                                      f"--write_lat_log={scratch / alias}", "--log_unix_epoch=1"], jobs=1)
    ssh.open_masters(addresses)
    try:
        ssh.wait_masters()
        launch = Launch(ssh, addresses)
        try:
            runs = launch.run(commands, ramp_s=0, duration_s=1, on_progress=None, cancel=threading.Event())
        finally:
            launch.end()
    finally:
        ssh.close_masters()
    gates_ms, lags_ms, first_ms = start_skew_ms(runs) or 0.0, [], []
    for run in runs:
        alias = run.host.name
        with open(f"{scratch / alias}_lat.1.log") as log:
            first = min(int(line.split(",")[0]) - int(line.split(",")[1]) / 1e6 for line in list(log)[:8])  # ms, CLOCK_REALTIME
        first_ms.append(first)
        lags_ms.append(first - run.began_ns[0] / 1e6)
        Path(f"{scratch / alias}_lat.1.log").unlink()
        (Path(hosts.host_dirs[alias]) / "first-io.dat").unlink()
    return gates_ms, max(first_ms) - min(first_ms), max(lags_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hosts", default="1,2,4,8,16", help="host counts to measure, comma-separated")
    args = parser.parse_args()
    compileall.compile_dir(str(Path(__file__).resolve().parent.parent / "engine" / "ssdprof"), quiet=1, workers=0)
    counts = [int(n) for n in args.hosts.split(",")]
    rows, checks = [], []
    cpus = []
    with CPU, ssh_hosts(max(counts)) as hosts, tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "r.db"
        for n in counts:  # local and remote alternate, so a busy machine hurts them alike
            l1 = local_sweep(hosts, ONE_POINT, db)
            l1_cpu = CPU.last_s
            r1, _ = remote_sweep(hosts, hosts.aliases[:n], ONE_POINT, db)
            cpus.append((n, r1, CPU.last_s, l1, l1_cpu))
            l3 = local_sweep(hosts, THREE_POINTS, db)
            r3, skews = remote_sweep(hosts, hosts.aliases[:n], THREE_POINTS, db)
            per_point = ((r3 - r1) - (l3 - l1)) / 2
            checks.append((n, *first_io_check(hosts, n, Path(scratch))))
            rows.append((n, r1, r3, l1, l3, per_point, (r1 - l1) - per_point,
                         statistics.median(skews) if skews else float("nan"), max(skews, default=float("nan"))))
    print(f"{'hosts':>5} {'R1 s':>6} {'R3 s':>6} {'L1 s':>6} {'L3 s':>6} {'overhead/point s':>17} {'one-time s':>10} {'skew ms':>8} "
          f"{'max ms':>7}")
    for n, r1, r3, l1, l3, per_point, once, skew, worst in rows:
        print(f"{n:>5} {r1:>6.2f} {r3:>6.2f} {l1:>6.2f} {l3:>6.2f} {per_point:>17.2f} {once:>10.2f} {skew:>8.1f} {worst:>7.1f}")
    print("\none point: wall clock and CPU (everything the sweep started, the hosts' side too), remote R1 and local L1")
    print(f"{'hosts':>5} {'R1 s':>6} {'R1 CPU s':>9} {'L1 s':>6} {'L1 CPU s':>9} {'R1-L1 s':>8} {'CPU floor s':>12}")
    for n, r1, r1_cpu, l1, l1_cpu in cpus:
        print(f"{n:>5} {r1:>6.2f} {r1_cpu:>9.2f} {l1:>6.2f} {l1_cpu:>9.2f} {r1 - l1:>8.2f} {(r1_cpu - l1_cpu) / (os.cpu_count() or 1):>12.2f}")
    print("\nstart skew against fio's own first I/O (its latency log, whole ms): one point per host count, jobs=1")
    print(f"{'hosts':>5} {'gates ms':>9} {'first I/Os ms':>14} {'latest lag ms':>14}")
    for n, gates, first, lag in checks:
        print(f"{n:>5} {gates:>9.1f} {first:>14.1f} {lag:>14.1f}")
    n, *_, per_point, _, skew, _ = rows[-1]
    print(f"at {n} hosts: overhead per point {per_point:.2f} s (goal <= 2 s: {'MET' if per_point <= 2 else 'NOT MET'}), "
          f"start skew {skew:.1f} ms (goal <= 10 ms: {'MET' if skew <= 10 else 'NOT MET'})")
    print(f"machine load while measuring (1-min average): {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
