"""A shared limit beyond the clients: sweeps on two SSH clients whose aggregate stops growing, or
does not."""

from __future__ import annotations

import pytest

from ssdprof.analysis.observations import observe
from ssdprof.analysis.shared_limit import link_fits, shared_limits
from ssdprof.model.results import (
    DeviceQueue,
    DirectionStats,
    EngineInfo,
    HostResult,
    InterfaceLoad,
    RunResult,
    ValidityWarning,
    WatchedHost,
)
from ssdprof.model.workload import parse_workload

_4M = 4 << 20


def _run(
    jobs: int,
    total_bytes_per_s: float,
    *,
    hosts: tuple[str, ...] = ("h1", "h2"),
    codes: tuple[str, ...] = (),
    device: DeviceQueue | None = None,
    run_id: int = 0,
) -> RunResult:
    share = DirectionStats(io_count=100, bw_bytes_per_s=total_bytes_per_s / len(hosts))
    return RunResult(
        id=run_id or jobs,
        engine=EngineInfo(name="fio", ioengine="rbd"),
        workload=parse_workload(
            {"pattern": "read", "block_size_bytes": _4M, "queue_depth": 2, "numjobs": jobs}
        ),
        hosts=[HostResult(host=h, read=share, jobs=jobs, device_queue=device) for h in hosts],
        read=DirectionStats(io_count=100 * len(hosts), bw_bytes_per_s=total_bytes_per_s),
        warnings=[ValidityWarning(code=code, message=code) for code in codes],
    )


def test_an_aggregate_that_stops_growing_is_named_with_the_link_it_fits() -> None:
    runs = [_run(1, 80e6), _run(2, 117e6), _run(4, 119e6), _run(8, 118e6)]
    [limit] = shared_limits(runs)
    assert limit.factor == "jobs" and limit.grew == "2 to 8 jobs" and limit.run_ids == (2, 4, 8)
    assert limit.bytes_per_s == pytest.approx(118e6) and limit.fits[0] == "one 1 GbE link"
    [seen] = [o for o in observe(runs) if o.code == "shared_limit"]
    assert seen.message.startswith(
        "Shared limit beyond the clients: read 4MiB on h1, h2 stopped growing from 2 to 8 "
        "jobs at ≈ 118 MB/s in all, while no client was CPU- or NIC-bound. "
        "≈ 118 MB/s: one 1 GbE link."
    ), seen.message


def test_an_aggregate_still_growing_or_held_by_a_client_is_no_shared_limit() -> None:
    assert shared_limits([_run(1, 40e6), _run(2, 80e6), _run(4, 160e6)]) == []
    assert shared_limits([_run(1, 118e6), _run(2, 118e6, codes=("cpu_bound",))]) == []
    busy = DeviceQueue(disk="nvme0n1", requested_outstanding=2, mean_in_flight=2.0, busy_pct=99.0)
    assert shared_limits([_run(1, 118e6, device=busy), _run(2, 118e6, device=busy)]) == []
    assert shared_limits([_run(1, 118e6, hosts=("local",)), _run(2, 118e6, hosts=("local",))]) == []


def test_more_clients_at_the_same_aggregate_is_a_shared_limit_too() -> None:
    runs = [
        _run(1, 1.17e9, hosts=("h1",), run_id=1),
        _run(1, 1.18e9, hosts=("h1", "h2"), run_id=2),
        _run(1, 1.18e9, hosts=("h1", "h2", "h3", "h4"), run_id=3),
    ]
    [limit] = shared_limits(runs)
    assert limit.factor == "clients" and limit.grew == "1 to 4 clients"
    assert limit.fits[:2] == ("one 10 GbE link", "four 2.5 GbE links")


@pytest.mark.parametrize(
    ("bytes_per_s", "first"),
    [
        (118e6, "one 1 GbE link"),
        (1.18e9, "one 10 GbE link"),
        (2.35e9, "two 10 GbE links"),
        (2.9e9, "one 25 GbE link"),
        (11.7e9, "one 100 GbE link"),
    ],
)
def test_common_link_rates_are_fitted_by_their_payload(bytes_per_s: float, first: str) -> None:
    assert link_fits(bytes_per_s)[0] == first


def test_a_rate_no_link_carries_fits_none() -> None:
    assert link_fits(50e6) == ()


def test_a_watched_storage_nodes_busiest_interface_is_named_the_busy_one() -> None:
    link = InterfaceLoad(interface="eth0", rx_bytes_per_s_median=2e6, tx_bytes_per_s_median=118e6,
                         link_limit_bytes_per_s=125e6, link_limit_source="tbf rate on eth0")
    quiet = InterfaceLoad(interface="eth1", rx_bytes_per_s_median=1e6, tx_bytes_per_s_median=1e6)
    node = WatchedHost(host="osd1", interfaces=[link, quiet])
    runs = [_run(jobs, 118e6).model_copy(update={"watched": [node]}) for jobs in (1, 2, 4)]
    [limit] = shared_limits(runs)
    assert limit.busy == ("osd1's eth0 carried 118 MB/s (median second) of its 125 MB/s link "
                          "(tbf rate on eth0)")
    [seen] = [o for o in observe(runs) if o.code == "shared_limit"]
    assert f"The busy one: {limit.busy}." in seen.message


def test_a_rate_just_over_a_line_rate_fits_it_within_what_counting_whole_ios_can_add() -> None:
    # two clients, 4 MiB reads, 2 s: an I/O more or less at either end of each client's window
    step = 2 * (4 << 20) * 2 / 2
    assert link_fits(126.5e6) == ()  # 1.2 % above 1 Gb/s: no link carries that much payload
    assert link_fits(126.5e6, step) == ("one 1 GbE link",)
    assert link_fits(150e6, step) == ()  # beyond what counting explains


def test_a_short_sweep_counted_just_over_the_line_rate_is_still_named_by_its_link() -> None:
    # as in CI: 1 to 4 jobs of 4 MiB reads on two clients, 2 s each, through a 1 Gb/s shaper
    runs = [_run(jobs, rate) for jobs, rate in ((1, 126.9e6), (2, 126.3e6), (4, 126.4e6))]
    runs = [r.model_copy(update={"workload": r.workload.model_copy(update={"runtime_s": 2.0})})
            for r in runs]
    [limit] = shared_limits(runs)
    assert limit.bytes_per_s == pytest.approx(126.53e6, rel=1e-3) and limit.fits == ("one 1 GbE link",)
