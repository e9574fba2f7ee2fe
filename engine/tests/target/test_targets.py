import re
from pathlib import Path

import pytest

from ssdprof.model.workload import WorkloadError, parse_workload
from ssdprof.target.plan import TEST_FILE_PREFIX, TargetKind, direct_io_refusal, plan_target, remove_stale_test_files, remove_test_file


def field_of(error: pytest.ExceptionInfo[WorkloadError]) -> str:
    return error.value.problems[0].field


def test_a_directory_gets_a_test_file_of_ours_that_is_removed_afterwards(disk_dir: Path) -> None:
    plan = plan_target(parse_workload({"target": str(disk_dir)}))
    assert plan.kind is TargetKind.DIRECTORY and plan.created_by_us
    assert plan.path.parent == disk_dir and plan.path.name.startswith(TEST_FILE_PREFIX)
    plan.path.write_bytes(b"x")
    remove_test_file(plan)
    assert not plan.path.exists()


def test_a_missing_target_names_the_target_field() -> None:
    with pytest.raises(WorkloadError, match="does not exist") as caught:
        plan_target(parse_workload({"target": "/no/such/place"}))
    assert field_of(caught) == "target"


def test_a_size_larger_than_free_space_is_refused_before_anything_is_written(disk_dir: Path) -> None:
    with pytest.raises(WorkloadError, match="does not fit") as caught:
        plan_target(parse_workload({"target": str(disk_dir), "size_bytes": "1000000GiB"}))
    assert field_of(caught) == "size_bytes"
    # the size as typed, the free space as a measured amount (three figures, decimal: '61.0 GB free', not '58157MiB')
    assert re.search(r"1000000GiB does not fit: .* has \d[\d.]* [TGM]?B free \(keeping \d+\w+ spare\)", str(caught.value))
    assert list(disk_dir.iterdir()) == []


def test_an_unwritable_directory_is_refused() -> None:
    with pytest.raises(WorkloadError, match="not writable") as caught:
        plan_target(parse_workload({"target": "/proc/self"}))
    assert field_of(caught) == "target"


def test_writing_into_a_users_existing_file_needs_consent(disk_dir: Path) -> None:
    precious = disk_dir / "thesis.dat"
    precious.write_bytes(b"\1" * 65536)
    with pytest.raises(WorkloadError, match="--allow-overwrite") as caught:
        plan_target(parse_workload({"target": str(precious), "pattern": "randwrite", "size_bytes": 4096}))
    assert field_of(caught) == "allow_overwrite"
    assert precious.read_bytes() == b"\1" * 65536
    reading = plan_target(parse_workload({"target": str(precious), "size_bytes": 65536}))
    assert reading.kind is TargetKind.FILE and not reading.created_by_us
    remove_test_file(reading)
    assert precious.exists()


def test_reading_more_than_an_existing_file_holds_is_refused(disk_dir: Path) -> None:
    small = disk_dir / "small.dat"
    small.write_bytes(b"\0" * 4096)
    with pytest.raises(WorkloadError, match="larger than the file"):
        plan_target(parse_workload({"target": str(small), "size_bytes": "1MiB"}))


def test_block_device_writes_need_consent_and_reads_do_not() -> None:
    device = next((p for p in (Path("/dev/loop0"), Path("/dev/zram0")) if p.exists()), None)
    if device is None:
        pytest.skip("no block device node to try")
    with pytest.raises(WorkloadError) as caught:
        plan_target(parse_workload({"target": str(device), "pattern": "randwrite", "size_bytes": 4096}))
    assert field_of(caught) in ("allow_overwrite", "size_bytes", "target")


def test_a_disk_filesystem_accepts_direct_io(disk_dir: Path) -> None:
    assert direct_io_refusal(disk_dir) is None


def test_stale_test_files_of_dead_processes_are_removed_and_live_ones_kept(disk_dir: Path) -> None:
    import os

    dead = disk_dir / f"{TEST_FILE_PREFIX}999999999-abcd.dat"
    alive = disk_dir / f"{TEST_FILE_PREFIX}{os.getpid()}-abcd.dat"
    users = disk_dir / "users-file.dat"
    for path in (dead, alive, users):
        path.write_bytes(b"x")
    assert remove_stale_test_files(disk_dir) == [dead]
    assert alive.exists() and users.exists()
