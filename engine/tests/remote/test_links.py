"""Link limits from real tc output (tests/data/tc, captured on the project machine) and the user's own speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdprof.model.results import HostResult, MonitorSample
from ssdprof.model.validity import host_warnings
from ssdprof.remote.links import busiest_interface, host_link_limit, parse_htb_classes, parse_qdiscs
from ssdprof.remote.probe import parse_probe

DATA = Path(__file__).parent.parent / "data" / "tc"


def test_tbf_rates_are_read_from_real_tc_json_in_bytes_per_second() -> None:
    shaped = parse_qdiscs((DATA / "qdisc_tbf_htb.json").read_text())
    assert shaped == {"eth0": ("tbf", 25_000_000.0)}  # 200mbit; htb keeps its rates in its classes
    assert parse_qdiscs((DATA / "qdisc_unshaped.json").read_text()) == {}
    assert parse_qdiscs("") == parse_qdiscs("not json") == {}


def test_htb_takes_the_ceil_of_its_root_classes_from_real_tc_text() -> None:
    lines = [f"eth2 {line}" for line in (DATA / "class_htb_eth2.txt").read_text().splitlines()]
    assert parse_htb_classes(lines) == {"eth2": ("htb", 2e9 / 8)}  # the child class (500Mbit) does not cap the link


def test_the_probe_reports_shaping_beside_the_nic_speeds() -> None:
    qdisc = (DATA / "qdisc_tbf_htb.json").read_text().strip()
    probe = parse_probe(f"os=Linux\ncpus=2\nnic=eth0 10000\nnic=lo -1\nqdisc={qdisc}\n"
                        + "".join(f"htb_class=eth2 {line}\n" for line in (DATA / "class_htb_eth2.txt").read_text().splitlines()))
    assert probe.shaping == {"eth0": ("tbf", 25_000_000.0), "eth2": ("htb", 2.5e8)}


@pytest.mark.parametrize(("user_gbps", "expected", "source"), [
    (None, 25_000_000.0, "tbf rate on eth0"),
    (0.1, 12_500_000.0, "set for h1 (--link-gbps)"),
    (40.0, 25_000_000.0, "tbf rate on eth0"),
])
def test_the_limit_is_the_lowest_of_nic_shaping_and_the_speed_set(user_gbps: float | None, expected: float, source: str) -> None:
    limit = host_link_limit("h1", "eth0", {"eth0": 10_000, "lo": -1}, {"eth0": ("tbf", 25_000_000.0)}, user_gbps)
    assert limit is not None and limit.bytes_per_s == expected and limit.source == source


def test_an_unshaped_nic_is_limited_by_its_speed_and_an_unknown_one_by_nothing() -> None:
    limit = host_link_limit("h2", "", {"eth0": 10_000, "lo": -1}, {}, None)  # one NIC besides lo: that one
    assert limit is not None and limit.bytes_per_s == 1.25e9 and limit.source == "NIC speed of eth0"
    assert host_link_limit("h2", "", {"eth0": -1, "lo": -1}, {}, None) is None


def _samples(host: str, rx_bytes_per_s: float) -> list[MonitorSample]:
    return [MonitorSample(host=host, elapsed_s=float(t), cpu_busy_pct=10.0, net_rx_bytes_per_s={"eth0": rx_bytes_per_s, "lo": 1e9},
                          net_tx_bytes_per_s={"eth0": 1e5}) for t in range(1, 4)]


def test_network_bound_names_the_limit_and_spares_the_host_below_it() -> None:
    monitor = _samples("h1", 24.5e6) + _samples("h2", 300e6)
    assert busiest_interface(monitor) == "eth0"
    hosts = [HostResult(host="h1", link_limit_bytes_per_s=25e6, link_limit_source="tbf rate on eth0", link_interface="eth0"),
             HostResult(host="h2", link_limit_bytes_per_s=1.25e9, link_limit_source="NIC speed of eth0", link_interface="eth0")]
    flagged = [w for w in host_warnings(hosts, monitor) if w.code == "network_bound"]
    assert [w.concerns for w in flagged] == [["hosts.h1"]]
    assert "tbf rate on eth0" in flagged[0].message and "25.0 MB/s" in flagged[0].message
