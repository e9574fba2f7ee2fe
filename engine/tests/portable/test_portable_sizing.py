"""One worker process per queue unless a probe on the real target shows one core cannot keep it full."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest

from ssdprof.portable import aio
from ssdprof.portable.lanes import IoShape, plan_lanes
from ssdprof.portable.sizing import (
    WAITING_SHARE_MIN,
    ProbeShares,
    QueueSizing,
    hardware_queues,
    probe_queue,
    queue_bound_warnings,
    size_queue,
)


def test_a_thread_that_often_waited_for_the_device_keeps_the_queue_in_one_process() -> None:
    probe = ProbeShares(busy=0.9, user=0.5, waiting=WAITING_SHARE_MIN)
    assert size_queue(probe, outstanding_ios=32, cores=8) == QueueSizing(1, probe)
    assert size_queue(None, outstanding_ios=32, cores=8).workers == 1


def test_a_thread_that_found_completions_waiting_spreads_the_queue_over_every_core_but_not_thinner_than_one_io() -> None:
    assert size_queue(ProbeShares(busy=1.0, user=0.5, waiting=0.05), outstanding_ios=32, cores=8).workers == 8
    assert size_queue(ProbeShares(busy=1.0, user=0.5, waiting=0.05), outstanding_ios=2, cores=8).workers == 2


def test_direct_io_gets_no_more_processes_than_the_disk_has_hardware_queues() -> None:
    """A disk with one submission queue for both CPUs makes two submitters take turns (measured on this project's virtual
    disk: QD4 74k IOPS in one process, 58k in two)."""
    busy = ProbeShares(busy=1.0, user=0.3, waiting=0.01)
    sizing = size_queue(busy, outstanding_ios=4, cores=2, hardware_queues=1)
    assert sizing.workers == 1 and "the disk has 1 hardware queue(s)" in sizing.note
    assert size_queue(busy, outstanding_ios=32, cores=8, hardware_queues=4).workers == 4
    assert size_queue(busy, outstanding_ios=32, cores=8, hardware_queues=16).workers == 8


def test_the_hardware_queues_are_read_from_sysfs_for_the_disk_holding_the_file(disk_dir: Path) -> None:
    queues = hardware_queues(disk_dir, platform.system())
    if platform.system() != "Linux":
        assert queues is None
        return
    from ssdprof.portable.proof import disk_of

    disk = disk_of(disk_dir)
    assert disk is not None
    assert queues == len([e for e in Path(f"/sys/block/{disk}/mq").iterdir() if e.name.isdigit()]) >= 1


def test_the_note_records_the_choice_and_the_probe() -> None:
    assert QueueSizing(2, ProbeShares(0.97, 0.4, 0.05)).note == (
        "2 worker process(es): one core could not keep the queue full (probe: waited for the device 5 % of the time; "
        "0.97 core busy, 0.40 in Python)")
    assert QueueSizing(1, ProbeShares(0.31, 0.1, 0.6)).note.startswith(
        "1 worker process(es): one core kept the queue full (probe: waited for the device 60 % of the time")
    assert QueueSizing(3).note == "3 worker process(es)"


@pytest.mark.skipif(platform.system() != "Linux" or aio._refusal("io_uring") is not None, reason="io_uring runs here")
def test_the_probe_measures_the_share_of_a_core_on_the_real_file(disk_dir: Path) -> None:
    path = disk_dir / "probe.dat"
    path.write_bytes(os.urandom(8 << 20))
    lanes = tuple(plan_lanes(IoShape(4096, 8 << 20, True, 100, 8, 1), seed=3))
    probe = probe_queue(lanes, "io_uring", path, direct=True, writes=False, system="Linux")
    assert probe is not None and 0 < probe.user <= probe.busy <= 1.2 and 0 <= probe.waiting <= 1


@pytest.mark.skipif(platform.system() != "Linux" or aio._refusal("io_uring") is not None, reason="io_uring runs here")
def test_a_failing_probe_leaves_the_choice_to_the_measurement(disk_dir: Path) -> None:
    lanes = tuple(plan_lanes(IoShape(4096, 8 << 20, True, 100, 2, 1), seed=3))
    assert probe_queue(lanes, "io_uring", disk_dir / "missing.dat", direct=True, writes=False, system="Linux") is None


def test_a_run_is_flagged_as_queue_bound_only_when_every_worker_seldom_waited() -> None:
    assert [w.code for w in queue_bound_warnings({0: 0.1, 1: 0.2}, wall_s=2.0)] == ["engine_queue_bound"]
    assert "10 %" in queue_bound_warnings({0: 0.1, 1: 0.2}, wall_s=2.0)[0].message  # the most any worker waited
    assert queue_bound_warnings({0: 0.1, 1: 0.6}, wall_s=2.0) == []  # one worker waited for the device: it set the pace there
    assert queue_bound_warnings({}, wall_s=2.0) == []  # the synchronous path, or a paced queue
