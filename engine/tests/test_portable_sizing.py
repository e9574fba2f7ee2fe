"""One worker process per queue unless a probe on the real target shows one core cannot keep it full."""

from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest

from ssdprof.portable import aio
from ssdprof.portable.lanes import IoShape, plan_lanes
from ssdprof.portable.sizing import CORE_BOUND_SHARE, PYTHON_BOUND_SHARE, ProbeShares, QueueSizing, probe_queue, size_queue


def test_a_queue_that_left_the_core_idle_stays_in_one_process() -> None:
    assert size_queue(ProbeShares(0.4, 0.3), outstanding_ios=32, cores=8) == QueueSizing(1, ProbeShares(0.4, 0.3))
    assert size_queue(None, outstanding_ios=32, cores=8).workers == 1


def test_a_core_busy_in_the_kernel_stays_in_one_process_as_fio_does() -> None:
    # e.g. a virtual disk whose every submission waits for the hypervisor: a core's worth of system time
    assert size_queue(ProbeShares(0.98, 0.1), outstanding_ios=32, cores=8).workers == 1


def test_a_core_saturated_by_python_spreads_the_queue_over_every_core_but_not_thinner_than_one_io() -> None:
    assert size_queue(ProbeShares(CORE_BOUND_SHARE, PYTHON_BOUND_SHARE), outstanding_ios=32, cores=8).workers == 8
    assert size_queue(ProbeShares(0.99, 0.5), outstanding_ios=2, cores=8).workers == 2


def test_the_note_records_the_choice_and_the_probe() -> None:
    assert QueueSizing(2, ProbeShares(0.97, 0.4)).note == (
        "2 worker process(es): one core could not keep the queue full (probe: 0.97 core busy, 0.40 in Python)")
    assert QueueSizing(1, ProbeShares(0.31, 0.1)).note == (
        "1 worker process(es): one core kept the queue full (probe: 0.31 core busy, 0.10 in Python)")
    assert QueueSizing(3).note == "3 worker process(es)"


@pytest.mark.skipif(platform.system() != "Linux" or aio._refusal("io_uring") is not None, reason="io_uring runs here")
def test_the_probe_measures_the_share_of_a_core_on_the_real_file(disk_dir: Path) -> None:
    path = disk_dir / "probe.dat"
    path.write_bytes(os.urandom(8 << 20))
    lanes = tuple(plan_lanes(IoShape(4096, 8 << 20, True, 100, 8, 1), seed=3))
    probe = probe_queue(lanes, "io_uring", path, direct=True, writes=False, system="Linux")
    assert probe is not None and 0 < probe.user <= probe.busy <= 1.2


@pytest.mark.skipif(platform.system() != "Linux" or aio._refusal("io_uring") is not None, reason="io_uring runs here")
def test_a_failing_probe_leaves_the_choice_to_the_measurement(disk_dir: Path) -> None:
    lanes = tuple(plan_lanes(IoShape(4096, 8 << 20, True, 100, 2, 1), seed=3))
    assert probe_queue(lanes, "io_uring", disk_dir / "missing.dat", direct=True, writes=False, system="Linux") is None
