"""How many points a growing sweep will have, as the runner's events say it: a curve's are known from
the start, a stop latency makes them a bound, a search's are open until it has its answer."""

from __future__ import annotations

from ssdprof.app.adaptive import progress_count
from ssdprof.model.curves import CurveSpec, SloSpec
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload

PROBE = Workload(queue_depth=4)


def a_curve(points: int = 1, stop_latency_ns: int | None = None) -> SweepSpec:
    rates = [PROBE.model_copy(update={"rate_iops": 100 * (i + 1)}) for i in range(points - 1)]
    return SweepSpec(name="curve", points=[PROBE, *rates],
                     curve=CurveSpec(points_pct=[10, 50, 70, 80, 90, 100], stop_latency_ns=stop_latency_ns))


def test_a_curve_counts_its_probe_and_every_rate_before_the_probe_has_run() -> None:
    count = progress_count(a_curve(points=1), 0)
    assert (count.done, count.total, count.bound) == (0, 7, "exact")
    assert count.text == "0 of 7 points (1 full-speed probe + 6 offered rates)"


def test_a_curve_with_a_stop_latency_counts_at_most_its_points_until_it_is_cut() -> None:
    assert progress_count(a_curve(points=1, stop_latency_ns=5_000_000), 1).text.startswith("1 of at most 7 points")
    cut = progress_count(a_curve(points=4, stop_latency_ns=5_000_000), 4)
    assert (cut.total, cut.bound) == (4, "exact")
    assert "stopped after 3 of 6" in cut.note


def test_a_search_counts_the_depths_tried_and_names_no_total() -> None:
    search = SweepSpec(name="search", points=[Workload(queue_depth=qd) for qd in (1, 2, 4, 8)],
                       slo=SloSpec(percentile=99, latency_ns=1_000_000, max_qd=256))
    count = progress_count(search, 4)
    assert (count.done, count.total, count.bound) == (4, None, "open")
    assert count.text.startswith("4 points so far (queue depths tried") and "QD256" in count.text


def test_a_plain_sweep_counts_its_settings_times_its_repeats() -> None:
    sweep = SweepSpec(name="s", points=[Workload(), Workload(queue_depth=2)], repeats=3)
    assert progress_count(sweep, 2).text == "2 of 6 points (2 settings × 3 repeats)"
    assert progress_count(SweepSpec(name="one", points=[Workload()]), 0).text == "0 of 1 point"
