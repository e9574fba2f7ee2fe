"""A host's drive read from its session's lines: the same record a local snapshot of the same
answers gives (real tool output from the lab node, engine/tests/data/health)."""

from __future__ import annotations

import json
from pathlib import Path

from ssdprof.model.results import DirectionStats
from ssdprof.remote.drive_word import DriveWord, host_health_warnings
from ssdprof.target.health import DATA_UNIT_BYTES, snapshot

DATA = Path(__file__).parent.parent / "data" / "health"


def one_line(name: str) -> str:
    """A tool's JSON as the wrapper sends it: its line breaks taken out."""
    return (DATA / name).read_text().replace("\r", "").replace("\n", "")


def nvme_lines(when: str, smart_log: str, *, identity: bool, hwmon_milli: int = 50850) -> list[str]:
    lines = [f"ssdprof-health {when} device /dev/nvme0n1",
             f"ssdprof-health {when} smart-log 0 {one_line(smart_log)}",
             f"ssdprof-health-err {when} smart-log "]
    if identity:
        lines += [f"ssdprof-health {when} id-ctrl 0 {one_line('lab_nvme_id_ctrl.json')}",
                  f"ssdprof-health {when} id-ns 0 {one_line('lab_nvme_id_ns.json')}"]
    return [*lines, f"ssdprof-health {when} hwmon {hwmon_milli}"]


def fed(lines: list[str]) -> DriveWord:
    word = DriveWord()
    for line in lines:
        word.feed(line)
    return word


def test_an_nvme_hosts_lines_give_the_snapshot_a_local_run_would_take_of_the_same_answers() -> None:
    word = fed(nvme_lines("before", "lab_nvme_smart_log.json", identity=True))
    answers = {"smart-log": "lab_nvme_smart_log.json", "id-ctrl": "lab_nvme_id_ctrl.json", "id-ns": "lab_nvme_id_ns.json"}
    local = snapshot("/dev/nvme0n1", run=lambda argv: (0, (DATA / answers[argv[1]]).read_text(), ""),
                     sys_root=None, hwmon=lambda: 50.85)
    remote = word.snapshot("before", identity=True)
    assert remote is not None
    assert remote.model_dump(exclude={"taken_at"}) == local.model_dump(exclude={"taken_at"})
    assert remote.model == "QEMU NVMe Ctrl" and remote.temperature_c == 50.85 and remote.temperature_source == "hwmon"


def test_a_write_between_the_readings_is_the_drives_count_of_its_bytes_within_a_data_unit() -> None:
    word = fed([*nvme_lines("before", "lab_nvme_smart_log.json", identity=True),
                *nvme_lines("after", "lab_nvme_smart_log_after_64MiB.json", identity=False)])
    written = 64 * 2**20  # the dd that separates the two real readings
    record = word.record(DirectionStats(), DirectionStats(io_bytes=written))
    assert record is not None and record.delta is not None and record.after is not None
    assert record.delta.written_bytes is not None
    assert abs(record.delta.written_bytes - written) <= DATA_UNIT_BYTES


def test_a_threshold_under_the_drives_temperature_is_a_warning_named_for_its_host() -> None:
    word = fed([*nvme_lines("before", "lab_nvme_smart_log.json", identity=True),
                *nvme_lines("after", "lab_nvme_smart_log_over_threshold.json", identity=False)])
    record = word.record(DirectionStats(), DirectionStats())
    [warning] = [w for w in host_health_warnings("lab", record, 2.0) if w.code == "drive_throttled"]
    assert warning.message.startswith("lab: the drive throttled") and "critical-warning bit 1" in warning.message
    assert "hosts.lab" in warning.concerns and "read.iops" in warning.concerns


def test_a_disk_without_smart_and_a_host_without_the_tools_say_so_and_how_to_get_it() -> None:
    virtio = json.dumps(json.loads((DATA / "lab_smartctl_virtio.json").read_text()))
    word = fed(["ssdprof-health before device /dev/vda", f"ssdprof-health before smartctl 1 {virtio}",
                "ssdprof-health-err before smartctl "])
    record = word.record(DirectionStats(), DirectionStats())
    assert record is not None and not record.before.sources and "reports no SMART" in record.before.missing[0]
    bare = fed(["ssdprof-health before device /dev/sda", "ssdprof-health before smartctl missing"])
    record = bare.record(DirectionStats(), DirectionStats())
    assert record is not None and "apt install smartmontools" in record.before.missing[0]
    [note] = host_health_warnings("h1", record, 1.0)
    assert note.code == "drive_health_missing" and note.message.startswith("h1: the drive's own word was not recorded")


def test_a_host_not_asked_has_no_record_and_odd_lines_are_ignored() -> None:
    word = fed(["ssdprof-health", "ssdprof-health before smart-log x", "ssdprof-health before hwmon warm"])
    assert word.record(DirectionStats(), DirectionStats()) is None
