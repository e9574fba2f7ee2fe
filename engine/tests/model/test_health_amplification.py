"""Write amplification's one rule: flash writes over host writes by the drive's counters, for a run
and for a sweep's runs together; none, said in words, where the drive has no flash counter."""

from __future__ import annotations

import pytest

from ssdprof.model.health import HealthDelta
from ssdprof.model.health_amplification import (
    NO_NAND_COUNTER,
    sweep_write_amplification,
    write_amplification,
)


def test_a_drive_without_a_flash_counter_has_no_figure_and_says_so() -> None:
    assert write_amplification(None, 1 << 30, 1 << 30) == (None, NO_NAND_COUNTER)


def test_the_drives_host_count_is_the_denominator_where_it_keeps_one() -> None:
    value, note = write_amplification(3 << 30, 2 << 30, 1 << 30)
    assert value == pytest.approx(1.5) and "drive's own counters" in note


def test_the_runs_own_bytes_stand_in_where_the_drive_counts_no_host_writes() -> None:
    value, note = write_amplification(3 << 30, None, 2 << 30)
    assert value == pytest.approx(1.5) and "the run's own bytes" in note


def test_a_host_count_that_did_not_move_gives_no_figure() -> None:
    value, note = write_amplification(1 << 25, 0, 1 << 20)
    assert value is None and "no host writes" in note


def test_a_sweep_sums_flash_and_host_writes_over_the_runs_that_counted_both() -> None:
    runs = [HealthDelta(written_bytes=100, nand_written_bytes=300),
            HealthDelta(written_bytes=300, nand_written_bytes=500),
            HealthDelta(written_bytes=50), None]
    value, note = sweep_write_amplification(runs)
    assert value == pytest.approx(2.0) and "over 2 of 4 run(s)" in note


def test_a_sweep_on_a_drive_without_a_flash_counter_says_so() -> None:
    assert sweep_write_amplification([HealthDelta(written_bytes=1)]) == (None, NO_NAND_COUNTER)
