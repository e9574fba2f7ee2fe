"""The parsers on real drives' output (consumer and enterprise NVMe, SATA SSDs; smartctl 7.0, 7.1
and 7.3, nvme-cli 2.3 and 2.11), copied byte for byte from public projects' test data: see
engine/tests/data/health/README.md for each file's source, commit and licence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssdprof.model.health import DriveHealth
from ssdprof.model.results import DirectionStats
from ssdprof.target.health import DATA_UNIT_BYTES, parse_nvme_smart_log, parse_smartctl, snapshot
from ssdprof.target.health_run import health_delta

DATA = Path(__file__).parent.parent / "data" / "health"
MIB_32 = 32 * 1024 * 1024


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def test_a_consumer_nvme_drive_through_smartctl_7_1_gives_bytes_from_data_units() -> None:
    fields = parse_smartctl(load("scrutiny_smartctl71_intel_660p_nvme.json"))
    assert fields["model"] == "INTEL SSDPEKNW010T8" and fields["protocol"] == "NVMe"
    assert fields["data_written_bytes"] == 7_773_431 * DATA_UNIT_BYTES
    assert fields["data_read_bytes"] == 9_511_859 * DATA_UNIT_BYTES
    assert fields["temperature_c"] == 36.0 and fields["power_on_hours"] == 2401
    assert fields["available_spare_pct"] == 100 and fields["available_spare_threshold_pct"] == 10
    assert fields["capacity_bytes"] == 1_024_209_543_168 and fields["logical_block_bytes"] == 512
    assert "nand_written_bytes" not in fields  # no flash counter in the NVMe SMART log


def test_an_enterprise_nvme_controller_asked_without_its_namespace_still_has_its_capacity() -> None:
    fields = parse_smartctl(load("exporter_smartctl73_micron_7450_nvme.json"))
    assert fields["model"] == "Micron_7450_MTFDKCB3T8TFR"
    assert fields["capacity_bytes"] == 3_840_755_982_336  # nvme_total_capacity: no user_capacity
    assert fields["data_written_bytes"] == 27_054_698 * DATA_UNIT_BYTES
    assert fields["host_write_commands"] == 553_708_815 and fields["power_on_hours"] == 150


def test_a_sata_ssd_counts_its_writes_in_logical_blocks_and_gives_its_temperature_limit() -> None:
    fields = parse_smartctl(load("scrutiny_smartctl70_samsung_860evo_sata.json"))
    assert fields["model"] == "Samsung SSD 860 EVO 500GB" and fields["protocol"] == "ATA"
    assert fields["data_written_bytes"] == 64_777_770_148 * 512  # Total_LBAs_Written × 512 B
    assert fields["warning_temp_c"] == 70.0 and fields["temperature_c"] == 36.0
    assert fields["power_on_hours"] == 14551


def test_an_enterprise_sata_ssd_counts_host_and_flash_writes_in_32_mib_units() -> None:
    fields = parse_smartctl(load("exporter_smartctl73_intel_s4510_sata.json"))
    assert fields["model"] == "INTEL SSDSC2KB960G8"
    assert fields["data_written_bytes"] == 215_581 * MIB_32
    assert fields["data_read_bytes"] == 47_096 * MIB_32
    assert fields["nand_written_bytes"] == 2_122_543 * MIB_32
    assert fields["nand_source"] == "ATA attribute 243 NAND_Writes_32MiB"
    assert fields["error_log_entries"] == 0


def test_nvme_cli_2_11_thermal_management_counts_and_critical_warning_object_are_read() -> None:
    fields = parse_nvme_smart_log(load("netdata_nvmecli211_firecuda530_smart_log.json"))
    assert fields["thermal_transitions"] == [3, 0] and fields["thermal_time_s"] == [1474, 0]
    assert fields["critical_warning"] == 0 and fields["critical_warnings"] == []
    assert fields["temperature_c"] == pytest.approx(50.85)  # 324 K
    assert fields["data_written_bytes"] == 1_928_683_480 * DATA_UNIT_BYTES
    assert fields["percentage_used"] == 30 and fields["error_log_entries"] == 212


def test_nvme_cli_2_3_smart_log_of_the_same_model_reads_the_same_fields() -> None:
    fields = parse_nvme_smart_log(load("netdata_nvmecli23_firecuda530_smart_log.json"))
    assert fields["thermal_transitions"] == [0, 0] and fields["critical_warning"] == 0
    assert fields["temperature_c"] == pytest.approx(36.85)
    assert fields["host_write_commands"] == 1_928_062_610


def sata_snapshot(name: str) -> DriveHealth:
    answer = (0, (DATA / name).read_text(), "")
    return snapshot("/dev/sda", run=lambda argv: answer if argv[0] == "smartctl" else None,
                    sys_root=None)


def test_write_amplification_is_flash_writes_over_the_drives_host_writes() -> None:
    before = sata_snapshot("exporter_smartctl73_intel_s4510_sata.json")
    # the same drive after 10 × 32 MiB from the host and 25 × 32 MiB to its flash
    after = before.model_copy(update={
        "data_written_bytes": before.data_written_bytes + 10 * MIB_32,
        "nand_written_bytes": before.nand_written_bytes + 25 * MIB_32})
    write = DirectionStats(io_bytes=10 * MIB_32)
    delta = health_delta(before, after, DirectionStats(), write, [])
    assert delta.nand_written_bytes == 25 * MIB_32
    assert delta.write_amplification == pytest.approx(2.5)
    assert "drive's own counters" in delta.write_amplification_note


def test_a_drive_without_a_flash_counter_says_so_and_gets_no_figure() -> None:
    before = sata_snapshot("scrutiny_smartctl70_samsung_860evo_sata.json")
    after = before.model_copy(update={"data_written_bytes": before.data_written_bytes + MIB_32})
    delta = health_delta(before, after, DirectionStats(), DirectionStats(io_bytes=MIB_32), [])
    assert delta.write_amplification is None
    assert "exposes no count of its flash (NAND) writes" in delta.write_amplification_note
