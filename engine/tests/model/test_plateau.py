"""A plateau, named: the rule on per-second series recorded on the real Ceph cluster, and a real
local run whose flat line is the device's own limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.runner import Runner
from ssdprof.model.plateau import HostLoad, Limit, capped_outside, device_was_limit, flat_line
from ssdprof.model.results import (
    DeviceQueue,
    DirectionStats,
    HostResult,
    MonitorSample,
    ProgressSample,
)
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.validity import host_warnings
from ssdprof.model.workload import Workload, parse_workload
from ssdprof.portable.proof import disk_of
from ssdprof.target.device_queue import read_disk_times

_4M = 4 << 20
# Recorded on this project's 3-OSD Ceph cluster: two clients reading 4 MiB at QD4 over fio's rbd
# engine, h1's link shaped to 200 Mb/s with tbf on the root-namespace end of its veth (outside it),
# h2 unshaped. MB/s each second after a 1 s ramp; the last (part) second of h1 read 44.4. The
# machine's CPU (both clients and the OSDs share 2 cores).
H1_MB_S = [26.1, 27.0, 21.8, 27.0, 21.9, 27.5, 21.1, 24.2, 44.4]
H2_MB_S = [1061.1, 843.9, 1110.4, 1248.7, 929.3, 919.9, 991.6]
CPU_PCT = [81, 80, 83, 97, 83, 78, 96, 96, 98]


def _series(host: str, mb_per_s: list[float]) -> list[ProgressSample]:
    ramp = [ProgressSample(elapsed_s=1.0, host=host, ramping=True, read_bw_bytes_per_s=5e5)]
    return ramp + [
        ProgressSample(elapsed_s=2.0 + k, host=host, read_bw_bytes_per_s=v * 1e6)
        for k, v in enumerate(mb_per_s)
    ]


def _monitor(host: str, cpu: list[int]) -> list[MonitorSample]:
    return [MonitorSample(host=host, elapsed_s=1.0 + k, cpu_busy_pct=v) for k, v in enumerate(cpu)]


def _workload(**changes: object) -> Workload:
    return parse_workload(
        {"pattern": "read", "block_size_bytes": _4M, "queue_depth": 4, "runtime_s": 8, **changes}
    )


def _host(name: str, bw_mb_s: float, **changes: object) -> HostResult:
    return HostResult(
        host=name, read=DirectionStats(io_count=100, bw_bytes_per_s=bw_mb_s * 1e6), **changes
    )


def _ceph_run(**h1: object) -> list[str]:
    hosts = [_host("h1", 25.6, **h1), _host("h2", 1033.7)]
    found = host_warnings(
        hosts,
        _monitor("h1", CPU_PCT) + _monitor("h2", CPU_PCT),
        progress=_series("h1", H1_MB_S) + _series("h2", [*H2_MB_S, 500.0]),
        workload=_workload(),
    )
    return [w.message for w in found if w.code == "capped_outside_host"]


def test_the_client_shaped_outside_is_named_capped_and_the_unshaped_one_is_not() -> None:
    [message] = _ceph_run()
    assert message.startswith(
        "h1: capped by something outside this host (network path or QoS) at 24.6 MB/s: "
    )
    assert "held within 16 % every second for 8 s (one I/O is 17 % of a second's bytes)" in message
    assert "with no limit ssdprof can see on this host" in message and "CPU 88 % busy" in message


def test_the_fastest_client_held_flat_by_the_storage_they_share_is_not_named_capped() -> None:
    """Recorded in CI on the same cluster under load: the OSDs, CPU-bound, held unshaped h2 within 4 %
    every second. No host of the run went faster through the same storage, so nothing says the path,
    not the storage, held it; h1, at a fortieth of h2's bytes, is still named, with h2 as its evidence."""
    flat_h2 = [1195.4, 1236.6, 1239.8, 1234.8, 1184.0, 1230.1, 1236.0, 1227.5, 1100.0]
    hosts = [_host("h1", 25.6), _host("h2", 1218.0)]
    found = host_warnings(hosts, _monitor("h1", CPU_PCT) + _monitor("h2", [77] * 9),
                          progress=_series("h1", H1_MB_S) + _series("h2", flat_h2), workload=_workload())
    [capped] = [w for w in found if w.code == "capped_outside_host"]
    assert capped.concerns == ["hosts.h1"] and "h2 moved 48x its bytes per job in the same run" in capped.message


