"""Issue 27's acceptance check: a sustained write on the lab node's throttled disk, reached as an
SSH host through ssdprof's own command line. QEMU lowers the disk's write limit once the guest has
written a set number of bytes (read from QEMU's own counter: no work in the guest), raises it again
while the test idles, and lowers it once more part-way through the recovery write. ssdprof must
place the cliff within 5 % of those bytes, report both speeds within 5 % of the limits, and the
recovery write's fast part within 5 % of the bytes written before the second lowering. About 100 s
after the node's boot (npm test runs it: lab_quick)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.lab_node import LabNode

pytestmark = [requires_fio, pytest.mark.timeout(900), pytest.mark.lab_quick]

SERIAL = "SSDPROF-THR"
MIB = 1 << 20
FAST_S = 12
"""Seconds the fill writes at the high limit before it is lowered: the 'cache'."""
SLOW_S = 15
RECOVERED_S = 4
"""Seconds of the recovery write at the high limit before it is lowered again."""
RECOVERY_SLOW_S = 6
IDLE_S = 8
MAX_HIGH_BYTES_PER_S = 100_000_000
"""Enough to tell the phases apart; more only adds bytes for the guest's CPU to copy."""
POLL_S = 0.05
RECORD_ENV = "SSDPROF_SUSTAIN_RECORD"
"""A file to keep the run's series in, with the limits and byte counts (tests/data/sustain/)."""


@pytest.fixture
def throttled(lab_node_session: LabNode) -> Iterator[tuple[LabNode, str]]:
    """The node and its throttled disk; the disk's IOPS limit is put back afterwards."""
    iops = lab_node_session.throttle_iops
    yield lab_node_session, lab_node_session.disk_path(SERIAL)
    lab_node_session.set_throttle(iops)


def ssdprof(node: LabNode, *args: str, db: Path) -> subprocess.CompletedProcess[str]:
    argv = [
        sys.executable,
        "-m",
        "ssdprof",
        *args,
        "--ssh-config",
        str(node.ssh_config_path),
        "--db",
        str(db),
    ]
    env = {**os.environ, "XDG_DATA_HOME": str(db.parent / "data")}
    return subprocess.run(argv, capture_output=True, text=True, timeout=800, check=False, env=env)


def write_ceiling(node: LabNode, device: str, db: Path) -> float:
    """What the guest drives into the disk with no limit (1 MiB writes, QD 8), in bytes/s."""
    node.set_write_limit(0)
    done = ssdprof(
        node,
        "run",
        "--host",
        node.alias,
        "--remote-device",
        f"{node.alias}={device}",
        "--size",
        "256MiB",
        "--rw",
        "write",
        "--bs",
        "1MiB",
        "--qd",
        "8",
        "--runtime",
        "3",
        "--ramp",
        "1",
        "--allow-overwrite",
        "--json",
        db=db,
    )
    assert done.returncode == 0, done.stderr
    return float(json.loads(done.stdout)["write"]["bw_bytes_per_s"])


@dataclass
class LimitScript:
    """QEMU's side of the test, run beside ssdprof: the high limit until the fill has written
    ``cache_bytes``, the low limit until the fill is over (the counter still for a second past
    ``fill_bytes``), the high limit again while idle, the low limit once the recovery write has
    written ``recovered_bytes``. Each change is recorded with the counter just before and after
    it."""

    node: LabNode
    high: int
    low: int
    cache_bytes: int
    fill_bytes: int
    recovered_bytes: int
    changes: list[tuple[str, int, int]] = field(default_factory=list)
    """(what, bytes since the fill's start before the change, after it)."""
    error: BaseException | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        try:
            base = self.node.written_bytes()
            self._change("lowered", base, self.low, until=lambda n: n >= self.cache_bytes)
            self._change("raised", base, self.high, until=self._idle_after_fill())
            recovery = base + self.changes[-1][2]
            self._change(
                "lowered again", recovery, self.low, until=lambda n: n >= self.recovered_bytes
            )
        except BaseException as exc:  # read by the test: a thread's failure must not pass silently
            self.error = exc

    def _idle_after_fill(self) -> Callable[[int], bool]:
        still = {"bytes": -1, "since": time.monotonic()}

        def idle(written: int) -> bool:
            if written != still["bytes"]:
                still["bytes"], still["since"] = written, time.monotonic()
            return written >= self.fill_bytes and time.monotonic() - still["since"] >= 1.0

        return idle

    def _change(self, what: str, base: int, limit: int, *, until: Callable[[int], bool]) -> None:
        while not until(written := self.node.written_bytes() - base):
            if self.stop.wait(POLL_S):
                raise RuntimeError(f"ssdprof ended before the limit was {what}")
        self.node.set_write_limit(limit)
        self.changes.append((what, written, self.node.written_bytes() - base))


