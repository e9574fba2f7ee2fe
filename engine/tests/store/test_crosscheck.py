"""Bandwidth against IOPS x access size: the unit pairs people mix up, and figures that disagree."""

import pytest

from ssdprof.store.crosscheck import check_bandwidth


@pytest.mark.parametrize(("value", "unit", "meant"), [(78.125, "mb/s", "mib/s"), (81.92, "mib/s", "mb/s"),
                                                      (80000, "kb/s", "kib/s"), (0.0763, "gb/s", "gib/s")])
def test_a_value_that_matches_only_the_other_unit_of_its_pair_is_read_in_that_unit(value: float, unit: str, meant: str) -> None:
    check = check_bandwidth(value, unit, iops=20000, block_size_bytes=4096)
    assert (check.verdict, check.unit) == ("reinterpreted", meant)
    assert check.bw_bytes_per_s == pytest.approx(20000 * 4096, rel=0.01)


def test_a_value_within_one_percent_of_its_own_unit_matches() -> None:
    assert check_bandwidth(81.9, "mb/s", iops=20000, block_size_bytes=4096).verdict == "match"


def test_rounding_between_one_and_five_percent_is_not_called_a_contradiction() -> None:
    check = check_bandwidth(84, "mb/s", iops=20000, block_size_bytes=4096)
    assert check.verdict == "match" and check.bw_bytes_per_s == 84e6


def test_beyond_five_percent_and_no_unit_pair_the_figures_contradict_each_other() -> None:
    check = check_bandwidth(100, "mb/s", iops=20000, block_size_bytes=4096)
    assert check.verdict == "mismatch" and check.bw_bytes_per_s == 100e6
    assert "contradicts" in (check.message("t.csv row 2, read", "mb/s") or "")


def test_without_iops_or_access_size_nothing_is_checked() -> None:
    assert check_bandwidth(100, "mb/s", iops=None, block_size_bytes=4096).verdict == "unchecked"
    assert check_bandwidth(100, "mb/s", iops=1000, block_size_bytes=None).verdict == "unchecked"


def test_fio_imports_agree_with_their_own_iops() -> None:
    from conftest import FIO_DATA

    from ssdprof.store.interchange import import_fio_output

    names = ("fio-3.33_randread_qd1_io_uring_lat.jsonplus.json", "fio-2.17_pkb_group_reporting.json", "fio-3.33_randrw_70_30.jsonplus.json")
    for name in names:
        for run in import_fio_output(FIO_DATA / name):
            assert not [w for w in run.warnings if w.code.startswith("bandwidth_")], name
