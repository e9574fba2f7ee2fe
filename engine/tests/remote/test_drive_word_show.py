"""``drive show --host``'s host side: drive_show.sh (with drive_word.sh, as the host gets it) run
by sh on this machine in place of a host, its lines read back by DriveWord into one snapshot."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ssdprof.model.problems import WorkloadError
from ssdprof.remote.addresses import HostError, parse_host
from ssdprof.remote.drive_word import ask_drive
from ssdprof.remote.heartbeat import host_program
from ssdprof.remote.ssh import Ssh

HERE_DISK = next((f"/dev/{p.name}" for p in sorted(Path("/sys/block").iterdir())
                  if not p.name.startswith(("loop", "ram", "zram", "dm-", "md"))), None)


class HereSsh(Ssh):
    """Runs the remote argument list on this machine: the same program, no SSH."""

    def run(self, host, remote, *, timeout_s=60, stdin=None):  # type: ignore[no-untyped-def]
        return subprocess.run(remote, capture_output=True, text=True, timeout=timeout_s,
                              check=False)


def test_the_host_program_carries_the_drive_functions_once() -> None:
    program = host_program("drive_show.sh")
    assert program.count("drive_word() {") == 1 and program.count("whole_disk() {") == 1
    assert host_program("fio_wrapper.sh").count("drive_word() {") == 1


@pytest.mark.skipif(HERE_DISK is None, reason="this machine shows no disk in /sys/block")
def test_a_hosts_disk_is_answered_by_the_same_parsers_with_what_is_missing() -> None:
    health = ask_drive(Path(HERE_DISK).name, host=parse_host("here"), ssh=HereSsh())
    assert health.device == HERE_DISK
    assert health.sources or health.missing  # a virtual disk: no SMART, and the reason said


def test_a_disk_the_host_lacks_is_named_with_how_to_find_one() -> None:
    with pytest.raises(HostError, match="no block device /dev/nosuchdisk there"):
        ask_drive("/dev/nosuchdisk", host=parse_host("here"), ssh=HereSsh())


def test_a_name_that_is_no_disk_name_is_refused_before_any_host_is_asked() -> None:
    with pytest.raises(WorkloadError, match="not a disk name"):
        ask_drive("sda; reboot", host=parse_host("here"), ssh=HereSsh())
