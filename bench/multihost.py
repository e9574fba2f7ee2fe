"""Multi-host orchestration: start skew across hosts and overhead per host, on real sshd test hosts.

Goals (issue 5): start skew < 50 ms; orchestration overhead < 1 s per host.
Overhead = (wall time of `ssdprof run` - its ramp + runtime) / hosts, for 1 and 2 hosts, side by side.
Run as root (it makes network namespaces): engine/.venv/bin/python bench/multihost.py [--rounds 3]
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine" / "tests"))

from infra.netns_hosts import ssh_hosts

RUNTIME_S = 2


def one_run(hosts: object, aliases: list[str], db: Path) -> tuple[float, float | None]:
    dirs = [f"--remote-dir={a}={hosts.host_dirs[a]}" for a in aliases]  # type: ignore[attr-defined]
    argv = [sys.executable, "-m", "ssdprof", "run", *(f"--host={a}" for a in aliases), *dirs, "--size", "32MiB",
            "--runtime", str(RUNTIME_S), "--ramp", "0", "--json", "--ssh-config", str(hosts.ssh_config_path), "--db", str(db)]  # type: ignore[attr-defined]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.monotonic() - started
    return wall, json.loads(done.stdout)["start_skew_ms"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with ssh_hosts(2) as hosts, tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "r.db"
        results: dict[int, list[tuple[float, float | None]]] = {1: [], 2: []}
        for _ in range(args.rounds):
            for n in (1, 2):
                results[n].append(one_run(hosts, hosts.aliases[:n], db))
    print(f"{'hosts':>5} {'wall s':>7} {'overhead s/host':>16} {'start skew ms':>14}   (median of {args.rounds})")
    for n, rows in results.items():
        wall = statistics.median(w for w, _ in rows)
        skews = [s for _, s in rows if s is not None]
        skew = statistics.median(skews) if skews else 0.0
        print(f"{n:>5} {wall:>7.2f} {(wall - RUNTIME_S) / n:>16.2f} {skew:>14.1f}")
    wall2 = statistics.median(w for w, _ in results[2])
    skew2 = statistics.median(s for _, s in results[2] if s is not None)
    print(f"start skew (2 hosts): {skew2:.1f} ms, goal < 50 ms: {'MET' if skew2 < 50 else 'NOT MET'}")
    print(f"overhead per host (2 hosts): {(wall2 - RUNTIME_S) / 2:.2f} s, goal < 1 s: {'MET' if (wall2 - RUNTIME_S) / 2 < 1 else 'NOT MET'}")
    wall1 = statistics.median(w for w, _ in results[1])
    print(f"  of which fixed (1 host: CLI start, probe, test-file layout, launch, clean-up): {wall1 - RUNTIME_S:.2f} s; "
          f"each further host adds {wall2 - wall1:.2f} s")


if __name__ == "__main__":
    main()
