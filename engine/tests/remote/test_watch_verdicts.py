"""A watched host's seconds summed up, and the verdicts: its link, disk or CPU named as the limit,
or nothing."""

from __future__ import annotations

import pytest

from ssdprof.model.results import InterfaceLoad, MonitorSample, WatchedHost
from ssdprof.remote.probe import HostProbe
from ssdprof.remote.watch_verdicts import describe_watched, watched_warnings

PROBE = HostProbe(
    reachable=True,
    os="Linux 6.1",
    cpu_count=8,
    nics={"eth0": 1000, "eth1": -1, "lo": -1},
    shaping={"eth1": ("tbf", 25e6)},
)


def second(t: float, *, tx: float, busy: float = 10.0, disk: float = 20.0) -> MonitorSample:
    return MonitorSample(
        host="osd1",
        elapsed_s=t,
        cpu_busy_pct=busy,
        net_rx_bytes_per_s={"eth0": 1e6, "lo": 5e6},
        net_tx_bytes_per_s={"eth0": tx, "eth1": 0.0, "lo": 5e6},
        disk_busy_pct={"sdb": disk},
    )


def test_a_watched_host_is_summed_up_by_its_median_second_per_interface_and_disk() -> None:
    seconds = [
        second(1, tx=118e6),
        second(2, tx=119e6),
        second(3, tx=2e6, disk=100.0),
        second(4, tx=117e6),
    ]
    host = describe_watched("osd1", PROBE, seconds, None)
    assert (host.host, host.role, host.seconds, host.cpu_count) == ("osd1", "monitor", 4, 8)
    assert host.cpu_busy_pct_mean == pytest.approx(10.0)
    assert [load.interface for load in host.interfaces] == [
        "eth0"
    ]  # lo is no link; eth1 carried nothing
    assert host.interfaces[0].tx_bytes_per_s_median == pytest.approx(117.5e6)
    assert (
        host.interfaces[0].link_limit_bytes_per_s == 125e6
        and host.interfaces[0].link_limit_source == "NIC speed of eth0"
    )
    assert host.disk_busy_pct_median == {"sdb": 20.0}


def test_a_storage_node_whose_link_carried_near_its_speed_is_named_as_the_limit() -> None:
    host = describe_watched("osd1", PROBE, [second(t, tx=118e6) for t in range(5)], None)
    [warning] = watched_warnings([host])
    assert warning.code == "watched_network_bound" and warning.concerns == ["watched.osd1"]
    assert warning.message == (
        "osd1: eth0 carried 118 MB/s of its 125 MB/s link (NIC speed of eth0): "
        "the storage node's network was the limit"
    )


def test_a_link_under_nine_tenths_a_disk_with_idle_time_and_a_calm_cpu_give_no_verdict() -> None:
    host = describe_watched(
        "osd1", PROBE, [second(t, tx=100e6, disk=80.0, busy=60.0) for t in range(5)], None
    )
    assert watched_warnings([host]) == []


def test_a_busy_disk_and_a_saturated_cpu_are_named() -> None:
    host = describe_watched(
        "osd1", PROBE, [second(t, tx=1e6, disk=99.0, busy=95.0) for t in range(5)], None
    )
    assert [(w.code, w.message) for w in watched_warnings([host])] == [
        (
            "watched_disk_busy",
            "osd1: sdb was busy 99 % of the median second: the storage node's disk was the limit",
        ),
        (
            "watched_cpu_bound",
            "osd1: CPU 95 % busy on average: the storage node's CPU was the limit",
        ),
    ]


def test_the_speed_set_for_a_host_limits_a_link_whose_nic_says_nothing() -> None:
    samples = [
        MonitorSample(host="osd1", elapsed_s=t, cpu_busy_pct=5, net_tx_bytes_per_s={"eth1": 24.5e6})
        for t in range(3)
    ]
    host = describe_watched(
        "osd1", PROBE.__class__(reachable=True, nics={"eth1": -1}), samples, 0.2
    )
    assert host.interfaces == [
        InterfaceLoad(
            interface="eth1",
            rx_bytes_per_s_median=0.0,
            tx_bytes_per_s_median=24.5e6,
            link_limit_bytes_per_s=25e6,
            link_limit_source="set for osd1 (--link-gbps)",
        )
    ]
    assert [w.code for w in watched_warnings([host])] == ["watched_network_bound"]


def test_a_host_that_could_not_be_watched_is_named_with_the_reason() -> None:
    host = describe_watched(
        "osd9", HostProbe(reachable=False), [], None, error="osd9: connection refused"
    )
    assert host == WatchedHost(host="osd9", error="osd9: connection refused")
    [warning] = watched_warnings([host])
    assert warning.code == "watched_unreachable" and warning.message.startswith(
        "osd9: connection refused"
    )
