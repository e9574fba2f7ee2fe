"""The run CSV's drive columns: the drive's identity, temperatures, its count of the bytes written,
seconds throttled and write amplification, empty where the drive's word was not recorded."""

from __future__ import annotations

import csv
import io

from conftest import FIO_DATA

from ssdprof.model.health import DriveHealth, HealthDelta, HealthRecord
from ssdprof.store.interchange import DRIVE_COLUMNS, export_csv, import_fio_output

BEFORE = DriveHealth(device="/dev/sda", model="INTEL SSDSC2KB960G8", firmware="XCV10132",
                     serial="PHYF0001", temperature_c=23.0, sources=["smartctl"])
AFTER = BEFORE.model_copy(update={"temperature_c": 31.0})
DELTA = HealthDelta(written_bytes=335_544_320, thermal_time_s=14, temperature_before_c=23.0,
                    temperature_after_c=31.0, temperature_max_c=33.5,
                    nand_written_bytes=838_860_800, write_amplification=2.5,
                    write_amplification_note="flash writes / host writes")


def rows(with_health: bool) -> list[dict[str, str]]:
    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")[0]
    record = HealthRecord(before=BEFORE, after=AFTER, delta=DELTA) if with_health else None
    run = run.model_copy(update={"id": 1, "drive_health": record})
    return list(csv.DictReader(io.StringIO(export_csv([run]))))


def test_a_run_with_the_drives_word_carries_identity_temperatures_bytes_and_amplification() -> None:
    row = rows(with_health=True)[0]
    assert (row["drive_model"], row["drive_firmware"], row["drive_serial"]) == (
        "INTEL SSDSC2KB960G8", "XCV10132", "PHYF0001")
    assert (row["drive_temp_before_c"], row["drive_temp_after_c"], row["drive_temp_max_c"]) == (
        "23.0", "31.0", "33.5")
    assert row["drive_written_bytes"] == "335544320" and row["drive_throttled_s"] == "14"
    assert row["drive_write_amplification"] == "2.500"


def test_a_run_without_the_drives_word_leaves_the_drive_columns_empty() -> None:
    row = rows(with_health=False)[0]
    assert all(row[column] == "" for column in DRIVE_COLUMNS)