def record(path: str | None, script: LimitScript, result: dict[str, Any]) -> None:
    if not path:
        return
    qemu = subprocess.run(
        ["qemu-system-x86_64", "--version"], capture_output=True, text=True, check=False
    )
    kept = {
        "recorded": time.strftime("%Y-%m-%d"),
        "qemu": qemu.stdout.splitlines()[0],
        "high_bytes_per_s": script.high,
        "low_bytes_per_s": script.low,
        "changes": [
            {"change": what, "bytes_before": before, "bytes_after": after}
            for what, before, after in script.changes
        ],
        "label": result["label"],
        "fill": result["samples"],
        "recovery": {
            key: value for key, value in result["recovery"][0].items() if key != "samples"
        },
        "recovery_samples": result["recovery"][0]["samples"],
    }
    Path(path).write_text(json.dumps(kept, indent=1) + "\n")


def within(value: float, expected: float, rel: float = 0.05) -> bool:
    return abs(value - expected) <= rel * expected


def test_a_write_limit_lowered_after_a_known_byte_count_is_the_cliff_and_raising_it_is_recovery(
    throttled: tuple[LabNode, str], tmp_path: Path
) -> None:
    node, device = throttled
    db = tmp_path / "r.db"
    ceiling = write_ceiling(node, device, db)
    high = int(min(ceiling / 4, MAX_HIGH_BYTES_PER_S)) // 1_000_000 * 1_000_000
    low = high // 3
    assert high >= 15_000_000, (
        f"the guest writes an unlimited disk at only {ceiling / 1e6:.0f} MB/s"
    )
    script = LimitScript(
        node,
        high,
        low,
        cache_bytes=FAST_S * high,
        fill_bytes=(FAST_S * high + SLOW_S * low) // MIB * MIB,
        recovered_bytes=RECOVERED_S * high,
    )
    node.set_write_limit(high)
    watcher = threading.Thread(target=script.run, daemon=True, name="qmp-limits")
    watcher.start()
    try:
        done = ssdprof(
            node,
            "sustain",
            "--host",
            node.alias,
            "--remote-device",
            f"{node.alias}={device}",
            "--size",
            "256MiB",
            "--bs",
            "1MiB",
            "--qd",
            "8",
            "--allow-overwrite",
            "--json",
            "--write",
            f"{script.fill_bytes // MIB}MiB",
            "--idle",
            f"{IDLE_S}s",
            "--recovery",
            f"{(script.recovered_bytes + RECOVERY_SLOW_S * low) // MIB}MiB",
            db=db,
        )
    finally:
        script.stop.set()
        watcher.join(10)
    assert done.returncode == 0, done.stderr
    assert script.error is None, (script.error, script.changes)
    result: dict[str, Any] = json.loads(done.stdout)
    record(os.environ.get(RECORD_ENV), script, result)
    report = (
        script.changes,
        high,
        low,
        result["verdict"],
        result["phases"],
        result["recovery"][0]["samples"],
    )
    [(_, lowered_before, lowered_after), _, (_, again_before, again_after)] = script.changes
    verdict = result["verdict"]
    assert verdict["kind"] == "cliff", report
    assert not [n for n in result["notes"] if "mid-run" in n or " ran " in n], (
        "a stop after the bytes is no fault"
    )
    assert lowered_before * 0.95 <= verdict["cache_bytes"] <= lowered_after * 1.05, report
    assert within(verdict["before_bw_bytes_per_s"], high), report
    assert within(verdict["after_bw_bytes_per_s"], low), report
    [row] = result["recovery"]
    assert row["status"] == "done", report
    assert again_before * 0.95 <= row["recovered_bytes"] <= again_after * 1.05, report
    assert within(row["fast_bw_bytes_per_s"], high), report
