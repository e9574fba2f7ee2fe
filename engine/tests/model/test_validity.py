from ssdprof.model.results import DirectionStats, EngineInfo, Environment, LatencyStats, Measurement
from ssdprof.model.validity import check_validity
from ssdprof.model.workload import Workload

WORKLOAD = Workload(runtime_s=10)
SATA = Environment(interface="SATA", interface_limit_bytes_per_s=600e6)


def codes(read: DirectionStats, *, env: Environment = SATA, cpu: float | None = 20.0, workload: Workload = WORKLOAD,
          errors: list[str] | None = None, engine: EngineInfo | None = None) -> set[str]:
    measurement = Measurement(engine=engine or EngineInfo(name="fio", effective_queue_depth=workload.queue_depth), hosts=[],
                              errors=errors or [])
    return {w.code for w in check_validity(workload, measurement, read, DirectionStats(), environment=env, cpu_busy_pct=cpu)}


def reads(bw: float = 500e6, runtime_ms: float = 10_000, p50: float = 80_000) -> DirectionStats:
    return DirectionStats(io_count=1000, iops=1000, bw_bytes_per_s=bw, runtime_ms=runtime_ms, lat_ns=LatencyStats(samples=1000, p50=p50))


def test_an_honest_run_has_no_warnings() -> None:
    assert codes(reads()) == set()


def test_bandwidth_above_the_sata_link_means_a_cache_answered() -> None:
    assert "above_interface_limit" in codes(reads(bw=900e6))


def test_a_run_shorter_than_asked_is_flagged() -> None:
    assert "short_run" in codes(reads(runtime_ms=4_000))


def test_microsecond_reads_with_direct_io_are_suspected_cache_hits() -> None:
    assert "cache_suspected" in codes(reads(p50=900))


def test_a_saturated_cpu_is_flagged() -> None:
    assert "cpu_saturated" in codes(reads(), cpu=97.0)


def test_fio_error_lines_become_error_warnings() -> None:
    assert "tool_error" in codes(reads(), errors=["fio: io_u error on file /x: Input/output error"])


def test_a_buffered_run_is_labelled_everywhere() -> None:
    assert "buffered" in codes(reads(), workload=Workload(direct=False))


def test_queue_depth_realised_as_jobs_is_stated() -> None:
    engine = EngineInfo(name="fio", effective_queue_depth=1, reason="psync: QD 8 runs as 8 jobs")
    assert "queue_depth_realised_as_jobs" in codes(reads(), workload=Workload(queue_depth=8), engine=engine)


def test_network_bound_means_sustained_near_the_link_not_a_burst() -> None:
    from ssdprof.model.results import HostResult, MonitorSample
    from ssdprof.model.validity import host_warnings

    def seconds(host: str, rx: list[float]) -> list[MonitorSample]:
        return [MonitorSample(host=host, elapsed_s=i, cpu_busy_pct=10, net_rx_bytes_per_s={"eth0": r}) for i, r in enumerate(rx)]

    shaped = HostResult(host="h1", link_limit_bytes_per_s=25e6, link_limit_source="tbf rate on eth0", link_interface="eth0",
                        read=DirectionStats(io_count=100, iops=6))
    fast = HostResult(host="h2", link_limit_bytes_per_s=1.25e9, link_limit_source="NIC speed of eth0", link_interface="eth0",
                      read=DirectionStats(io_count=100, iops=8))
    monitor = seconds("h1", [3e6, 24.8e6, 24.9e6, 24.7e6, 24.8e6]) + seconds("h2", [0.2e9, 1.2e9, 0.5e9, 0.6e9, 0.55e9])
    flagged = [w for w in host_warnings([shaped, fast], monitor) if w.code == "network_bound"]
    # h1 spent most seconds at its shaped rate; h2 touched its link for one second and averaged half of it
    assert [w.concerns for w in flagged] == [["hosts.h1"]]
    assert "24.8 MB/s (median second) of its 25.0 MB/s link (tbf rate on eth0)" in flagged[0].message
