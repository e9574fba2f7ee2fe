"""The drive's word around a real local run (fio on this machine's disk)."""

from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.runner import Runner
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import parse_workload
from ssdprof.target.health import read_hwmon_c, snapshot

pytestmark = requires_fio


def test_a_run_on_a_disk_without_smart_keeps_its_data_and_says_why_and_how(disk_dir: Path) -> None:
    workload = parse_workload({"target": str(disk_dir), "runtime_s": 1, "ramp_s": 0,
                               "size_bytes": "16MiB", "pattern": "randwrite"})
    result = Runner(None).run_sweep(SweepSpec(name="one", points=[workload])).results[0]
    health = result.drive_health
    assert health is not None and health.before.device == f"/dev/{result.environment.device}"
    if snapshot(health.before.device).sources:
        pytest.skip(f"{health.before.device} answers SMART here: the lab node's tests cover a drive")
    assert result.status == "ok" and result.write.io_count > 0
    assert health.before.missing and health.after is None
    note = next(w for w in result.warnings if w.code == "drive_health_missing")
    assert note.severity.value == "info" and health.before.missing[0] in note.message
    assert ("reports no SMART" in note.message or "install" in note.message
            or "as root" in note.message)
    assert read_hwmon_c(health.before.device) is None or health.temperatures
