"""The one rule for "the same setting": everything that changes what is measured, on the real
student sweep."""

from __future__ import annotations

import pytest
from student_sweep import measured_again, student_runs

from ssdprof.analysis.metrics import SETTING_FIELDS, pts_round, setting_key, settings_kept
from ssdprof.model.drive_state import DriveState
from ssdprof.model.results import RunResult


@pytest.fixture
def qd1() -> RunResult:
    """Run 1 of the student sweep: randread 4 KiB QD1 with fio's io_uring."""
    return student_runs()[0]


def test_the_student_sweeps_two_4k_qd1_read_runs_measured_the_same_setting() -> None:
    runs = student_runs()
    assert [r.id for r in runs if setting_key(r) == setting_key(runs[0])] == [1, 8]
    assert setting_key(runs[3]) != setting_key(runs[0])  # randrw at 100 % reads is another pattern


def test_a_curves_points_at_different_offered_rates_are_different_settings(qd1: RunResult) -> None:
    rates = [2000, 4000, 8000, 12000, 16000, 20000]
    curve = [measured_again(qd1, run_id=100 + i, sweep_id=5, rate_iops=rate)
             for i, rate in enumerate(rates)]
    assert len({setting_key(r) for r in curve}) == len(rates)
    assert setting_key(curve[0]) != setting_key(qd1)  # paced at 2000 IOPS: not as fast as it goes
    assert len({setting_key(r, frozenset({"rate"})) for r in curve}) == 1


def test_the_engine_and_its_io_method_are_part_of_the_setting(qd1: RunResult) -> None:
    libaio = qd1.model_copy(update={"engine": qd1.engine.model_copy(update={"ioengine": "libaio"})})
    portable = qd1.model_copy(update={"engine": qd1.engine.model_copy(update={"name": "portable"})})
    assert len({setting_key(r) for r in (qd1, libaio, portable)}) == 3
    assert setting_key(libaio, frozenset({"engine"})) == setting_key(qd1, frozenset({"engine"}))


def test_the_drive_state_is_part_of_the_setting(qd1: RunResult) -> None:
    fresh = DriveState(target_identity="folder:/var/tmp/fixgen", ledger_since="purge",
                       region_bytes=32 << 20)
    steady = fresh.model_copy(update={"steady_state": "reached"})
    runs = [qd1, *(qd1.model_copy(update={"drive_state": s}) for s in (fresh, steady))]
    assert [r.drive_state.condition for r in runs[1:] if r.drive_state] == ["fresh", "steady-state"]
    assert len({setting_key(r) for r in runs}) == 3


def test_a_pts_tests_rounds_are_different_settings(qd1: RunResult) -> None:
    def round_(n: int) -> RunResult:
        state = DriveState(target_identity="folder:/var/tmp/fixgen", pts_id=4, pts_round=n)
        return qd1.model_copy(update={"drive_state": state, "tags": {"pts": "4", "pts_test": "iops",
                                                                     "pts_round": str(n)}})

    assert (pts_round(round_(3)), pts_round(qd1)) == (("iops", 3), None)
    assert setting_key(round_(1)) != setting_key(round_(2))


def test_dropping_a_setting_that_does_not_exist_names_the_known_ones(qd1: RunResult) -> None:
    with pytest.raises(KeyError, match=r"unknown setting.*'speed'.*known: pattern, random"):
        setting_key(qd1, frozenset({"speed"}))
    assert len(setting_key(qd1, frozenset({"qd", "bs"}))) == len(SETTING_FIELDS) - 2


def test_settings_kept_for_a_block_key_each_run_as_outside_it_and_a_run_not_kept_by_its_own_settings() -> None:
    runs = student_runs()
    outside = [(setting_key(r), setting_key(r, frozenset({"qd", "jobs"}))) for r in runs]
    other = measured_again(runs[0], run_id=99, sweep_id=9, rate_iops=1000)  # made after: not in the block's runs
    with settings_kept(runs[:4]), settings_kept(runs[2:]):
        assert [(setting_key(r), setting_key(r, frozenset({"qd", "jobs"}))) for r in runs] == outside
        assert setting_key(other) != setting_key(runs[0])


def test_a_metric_is_titled_with_its_unit_once() -> None:
    from ssdprof.analysis.metrics import METRIC_NAMES

    titles = {name: METRIC_NAMES[name].title for name in ("iops", "read_iops", "bw_bytes_per_s", "write_lat_ns_p99")}
    assert titles == {"iops": "IOPS", "read_iops": "read IOPS", "bw_bytes_per_s": "bandwidth (MB/s)",
                      "write_lat_ns_p99": "p99 write latency (µs)"}