def test_whole_ios_are_allowed_their_step_but_a_wandering_line_is_not_flat() -> None:
    assert flat_line(_series("h1", H1_MB_S), _4M) is not None
    assert (
        flat_line(_series("h1", H1_MB_S), 4096) is None
    )  # at 4 KiB the same swings are no counting step
    assert flat_line(_series("h2", H2_MB_S), _4M) is None
    assert flat_line(_series("h1", H1_MB_S[:4]), _4M) is None  # too short to tell


def test_a_limit_near_the_line_explains_it_and_one_far_above_does_not() -> None:
    assert (
        _ceph_run(link_limit_bytes_per_s=25e6, link_limit_source="tbf rate on eth0") == []
    )  # network_bound's
    [message] = _ceph_run(nic_speeds_mbps={"eth0": 10_000})
    assert "far below its 10 Gb/s link (NIC speed of eth0)" in message


def test_a_saturated_cpu_is_the_limit_unless_a_peer_as_busy_moved_far_more() -> None:
    load = HostLoad("h1", _series("h1", H1_MB_S), [], 95.0, None, bytes_per_s_per_job=25e6)
    assert capped_outside(load, _workload(), peers=[load], cpu_saturated_pct=90) is None
    peer = HostLoad("h2", _series("h2", H2_MB_S), [], 96.0, None, bytes_per_s_per_job=1e9)
    found = capped_outside(load, _workload(), peers=[load, peer], cpu_saturated_pct=90)
    assert found is not None and "yet h2 moved 40x the bytes per job at 96 %" in found.message
    idle_peer = HostLoad(
        "h2", [], [], 50.0, None, bytes_per_s_per_job=1e9
    )  # not saturated: proves nothing
    assert capped_outside(load, _workload(), peers=[load, idle_peer], cpu_saturated_pct=90) is None


def test_a_busy_device_or_an_offered_rate_explains_a_flat_line() -> None:
    busy = DeviceQueue(disk="nvme0n1", requested_outstanding=4, mean_in_flight=3.9, busy_pct=99.0)
    load = HostLoad("local", _series("local", H1_MB_S), [Limit(3.9e9, "NVMe link")], 20.0, busy)
    assert capped_outside(load, _workload(), peers=(), cpu_saturated_pct=90) is None
    held = HostLoad(
        "local", load.samples, load.limits, 20.0, busy.model_copy(update={"busy_pct": 74.0})
    )
    assert (
        capped_outside(held, _workload(), peers=(), cpu_saturated_pct=90) is None
    )  # 3.9 held: io_ticks undercounts
    waiting = busy.model_copy(update={"busy_pct": 30.0, "mean_in_flight": 0.3})
    idle = HostLoad("local", load.samples, load.limits, 20.0, waiting)
    found = capped_outside(idle, _workload(), peers=(), cpu_saturated_pct=90)
    assert found is not None and found.message.endswith(
        "its disk nvme0n1 30 % busy, holding 0.30 requests on average"
    )
    assert capped_outside(idle, _workload(rate_iops=6), peers=(), cpu_saturated_pct=90) is None


@requires_fio
def test_a_steady_local_run_held_by_its_device_is_not_called_a_cap(disk_dir: Path) -> None:
    """Random 4 KiB reads at QD32 on this machine's disk: whatever the line looks like, the disk
    held requests all the time (its own queue, and its utilisation where io_ticks counts it), so
    a flat line there is the device's limit and never a cap outside it."""
    disk = disk_of(disk_dir)
    if disk is None or read_disk_times(disk) is None:
        pytest.skip(f"the OS does not count the disk under {disk_dir}")
    point = parse_workload(
        {
            "target": str(disk_dir),
            "runtime_s": 6,
            "ramp_s": 1,
            "size_bytes": "256MiB",
            "pattern": "randread",
            "queue_depth": 32,
        }
    )
    [run] = Runner(None).run_sweep(SweepSpec(name="steady", points=[point])).results
    assert run.device_queue is not None and device_was_limit(run.device_queue), run.device_queue
    assert not [w for w in run.warnings if w.code == "capped_outside_host"], run.warnings
    # Without the device's word the same run is judged on its line alone: the device is what cleared
    # it.
    load = HostLoad("local", run.progress, [], 0.0, None)
    if flat_line(run.progress, point.block_size_bytes) is not None:
        assert capped_outside(load, point, peers=(), cpu_saturated_pct=90) is not None
