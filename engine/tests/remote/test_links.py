"""Link limits from real tc output (tests/data/tc, captured on the project machine) and the user's own speed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from infra.netns_hosts import ssdprof_on_hosts

from ssdprof.model.results import HostResult, MonitorSample
from ssdprof.model.validity import host_warnings
from ssdprof.remote.links import busiest_interface, host_link_limit, parse_htb_classes, parse_link_kinds, parse_qdiscs
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


def test_a_veths_speed_is_a_placeholder_not_a_limit() -> None:
    """A veth says 10 Gb/s whatever it carries (the unshaped Ceph client read 1.24 GB/s through one): the probe keeps
    the speed of a physical NIC and drops a virtual interface's, so only shaping or the user's speed can limit it."""
    links = (DATA / "ip_link_veth.json").read_text().strip()
    assert parse_link_kinds(links) == {"eth0": "veth"}
    assert parse_link_kinds("") == parse_link_kinds("not json") == {}
    probe = parse_probe(f"os=Linux\nnic=eth0 10000\nnic=eth1 25000\nnic=lo -1\nlinks={links}\n")
    assert probe.nics == {"eth0": -1, "eth1": 25000, "lo": -1}
    assert host_link_limit("h2", "eth0", probe.nics, {}, None) is None
    assert host_link_limit("h2", "eth1", probe.nics, {}, None).source == "NIC speed of eth1"  # type: ignore[union-attr]


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


SHAPED_MBIT = 200


def test_a_shaped_client_hits_the_network_wall_on_a_real_ceph_cluster(ceph_cluster: Any, ssh_hosts: Any, tmp_path: Path) -> None:
    """The cluster's namespace is reached over veth from the clients' namespaces; h1's link is shaped to 200 Mb/s with tbf.
    A sequential RBD read sweep: h1's bandwidth goes flat at the shaped rate from the larger chunks and it is flagged
    network-bound naming the tbf; h2, unshaped, is not flagged."""
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (npm test installs it)")
    ssh_hosts.shape_link("h1", SHAPED_MBIT)
    done = ssdprof_on_hosts(ssh_hosts, "sweep", "--host", "h1", "--host", "h2", "--rbd", f"{ceph_cluster.pool}/img-{{host}}",
                            "--ceph-conf", str(ceph_cluster.conf_path), "--rw", "read", "--vary", "bs=4k,128k,4M",
                            "--size", "48MiB", "--runtime", "6", "--ramp", "1", "--qd", "4", "--json", db=tmp_path / "r.db")
    # 6 s, not 3: at 25 MB/s a 4 MiB read takes 0.17 s, and the reads still in flight when the time ends do not count, so
    # a 3 s point can fall 5 % short by that alone (seen in a clean-clone run under load: 22.3 of 25 MB/s).
    assert done.returncode == 0, done.stderr
    runs = {run["workload"]["block_size_bytes"]: run for run in json.loads(done.stdout)["runs"]}
    rate = SHAPED_MBIT * 1e6 / 8
    bandwidth = {bs: {h["host"]: h["read"]["bw_bytes_per_s"] for h in run["hosts"]} for bs, run in runs.items()}
    assert bandwidth[4 << 20]["h1"] == pytest.approx(rate, rel=0.10), bandwidth
    assert bandwidth[128 << 10]["h1"] == pytest.approx(rate, rel=0.15), bandwidth  # flat from the larger chunks on
    assert bandwidth[4 << 20]["h2"] > 1.5 * bandwidth[4 << 20]["h1"], bandwidth  # unaffected by h1's link
    shaped_host = next(h for h in runs[4 << 20]["hosts"] if h["host"] == "h1")
    assert shaped_host["link_limit_source"] == "tbf rate on eth0" and shaped_host["link_limit_bytes_per_s"] == rate
    flags = [w for w in runs[4 << 20]["warnings"] if w["code"] == "network_bound"]
    assert [w["concerns"] for w in flags] == [["hosts.h1"]], runs[4 << 20]["warnings"]
    assert "tbf rate on eth0" in flags[0]["message"]
    # h2's veth says 10 Gb/s, a placeholder (on a quiet machine its 4 MiB reads reach 1.24 GB/s through it): no limit.
    assert next(h for h in runs[4 << 20]["hosts"] if h["host"] == "h2")["link_limit_bytes_per_s"] is None
    assert not any(w["code"] == "network_bound" and "hosts.h2" in w["concerns"] for run in runs.values() for w in run["warnings"])
