"""The drive's own word on a real NVMe controller: ssdprof run on the lab node (infra/lab_node.py),
inside the guest, on its NVMe namespace. The guest shares this machine's root read-only, so it runs
this checkout's engine. Under CI=true a missing lab node fails these tests (infra.ci_rule)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.lab_node import LabNode

from ssdprof.target.health import DATA_UNIT_BYTES

pytestmark = [requires_fio, pytest.mark.timeout(1200)]  # boot (minutes under load) + runs
ENGINE = Path(__file__).resolve().parents[2]
FIRST_THRESHOLD_K = 343
"""QEMU's NVMe over-temperature threshold as it boots (70 °C: its wctemp)."""


@pytest.fixture
def nvme(lab_node_session: LabNode) -> Iterator[tuple[LabNode, str]]:
    """The node and its NVMe namespace; the temperature threshold is put back afterwards."""
    device = lab_node_session.disk_path("SSDPROF-NVME-1")
    yield lab_node_session, device
    lab_node_session.run(["nvme", "set-feature", controller(device), "-f", "4", "-v",
                          str(FIRST_THRESHOLD_K)])


def controller(namespace: str) -> str:
    return namespace[: namespace.rindex("n")]  # /dev/nvme0n1 -> /dev/nvme0


def guest_run(node: LabNode, device: str, rw: str, db: str) -> dict[str, Any]:
    """One 64 MiB-region point in the guest, ramp 0 so the run counts every byte it wrote."""
    argv = ["python3", "-m", "ssdprof", "run", "--target", device, "--rw", rw, "--bs", "1MiB",
            "--qd", "4", "--size", "64MiB", "--runtime", "2", "--ramp", "0",
            "--allow-overwrite", "--db", db, "--json"]
    script = f'cd {ENGINE} && export XDG_DATA_HOME=/tmp/h26-data && exec .venv/bin/"$@"'
    done = node.run(["sh", "-c", script, "ssdprof", *argv], timeout=600)
    return json.loads(done.stdout)


def test_a_write_run_on_nvme_records_hwmon_temperature_and_the_drives_count_of_its_bytes(
    nvme: tuple[LabNode, str],
) -> None:
    node, device = nvme
    run = guest_run(node, device, "write", "/tmp/health-write.db")
    health = run["drive_health"]
    assert health["before"]["temperature_source"] == "hwmon"
    assert 20 < health["before"]["temperature_c"] < 90
    assert health["before"]["model"] == "QEMU NVMe Ctrl"
    assert health["temperatures"], "hwmon sampled every second during the run"
    written = run["write"]["io_bytes"]
    assert written >= 64 * 2**20
    # each counter is rounded up to a data unit, so their difference is within one of the truth
    assert abs(health["delta"]["written_bytes"] - written) <= DATA_UNIT_BYTES
    assert not [w for w in run["warnings"] if w["code"].startswith("drive_")]


def test_a_threshold_below_the_drives_temperature_flags_the_next_run_not_the_one_before(
    nvme: tuple[LabNode, str],
) -> None:
    node, device = nvme
    before = guest_run(node, device, "read", "/tmp/health-read.db")
    assert not [w for w in before["warnings"] if w["code"] == "drive_throttled"]
    node.run(["nvme", "set-feature", controller(device), "-f", "4", "-v", "300"])  # 27 °C
    after = guest_run(node, device, "read", "/tmp/health-read.db")
    flagged = [w for w in after["warnings"] if w["code"] == "drive_throttled"]
    assert flagged and "critical-warning bit 1" in flagged[0]["message"]
    assert "read.iops" in flagged[0]["concerns"]
    assert after["drive_health"]["after"]["critical_warnings"] == [
        "a temperature at or over its threshold"]

