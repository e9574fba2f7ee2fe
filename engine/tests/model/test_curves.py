"""Curve and latency-target input: percentages, latencies and rates refused with the field named."""

import pytest

from ssdprof.app.curve import CurveRequest, plan_curve
from ssdprof.app.planner import SweepRequest, WorkloadInput
from ssdprof.app.slo import SloRequest, plan_slo
from ssdprof.model.curves import parse_latency_ns, parse_points_pct
from ssdprof.model.workload import WorkloadError, parse_workload


def test_points_are_sorted_unique_whole_percentages() -> None:
    assert parse_points_pct("90, 10,50,50%") == [10, 50, 90]


@pytest.mark.parametrize("given", ["0", "101", "50.5", "ten", ""])
def test_a_percentage_outside_1_to_100_names_the_points_field(given: str) -> None:
    with pytest.raises(WorkloadError) as caught:
        parse_points_pct(given)
    assert caught.value.problems[0].field == "points_pct" and caught.value.problems[0].flag == "--points"


@pytest.mark.parametrize(("given", "ns"), [("1ms", 1_000_000), ("500us", 500_000), ("250µs", 250_000), ("2000ns", 2000),
                                           (0.005, 5_000_000)])
def test_latencies_parse_to_nanoseconds(given: str | float, ns: int) -> None:
    assert parse_latency_ns(given, field="latency_ns", flag="--latency") == ns


@pytest.mark.parametrize("given", ["999ns", "0.5us", "0", "fast"])
def test_a_latency_target_below_a_microsecond_names_the_field(given: str) -> None:
    with pytest.raises(WorkloadError) as caught:
        parse_latency_ns(given, field="latency_ns", flag="--latency")
    assert caught.value.problems[0].field == "latency_ns"


def test_a_rate_below_one_per_job_names_the_rate_field() -> None:
    with pytest.raises(WorkloadError) as caught:
        parse_workload({"numjobs": 4, "rate_iops": 3})
    assert caught.value.problems[0].field == "rate_iops"


def test_a_rate_changes_the_label_and_the_key_but_rate_zero_keeps_old_keys() -> None:
    plain, paced = parse_workload({}), parse_workload({"rate_iops": "5000"})
    assert paced.label.endswith("@5000 IOPS") and paced.key() != plain.key()
    assert parse_workload({"rate_iops": 0}).key() == plain.key()


def test_a_curve_starts_with_one_full_speed_point_and_keeps_its_percentages() -> None:
    spec = plan_curve(CurveRequest(sweep=SweepRequest(base=WorkloadInput(queue_depth=8, target="/var/tmp")),
                                   points_pct="70,10", stop_latency="5ms"))
    assert [p.rate_iops for p in spec.points] == [0]
    assert spec.curve is not None and spec.curve.points_pct == [10, 70] and spec.curve.stop_latency_ns == 5_000_000


def test_a_curve_refuses_a_rate_a_preset_or_a_tiny_stop_latency_by_field() -> None:
    fields = []
    for request in (CurveRequest(sweep=SweepRequest(base=WorkloadInput(rate_iops=100))),
                    CurveRequest(sweep=SweepRequest(preset="quick")),
                    CurveRequest(stop_latency="100ns")):
        with pytest.raises(WorkloadError) as caught:
            plan_curve(request)
        fields.append(caught.value.problems[0].field)
    assert fields == ["rate_iops", "preset", "stop_latency_ns"]


def test_a_latency_target_search_starts_at_qd1_and_checks_its_fields() -> None:
    spec = plan_slo(SloRequest(sweep=SweepRequest(base=WorkloadInput(queue_depth=32)), percentile="99.9", latency="2ms"))
    assert spec.points[0].queue_depth == 1 and spec.slo is not None and spec.slo.percentile == 99.9
    for request, field in ((SloRequest(percentile=100), "percentile"), (SloRequest(max_qd=0), "max_qd"),
                           (SloRequest(latency="0.1us"), "latency_ns")):
        with pytest.raises(WorkloadError) as caught:
            plan_slo(request)
        assert caught.value.problems[0].field == field


def test_every_bad_point_of_a_curve_is_named_at_once() -> None:
    with pytest.raises(WorkloadError) as caught:
        parse_points_pct("10, 120, x, 50, 0")
    (found,) = caught.value.problems
    assert found.message.startswith("120 is out of range; 'x' is not a number; 0 is out of range; allowed")
