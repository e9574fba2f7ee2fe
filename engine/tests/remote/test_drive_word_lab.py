"""The drive's own word from an SSH host with a real NVMe controller: the lab node
(infra/lab_node.py) reached through ssdprof's own command line, its NVMe namespace written and read
as a whole device. Its session asks nvme-cli and hwmon before and after each point
(remote/drive_word.py). Under CI=true a missing lab node fails these tests (infra.ci_rule)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.lab_node import LabNode

from ssdprof.target.health import DATA_UNIT_BYTES

pytestmark = [requires_fio, pytest.mark.timeout(900), pytest.mark.lab_quick]
SERIAL = "SSDPROF-NVME-1"
FIRST_THRESHOLD_K = 343
"""QEMU's NVMe over-temperature threshold as it boots (70 °C: its wctemp)."""


@pytest.fixture
def nvme(lab_node_session: LabNode) -> Iterator[tuple[LabNode, str]]:
    """The node and its NVMe namespace; the temperature threshold is put back afterwards."""
    device = lab_node_session.disk_path(SERIAL)
    yield lab_node_session, device
    lab_node_session.run(["nvme", "set-feature", device[: device.rindex("n")], "-f", "4", "-v", str(FIRST_THRESHOLD_K)])


def ssdprof(config: Path, *args: str, db: Path) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ssdprof", *args, "--ssh-config", str(config), "--db", str(db)]
    env = {**os.environ, "XDG_DATA_HOME": str(db.parent / "data")}
    return subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False, env=env)


def host_point(node: LabNode, device: str, rw: str, db: Path) -> dict[str, Any]:
    """One 64 MiB point on the node's namespace as an SSH host, ramp 0 so the run counts every byte it wrote."""
    done = ssdprof(node.ssh_config_path, "run", "--host", node.alias, "--remote-device", f"{node.alias}={device}",
                   "--rw", rw, "--bs", "1MiB", "--qd", "4", "--size", "64MiB", "--runtime", "2", "--ramp", "0",
                   "--allow-overwrite", "--json", db=db)
    assert done.returncode == 0, done.stderr
    run: dict[str, Any] = json.loads(done.stdout)
    return run


def test_an_ssh_hosts_nvme_write_records_its_temperature_and_the_drives_count_of_its_bytes(
        nvme: tuple[LabNode, str], tmp_path: Path) -> None:
    node, device = nvme
    run = host_point(node, device, "write", tmp_path / "r.db")
    health = run["hosts"][0]["drive_health"]
    assert health == run["drive_health"], "one host's drive is the run's"
    before = health["before"]
    assert before["device"] == device and before["model"] == "QEMU NVMe Ctrl" and before["serial"] == SERIAL
    assert before["sources"][:1] == ["nvme-cli"] and before["temperature_source"] == "hwmon"
    assert 20 < before["temperature_c"] < 90 and health["after"]["temperature_c"] is not None
    written = run["write"]["io_bytes"]
    assert written >= 64 * 2**20
    # each counter is rounded up to a data unit, so their difference is within one of the truth
    assert abs(health["delta"]["written_bytes"] - written) <= DATA_UNIT_BYTES
    assert not [w for w in run["warnings"] if w["code"].startswith("drive_")], run["warnings"]


def test_an_ssh_hosts_threshold_set_below_its_temperature_flags_the_next_point_not_the_one_before(
        nvme: tuple[LabNode, str], tmp_path: Path) -> None:
    node, device = nvme
    first = host_point(node, device, "read", tmp_path / "r.db")
    assert not [w for w in first["warnings"] if w["code"] == "drive_throttled"], first["warnings"]
    node.run(["nvme", "set-feature", device[: device.rindex("n")], "-f", "4", "-v", "300"])  # 27 °C
    after = host_point(node, device, "read", tmp_path / "r.db")
    [flagged] = [w for w in after["warnings"] if w["code"] == "drive_throttled"]
    assert flagged["message"].startswith(f"{node.alias}: the drive throttled") and "critical-warning bit 1" in flagged["message"]
    assert "read.iops" in flagged["concerns"] and f"hosts.{node.alias}" in flagged["concerns"]
    assert after["drive_health"]["after"]["critical_warnings"] == ["a temperature at or over its threshold"]
