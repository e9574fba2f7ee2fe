"""The drive's own word, parsed from real tool output (engine/tests/data/health, see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssdprof.model.health import DriveHealth, HealthRecord, TemperatureSample
from ssdprof.model.results import DirectionStats
from ssdprof.target.health import (
    DATA_UNIT_BYTES,
    parse_nvme_id_ctrl,
    parse_nvme_id_ns,
    parse_nvme_smart_log,
    parse_smartctl,
    read_hwmon_c,
    snapshot,
)
from ssdprof.target.health_run import health_delta, health_warnings

DATA = Path(__file__).parent.parent / "data" / "health"


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def text(name: str) -> str:
    return (DATA / name).read_text()


def lab_runner(answers: dict[tuple[str, ...], tuple[int, str]]):
    """The real outputs, answered as the tools gave them; a tool not listed is missing."""

    def run(argv: list[str]) -> tuple[int, str, str] | None:
        key = tuple(argv)
        if key not in answers:
            return None
        status, name = answers[key]
        return status, text(name) if name else "", ""

    return run


NVME = "/dev/nvme0n1"
NVME_TOOLS = {
    ("nvme", "smart-log", NVME, "-o", "json"): (0, "lab_nvme_smart_log.json"),
    ("nvme", "id-ctrl", NVME, "-o", "json"): (0, "lab_nvme_id_ctrl.json"),
    ("nvme", "id-ns", NVME, "-o", "json"): (0, "lab_nvme_id_ns.json"),
}


def test_nvme_cli_smart_log_temperature_is_converted_from_kelvin_and_data_units_to_bytes() -> None:
    fields = parse_nvme_smart_log(load("lab_nvme_smart_log_after_64MiB.json"))
    assert fields["temperature_c"] == pytest.approx(49.85)
    assert fields["data_written_bytes"] == 132 * DATA_UNIT_BYTES
    assert fields["host_write_commands"] == 192
    assert fields["thermal_transitions"] == [0, 0] and fields["thermal_time_s"] == [0, 0]
    assert fields["critical_warnings"] == []


def test_64_mib_written_moves_the_drive_count_by_its_size_rounded_up_to_a_data_unit() -> None:
    before = parse_nvme_smart_log(load("lab_nvme_smart_log.json"))["data_written_bytes"]
    after = parse_nvme_smart_log(load("lab_nvme_smart_log_after_64MiB.json"))["data_written_bytes"]
    assert 0 <= (after - before) - 64 * 2**20 < DATA_UNIT_BYTES


def test_an_over_temperature_threshold_below_the_drive_sets_critical_warning_bit_1() -> None:
    fields = parse_nvme_smart_log(load("lab_nvme_smart_log_over_threshold.json"))
    assert fields["critical_warning"] == 2
    assert fields["critical_warnings"] == ["a temperature at or over its threshold"]
    smartctl = parse_smartctl(load("lab_smartctl_nvme_over_threshold.json"))
    assert smartctl["critical_warnings"] == ["a temperature at or over its threshold"]


def test_id_ctrl_gives_identity_trimmed_and_thresholds_in_celsius() -> None:
    fields = parse_nvme_id_ctrl(load("lab_nvme_id_ctrl.json"))
    assert (fields["model"], fields["serial"], fields["firmware"]) == (
        "QEMU NVMe Ctrl", "SSDPROF-NVME-1", "7.2.22")
    assert fields["warning_temp_c"] == pytest.approx(69.85)
    assert fields["critical_temp_c"] == pytest.approx(99.85)
    assert "capacity_bytes" not in fields  # QEMU reports tnvmcap 0: id-ns says it instead


def test_id_ns_gives_the_lba_format_in_use_and_the_capacity() -> None:
    assert parse_nvme_id_ns(load("lab_nvme_id_ns.json")) == {
        "logical_block_bytes": 512, "capacity_bytes": 1 << 30}


def test_smartctl_nvme_json_is_already_celsius_and_counts_data_units() -> None:
    fields = parse_smartctl(load("lab_smartctl_nvme.json"))
    assert fields["protocol"] == "NVMe" and fields["temperature_c"] == 50
    assert fields["capacity_bytes"] == 1 << 30 and fields["logical_block_bytes"] == 512
    assert fields["data_read_bytes"] == DATA_UNIT_BYTES and fields["host_read_commands"] == 4


def test_smartctl_ata_json_gives_identity_temperature_and_error_log() -> None:
    fields = parse_smartctl(load("lab_smartctl_sata.json"))
    assert fields["protocol"] == "ATA" and fields["model"] == "SSDPROF LAB SATA"
    assert fields["serial"] == "SSDPROF-SATA-1" and fields["firmware"] == "2.5+"
    assert fields["temperature_c"] == 31 and fields["power_on_hours"] == 1
    assert fields["error_log_entries"] == 0
    assert "data_written_bytes" not in fields  # ATA attribute 241's units are the vendor's


def test_a_128_bit_counter_beyond_64_bits_stays_exact_through_json() -> None:
    data = load("lab_nvme_smart_log.json")
    data["data_units_written"] = str(2**100)
    written = parse_nvme_smart_log(data)["data_written_bytes"]
    health = DriveHealth(device=NVME, data_written_bytes=written)
    again = DriveHealth.model_validate_json(health.model_dump_json())
    assert again.data_written_bytes == 2**100 * DATA_UNIT_BYTES


def test_an_nvme_snapshot_combines_smart_log_identity_and_namespace() -> None:
    health = snapshot(NVME, run=lab_runner(NVME_TOOLS), sys_root=None)
    assert health.sources == ["nvme-cli"] and health.missing == []
    assert health.model == "QEMU NVMe Ctrl" and health.capacity_bytes == 1 << 30
    assert health.temperature_source == "nvme-cli" and health.temperature_c == pytest.approx(49.85)


def test_hwmon_millidegrees_become_celsius_and_win_over_smart(tmp_path: Path) -> None:
    sensor = tmp_path / "block" / "nvme0n1" / "device" / "hwmon0"
    sensor.mkdir(parents=True)
    (sensor / "temp1_input").write_text(text("lab_hwmon.txt").split()[2] + "\n")
    assert read_hwmon_c(NVME, tmp_path) == pytest.approx(49.85)
    health = snapshot(NVME, run=lab_runner(NVME_TOOLS), sys_root=tmp_path)
    assert health.temperature_source == "hwmon" and health.sources == ["nvme-cli", "hwmon"]


def test_a_virtio_disk_says_it_has_no_smart_and_why() -> None:
    run = lab_runner({("smartctl", "--json", "-a", "/dev/vda"): (1, "host_smartctl_virtio_vda.json")})
    health = snapshot("/dev/vda", run=run, sys_root=None)
    assert health.sources == []
    assert health.missing == [
        "/dev/vda reports no SMART to smartctl (/dev/vda: Unable to detect device type): a virtual "
        "disk has none; the run's own numbers stand"]


def test_missing_tools_say_which_package_to_install() -> None:
    health = snapshot("/dev/sda", run=lab_runner({}), sys_root=None)
    assert health.missing == ["smartctl is not installed: install smartmontools "
                              "(e.g. apt install smartmontools)"]


def test_a_refused_tool_asks_for_root() -> None:
    def refused(argv: list[str]) -> tuple[int, str, str]:
        data = load("lab_smartctl_virtio.json")
        data["smartctl"]["messages"] = [{"string": "Smartctl open device: /dev/sda failed: "
                                                   "Permission denied", "severity": "error"}]
        return 2, json.dumps(data), ""

    health = snapshot("/dev/sda", run=refused, sys_root=None)
    assert "run ssdprof as root" in health.missing[0]


def record(before: str, after: str, written: int) -> HealthRecord:
    first = snapshot(NVME, run=lab_runner({**NVME_TOOLS, ("nvme", "smart-log", NVME, "-o", "json"):
                                           (0, before)}), sys_root=None)
    second = snapshot(NVME, run=lab_runner({**NVME_TOOLS, ("nvme", "smart-log", NVME, "-o", "json"):
                                            (0, after)}), sys_root=None, identity=False)
    write = DirectionStats(io_count=64, io_bytes=written)
    delta = health_delta(first, second, DirectionStats(), write, [TemperatureSample(elapsed_s=1.0, celsius=51.0)])
    return HealthRecord(before=first, after=second, delta=delta)


def test_a_run_that_wrote_64_mib_has_the_drive_agree_and_no_warning() -> None:
    done = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_after_64MiB.json", 64 * 2**20)
    assert done.delta is not None and done.delta.written_bytes == 132 * DATA_UNIT_BYTES
    assert done.delta.temperature_max_c == 51.0
    assert health_warnings(done, 10.0) == []


def test_the_over_temperature_bit_warns_that_the_drive_throttled() -> None:
    done = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_over_threshold.json", 0)
    warning, = health_warnings(done, 10.0)
    assert warning.code == "drive_throttled" and "read.iops" in warning.concerns
    assert warning.message.startswith("the drive throttled during this run (it reports 50 °C at or "
                                      "over a temperature threshold: critical-warning bit 1)")


def test_a_drive_counting_far_fewer_writes_than_the_run_is_noted() -> None:
    done = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_after_64MiB.json", 640 * 2**20)
    warning, = health_warnings(done, 10.0)
    assert warning.code == "drive_write_count" and "67.6 MB written" in warning.message


def test_a_run_without_the_drives_word_carries_a_note_saying_why() -> None:
    health = snapshot("/dev/sda", run=lab_runner({}), sys_root=None)
    note, = health_warnings(HealthRecord(before=health), 10.0)
    assert note.code == "drive_health_missing" and "install smartmontools" in note.message


def test_a_hosts_hwmon_reader_gives_the_temperature_where_this_machines_sysfs_cannot() -> None:
    health = snapshot(NVME, run=lab_runner(NVME_TOOLS), sys_root=None,
                      hwmon=lambda: int(text("lab_hwmon.txt").split()[2]) / 1000)
    assert health.temperature_source == "hwmon" and health.temperature_c == pytest.approx(49.85)
