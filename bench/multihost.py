"""Multi-host orchestration: start skew across hosts and overhead per host, on real sshd test hosts.

Goals (issue 5): start skew < 50 ms; orchestration overhead < 1 s per host.

Two measures of overhead are printed, side by side, for 1 and 2 hosts:
- raw: (wall time of `ssdprof run --host ...` - its runtime) / hosts. It counts everything: the CLI's
  start (~0.5 s here, mostly building the result models), laying out the 32 MiB test file, fio's own
  start-up and the store, which a local run pays too.
- orchestration (judged against the goal): (wall time of the remote run - wall time of the same run
  made locally with `ssdprof run --target`, on the same disk) / hosts. What is left is what reaching
  the hosts costs: SSH connections, a login shell per session, probing, the barrier, collecting and
  removing. The local run's layout is the same fio command writing the same file, so subtracting it is
  the honest way to leave the layout out. The layout alone (fio on a host, no SSH) is printed as well.

The test hosts' login shell is root's, whose .bashrc runs pyenv: ~0.2 s per SSH session, twice per host
(the keeper and the run). Runs alternate local / 1 host / 2 hosts, so a busy machine hurts them alike.
Run as root (it makes network namespaces): engine/.venv/bin/python bench/multihost.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine" / "tests"))

from infra.netns_hosts import ssh_hosts

RUNTIME_S = 2
SIZE = "32MiB"
SIZE_BYTES = 32 * 2**20
COMMON = ["--size", SIZE, "--runtime", str(RUNTIME_S), "--ramp", "0", "--json"]


def timed(argv: list[str]) -> tuple[float, dict[str, Any]]:
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.monotonic() - started, json.loads(done.stdout)


def remote_run(hosts: Any, aliases: list[str], db: Path) -> tuple[float, float | None]:
    dirs = [f"--remote-dir={a}={hosts.host_dirs[a]}" for a in aliases]
    wall, run = timed([sys.executable, "-m", "ssdprof", "run", *(f"--host={a}" for a in aliases), *dirs, *COMMON,
                       "--ssh-config", str(hosts.ssh_config_path), "--db", str(db)])
    return wall, run["start_skew_ms"]


def local_run(hosts: Any, db: Path) -> float:
    wall, _ = timed([sys.executable, "-m", "ssdprof", "run", "--target", str(hosts.host_dirs["h1"]), *COMMON, "--db", str(db)])
    return wall


def layout_only(hosts: Any) -> float:
    """The layout fio command ssdprof runs, on a host without SSH: what any run pays for its test file."""
    path = f"{hosts.host_dirs['h1']}/ssdprof-testfile-bench.dat"
    started = time.monotonic()
    hosts.run_in("h1", ["fio", "--name=layout", f"--filename={path}", f"--size={SIZE_BYTES}", "--rw=write", "--bs=1M",
                        "--ioengine=psync", "--direct=1", "--refill_buffers=1", "--end_fsync=1", "--output-format=json"])
    seconds = time.monotonic() - started
    Path(path).unlink(missing_ok=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    walls: dict[int, list[float]] = {0: [], 1: [], 2: []}
    skews: list[float] = []
    layouts: list[float] = []
    with ssh_hosts(2) as hosts, tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "r.db"
        for _ in range(args.rounds):
            walls[0].append(local_run(hosts, db))
            layouts.append(layout_only(hosts))
            for n in (1, 2):
                wall, skew = remote_run(hosts, hosts.aliases[:n], db)
                walls[n].append(wall)
                if n == 2 and skew is not None:
                    skews.append(skew)
    wall = {n: statistics.median(w) for n, w in walls.items()}
    print(f"local run (same workload, same disk): {wall[0]:.2f} s wall; of which laying out the {SIZE} test file "
          f"{statistics.median(layouts):.2f} s   (medians of {args.rounds})")
    print(f"{'hosts':>5} {'wall s':>7} {'raw overhead s/host':>20} {'orchestration s/host':>21}")
    for n in (1, 2):
        print(f"{n:>5} {wall[n]:>7.2f} {(wall[n] - RUNTIME_S) / n:>20.2f} {(wall[n] - wall[0]) / n:>21.2f}")
    skew = statistics.median(skews) if skews else float("nan")
    per_host = (wall[2] - wall[0]) / 2
    print(f"start skew (2 hosts): {skew:.1f} ms, goal < 50 ms: {'MET' if skew < 50 else 'NOT MET'}")
    print(f"orchestration overhead per host (2 hosts, over a local run): {per_host:.2f} s, goal < 1 s: "
          f"{'MET' if per_host < 1 else 'NOT MET'}")
    print(f"raw overhead per host (2 hosts, wall - runtime, CLI start and layout included): {(wall[2] - RUNTIME_S) / 2:.2f} s; "
          f"each further host adds {wall[2] - wall[1]:.2f} s")


if __name__ == "__main__":
    main()
