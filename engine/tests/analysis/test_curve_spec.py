"""The rated figures drawn beside a curve: the sheet found as for "% of spec", its figures judged by the same rules."""

import pytest
from analysis_runs import make_run

from ssdprof.analysis.curve_spec import curve_spec_overlay, spec_references
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Access, Figure, Interface, Source, Spec

SPEC = Spec(id="test-drive", vendor="Test", model="Drive 1TB", match_patterns=["TESTDRIVE 1TB"], interface=Interface.NVME,
            sources=[Source(title="sheet", url="https://example.com/sheet.pdf")],
            figures=[Figure(metric=Access.RAND_READ, value=13_000, unit="IOPS", block_size_bytes=4096, queue_depth=1),
                     Figure(metric=Access.RAND_READ, value=98_000, unit="IOPS", block_size_bytes=4096, queue_depth=32, threads=1),
                     Figure(metric=Access.RAND_READ, value=30_000, unit="IOPS", block_size_bytes=8192, queue_depth=32),
                     Figure(metric=Access.RAND_READ, value=85, unit="us", statistic="typical"),
                     Figure(metric=Access.RAND_READ, value=0.5, unit="ms", statistic="p99.9"),
                     Figure(metric=Access.RAND_WRITE, value=88_000, unit="IOPS", block_size_bytes=4096, queue_depth=32),
                     Figure(metric=Access.SEQ_READ, value=3500, unit="MB/s")])


def test_a_qd32_curve_draws_the_qd32_rating_and_the_unloaded_latencies_and_says_why_the_rest_are_left_out() -> None:
    drawn, left_out = spec_references(SPEC, make_run(qd=32, iops=60_000, device_model="TESTDRIVE 1TB"))
    assert [(r.quantity, r.value, r.status) for r in drawn] == [
        ("iops", 98_000, "matched"), ("latency", 85_000, "unstated"), ("latency", 500_000, "unstated")]
    assert drawn[0].label == "Drive 1TB: rated 98,000 IOPS (rand_read, 4 KiB, QD32 x1 threads)"
    assert drawn[2].label.startswith("Drive 1TB: rated p99.9 latency 0.5 ms") and "lightest load" in drawn[2].note
    assert [(r.value, r.status) for r in left_out] == [(13_000, "mismatch"), (30_000, "mismatch")]
    assert "rated at QD1x1 = 1 outstanding I/Os, this run had 32" in left_out[0].note
    assert "rated at 8 KiB accesses, this run used 4 KiB" in left_out[1].note


def test_a_write_curve_gets_the_write_rating_and_a_curve_on_several_hosts_gets_none() -> None:
    drawn, _ = spec_references(SPEC, make_run(rw="randwrite", qd=32, iops=50_000))
    assert [r.value for r in drawn] == [88_000]
    drawn, left_out = spec_references(SPEC, make_run(qd=32, iops=50_000, hosts=2))
    assert drawn == [] and all("aggregate of 2 hosts" in r.note for r in left_out)


def test_the_sheet_is_the_chosen_one_or_the_drives_own_and_none_is_said_in_words() -> None:
    library = SpecLibrary(specs={SPEC.id: SPEC})
    run = make_run(qd=32, iops=60_000, device_model="TESTDRIVE 1TB")
    matched = curve_spec_overlay(library, None, run)
    assert matched.spec_id == "test-drive" and matched.how == "matched to the drive model 'TESTDRIVE 1TB'"
    assert curve_spec_overlay(library, "test-drive", make_run(qd=32)).how == "chosen"
    unknown = curve_spec_overlay(library, None, make_run(qd=32, device_model="OTHER SSD 9000"))
    assert unknown.spec_id is None and unknown.how.startswith("no spec sheet matches the drive model 'OTHER SSD 9000'")
    assert "choose one (the Curves view's Spec sheet; --spec ID on the command line" in unknown.how  # both faces named
    with pytest.raises(KeyError, match="no spec with id 'nope'"):
        curve_spec_overlay(library, "nope", run)
