"""Plain-language observations on runs built to show (or not show) each effect."""

from analysis_runs import make_run

from ssdprof.analysis.observations import observe
from ssdprof.model.results import RunResult


def saturating_runs(depths: list[int], ceiling: float = 400_000, k: float = 4) -> list:
    # IOPS follow X·n/(n+K); latency follows Little's law, n / IOPS.
    return [make_run(qd=n, iops=ceiling * n / (n + k), lat_ns=1e9 * (n + k) / ceiling, run_id=n) for n in depths]


def codes(found: list) -> list[str]:
    return [o.code for o in found]


def test_the_queue_depth_knee_is_where_iops_reach_90_percent_and_latency_keeps_climbing() -> None:
    (knee,) = observe(saturating_runs([1, 2, 4, 8, 16, 32, 64, 128]))
    # The best is 128/132 = 0.970 of the ceiling; 16/20 = 0.800 is 82 % of it, 32/36 = 0.889 is 92 %: the knee is 32.
    assert knee.code == "qd_knee" and knee.data["knee_outstanding"] == 32
    assert knee.data["latency_ratio"] == (128 + 4) / (32 + 4)
    assert "stops rising at 32 outstanding I/Os" in knee.message and "climbs 3.7x" in knee.message


def test_a_sweep_that_never_saturates_says_to_go_deeper() -> None:
    (still,) = observe(saturating_runs([1, 2, 4], k=1000))
    assert still.code == "qd_still_rising" and "try deeper queues" in still.message


def test_reads_beating_writes_is_reported_with_its_range() -> None:
    runs = [make_run(rw="read", bs=bs, iops=3000.0) for bs in (4096, 131072)]
    runs += [make_run(rw="write", bs=4096, iops=1000.0), make_run(rw="write", bs=131072, iops=2000.0)]
    (gap,) = observe(runs)
    assert gap.code == "read_write_gap" and gap.data["median_read_over_write"] == 2.25
    assert "1.5–3.0x" in gap.message and "2 matched setting(s)" in gap.message


def test_random_and_sequential_differ_at_small_accesses_only() -> None:
    runs = [make_run(rw="read", bs=4096, iops=30_000), make_run(rw="randread", bs=4096, iops=10_000),
            make_run(rw="read", bs=1 << 20, iops=500), make_run(rw="randread", bs=1 << 20, iops=490)]
    (gap,) = observe(runs)
    assert gap.code == "random_sequential_gap"
    assert "4KiB: sequential 3.00x random" in gap.message and "1MiB: no real gap" in gap.message


def test_runs_above_the_link_limit_are_cache_suspects() -> None:
    fast = make_run(rw="read", bs=131072, iops=10_000, interface="SATA", interface_limit=600e6, run_id=7)  # 1.31 GB/s
    honest = make_run(rw="read", bs=131072, iops=4000, interface="SATA", interface_limit=600e6, run_id=8)
    (suspect,) = observe([fast, honest])
    assert suspect.code == "above_interface_limit" and suspect.run_ids == (7,)
    assert "cache-suspect" in suspect.message and "SATA" in suspect.message


def test_network_bound_and_cpu_bound_runs_are_flagged() -> None:
    wire = make_run(rw="read", bs=4 << 20, iops=290, hosts=1, run_id=1)  # 1.22 GB/s on one 10 GbE client
    busy = make_run(cpu_busy_pct=97.0, run_id=2)
    found = observe([wire, busy], link_bytes_per_s=10e9 / 8)
    assert codes(found) == ["network_bound", "cpu_bound"]
    assert "network-bound" in found[0].message and "97 % busy" in found[1].message


def test_cpu_bound_runs_busy_alike_say_one_figure_not_a_range_from_it_to_itself() -> None:
    found = observe([make_run(qd=qd, cpu_busy_pct=90.2, run_id=qd) for qd in (1, 4)])
    assert found[-1].code == "cpu_bound"
    assert found[-1].message.startswith("The CPU was 90 % busy in 2 runs (run 1: 90 %, run 4: 90 %)"), found[-1].message


def test_unrelated_runs_give_no_observations() -> None:
    assert observe([make_run(qd=1), make_run(rw="write", bs=8192)]) == []


def _depths(rates: dict[int, list[float]], latency_ns: dict[int, float]) -> list[RunResult]:
    return [make_run(qd=qd, iops=iops, lat_ns=latency_ns[qd]) for qd, found in rates.items() for iops in found]


def test_a_last_step_bought_with_seven_times_the_latency_is_near_the_ceiling_not_still_rising() -> None:
    # the sweep: QD10 -> QD100 gave +20 % IOPS at 7x the latency
    runs = _depths({1: [4_000], 10: [10_105], 100: [12_130]}, {1: 250e3, 10: 990e3, 100: 6.93e6})
    (found,) = observe(runs)
    assert found.code == "qd_knee" and "try deeper" not in found.message
    assert "from 10 to 100 outstanding I/Os IOPS rose +20 % (10,105 → 12,130) while mean latency rose 7.0x" in found.message


def test_a_rise_within_the_repeats_intervals_is_no_measured_rise() -> None:
    runs = _depths({1: [4_000, 4_100], 10: [10_000, 12_400, 9_000], 100: [12_000, 10_500, 13_200]},
                   {1: 250e3, 10: 1e6, 100: 1.3e6})
    (found,) = observe(runs)
    assert found.code == "qd_within_spread" and "no rise is measured" in found.message and "95 % CI, n = 3 and 3" in found.message


def test_a_rise_that_pays_for_its_latency_is_still_rising_with_its_figures() -> None:
    runs = _depths({1: [4_000], 4: [15_000], 16: [52_000]}, {1: 250e3, 4: 267e3, 16: 308e3})
    (found,) = observe(runs)
    assert found.code == "qd_still_rising" and "from 4 to 16 outstanding I/Os IOPS rose +247 %" in found.message
    assert "try deeper queues" in found.message
