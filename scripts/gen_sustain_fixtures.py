"""Records the Sustained writes view's test fixtures from the real engine, asked through the RPC
exactly as the GUI asks, on real fio against a test file on the local disk (run as root, Linux).

    engine/.venv/bin/python scripts/gen_sustain_fixtures.py

Writes ``src/test/sustain-estimate.json`` (``sustain.estimate``) and ``src/test/sustain-flat.json``
(``sustain.get``): a short test on this machine's virtual disk, which keeps its speed, so no cliff.
And ``src/test/sustain-cliff.json``: a test whose writes the kernel throttles as a drive with an SLC
cache would slow down. This process runs in a blkio cgroup (v1) of its own, whose write limit on the
test file's disk is 200 MB/s until 1.5 GiB of the fill are written, then 50 MB/s; during each idle
interval it is raised again, and the next write runs fast for 64 MiB per second idle before it is
lowered (the cgroup's own byte count, read every 10 ms, decides when). The engine knows nothing of
this: the phases, cliff and recovery are its answer to what the disk did.

Measured numbers differ from run to run, so the files are not compared with a new run;
``engine/tests/report/test_sustain_report.py`` checks that they still parse as the contract's
models.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from ssdprof.app.rpc import EngineService, handle_message

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "test"
BLKIO = Path("/sys/fs/cgroup/blkio")
FLAT = {"pattern": "randwrite", "block_size_bytes": "4k", "queue_depth": 1, "size_bytes": "256m",
        "write_bytes": "1g", "idle_s": ["1s", "3s"], "recovery_bytes": "128m", "engine": "fio"}
CLIFF = {"size_bytes": "1g", "write_bytes": "3g", "idle_s": ["4s", "10s"], "recovery_bytes": "768m",
         "engine": "fio"}
FAST_BYTES_PER_S, SLOW_BYTES_PER_S = 200_000_000, 50_000_000
CACHE_BYTES = 3 << 29
RECOVERED_BYTES_PER_IDLE_S = 64 << 20


class Throttle:
    """A blkio cgroup holding this process (and the fio it starts) with a write limit on one disk."""

    def __init__(self, folder: Path) -> None:
        device = Path(f"/sys/dev/block/{os.major(folder.stat().st_dev)}:{os.minor(folder.stat().st_dev)}")
        if (device / "partition").exists():
            device = device.resolve().parent  # limits apply to whole disks
        self.device = (device / "dev").read_text().strip()
        self.group = BLKIO / f"ssdprof-fixture-{os.getpid()}"
        self.group.mkdir()
        (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def limit(self, bytes_per_s: int) -> None:
        (self.group / "blkio.throttle.write_bps_device").write_text(f"{self.device} {bytes_per_s}")

    def written(self) -> int:
        for line in (self.group / "blkio.throttle.io_service_bytes").read_text().splitlines():
            parts = line.split()
            if parts[:2] == [self.device, "Write"]:
                return int(parts[2])
        return 0

    def close(self) -> None:
        (BLKIO / "cgroup.procs").write_text(str(os.getpid()))
        self.group.rmdir()


class Cache:
    """Plays a drive's SLC cache through the throttle, driven by the engine's own events."""

    def __init__(self, throttle: Throttle) -> None:
        self.throttle = throttle
        self.budget = CACHE_BYTES
        self.since = 0
        self.fast = True
        self.idle_step = 0
        self.done = threading.Event()
        self.lock = threading.Lock()
        throttle.limit(FAST_BYTES_PER_S)

    def on_event(self, event: dict[str, Any]) -> None:
        with self.lock:
            if event["kind"] == "sustain_idle" and event["recovery_step"] != self.idle_step:
                self.idle_step = event["recovery_step"]  # the first of its events, as the idle begins
                self.budget = int(event["idle_s"] * RECOVERED_BYTES_PER_IDLE_S)
                self.since = self.throttle.written()
                self.fast = True
                self.throttle.limit(FAST_BYTES_PER_S)
            elif event["kind"] == "sustain_step_started":
                self.since = self.throttle.written()

    def watch(self) -> None:
        while not self.done.wait(0.01):
            with self.lock:
                if self.fast and self.throttle.written() - self.since >= self.budget:
                    self.fast = False
                    self.throttle.limit(SLOW_BYTES_PER_S)


def record(request: dict[str, Any], cache: bool = False) -> tuple[Any, Any]:
    """The estimate and the finished test's ``sustain.get``, the scratch folder's path generalised."""
    with tempfile.TemporaryDirectory(dir="/var/tmp" if Path("/var/tmp").is_dir() else None) as scratch:
        folder = Path(scratch)
        throttle = Throttle(folder) if cache else None
        player = Cache(throttle) if throttle else None

        def notify(method: str, payload: BaseModel) -> None:
            if player is not None and method == "sustain.event":
                player.on_event(payload.model_dump(mode="json")["event"])

        service = EngineService(folder / "results.sqlite3", notify, default_dir=folder)
        watcher = threading.Thread(target=player.watch, daemon=True) if player else None
        try:
            def call(method: str, params: dict[str, Any]) -> Any:
                message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
                reply = handle_message(service, message)
                assert "error" not in reply, reply
                return reply["result"]

            asked = {"target": str(folder), **request}
            estimate = call("sustain.estimate", asked)
            if watcher:
                watcher.start()
            started = call("sustain.start", asked)
            while call("sustain.status", {})["running"]:
                time.sleep(0.5)
            result = call("sustain.get", {"sustain_id": started["sustain_id"]})
        finally:
            service.close()
            if player and watcher:
                player.done.set()
                watcher.join()
            if throttle:
                throttle.close()
        general = json.loads(json.dumps([estimate, result]).replace(scratch, "/var/tmp/ssdprof-fixture"))
    return general[0], general[1]


def main() -> None:
    estimate, flat = record(FLAT)
    _, cliff = record(CLIFF, cache=True)
    for name, data in (("sustain-estimate.json", estimate), ("sustain-flat.json", flat),
                       ("sustain-cliff.json", cliff)):
        (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
