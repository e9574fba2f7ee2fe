from __future__ import annotations

import platform
from pathlib import Path

import psutil
import pytest

from ssdprof.portable.proof import DiskBytes, cache_warnings, cpu_warnings, disk_of, read_disk_bytes

MB = 1_000_000


def moved(read_bytes: int, write_bytes: int) -> tuple[DiskBytes, DiskBytes]:
    return DiskBytes(10 * MB, 20 * MB, "nvme0n1"), DiskBytes(10 * MB + read_bytes, 20 * MB + write_bytes, "nvme0n1")


def test_reads_the_device_never_saw_mean_a_cache_answered() -> None:
    before, after = moved(read_bytes=30 * MB, write_bytes=0)
    warnings = cache_warnings(before, after, issued_read_bytes=100 * MB, issued_write_bytes=0)
    assert [w.code for w in warnings] == ["cache_answered"]
    assert "only 30 %" in warnings[0].message and "nvme0n1" in warnings[0].message
    assert warnings[0].concerns == ["read.iops", "read.lat_ns"]


def test_writes_are_checked_on_their_own() -> None:
    before, after = moved(read_bytes=100 * MB, write_bytes=50 * MB)
    warnings = cache_warnings(before, after, issued_read_bytes=100 * MB, issued_write_bytes=100 * MB)
    assert [w.concerns[0] for w in warnings] == ["write.iops"]


def test_ninety_percent_reaching_the_device_is_enough() -> None:
    before, after = moved(read_bytes=90 * MB, write_bytes=95 * MB)
    assert cache_warnings(before, after, issued_read_bytes=100 * MB, issued_write_bytes=100 * MB) == []


def test_a_few_megabytes_are_too_few_to_judge_against_background_io() -> None:
    before, after = moved(read_bytes=0, write_bytes=0)
    assert cache_warnings(before, after, issued_read_bytes=1 * MB, issued_write_bytes=0) == []


def test_missing_counters_are_said_plainly_not_guessed() -> None:
    warnings = cache_warnings(None, None, issued_read_bytes=100 * MB, issued_write_bytes=0)
    assert [w.code for w in warnings] == ["device_counters_unavailable"]
    assert warnings[0].severity.value == "info"


def test_an_engine_using_most_of_the_cores_is_flagged() -> None:
    warnings = cpu_warnings(engine_cpu_s=6.0, wall_s=2.0, cpu_count=4)
    assert [w.code for w in warnings] == ["engine_cpu_bound"]
    assert "75 %" in warnings[0].message


def test_an_engine_within_seventy_percent_of_the_cores_is_not_flagged() -> None:
    assert cpu_warnings(engine_cpu_s=5.6, wall_s=2.0, cpu_count=4) == []


@pytest.mark.skipif(platform.system() != "Linux", reason="naming the disk is Linux-only; elsewhere all disks are summed")
def test_the_disk_holding_a_folder_is_one_psutil_counts(disk_dir: Path) -> None:
    disk = disk_of(disk_dir)
    counters = psutil.disk_io_counters(perdisk=True)
    if disk is None or not counters:
        pytest.skip("no block device behind this folder (e.g. an overlay in a container)")
    assert disk in counters
    snapshot = read_disk_bytes(disk)
    assert snapshot is not None and snapshot.source == disk


def test_an_unknown_disk_falls_back_to_the_sum_over_all_disks() -> None:
    if not psutil.disk_io_counters(perdisk=False):
        pytest.skip("this system exposes no disk counters")
    snapshot = read_disk_bytes(None)
    assert snapshot is not None and snapshot.source == "all disks"


def test_other_systems_do_not_guess_a_disk(disk_dir: Path) -> None:
    assert disk_of(disk_dir, system="Darwin") is None
    assert disk_of(disk_dir, system="Windows") is None
