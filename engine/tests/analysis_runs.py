"""Small, explicit RunResults for the analysis tests: every number is chosen by the test."""

from __future__ import annotations

from ssdprof.results import DirectionStats, EngineInfo, Environment, HostResult, LatencyStats, RunResult
from ssdprof.workload import Pattern, Workload


def make_run(*, rw: str = "randread", bs: int = 4096, qd: int = 1, jobs: int = 1, iops: float = 1000.0,
             lat_ns: float | None = None, read_pct: int | None = None, tags: dict[str, str] | None = None,
             device_model: str = "", hosts: int = 1, run_id: int | None = None, interface_limit: float | None = None,
             interface: str = "", cpu_busy_pct: float | None = None, direct: bool = True, status: str = "ok") -> RunResult:
    """One run; ``iops`` is the total, split by ``read_pct`` for mixed patterns; bandwidth = IOPS x bs."""
    pattern = Pattern(rw)
    pct = pattern.fixed_read_pct if pattern.fixed_read_pct is not None else (50 if read_pct is None else read_pct)
    workload = Workload(pattern=pattern, read_pct=pct, block_size_bytes=bs, queue_depth=qd, numjobs=jobs,
                        size_bytes=max(bs * jobs, 1 << 30), direct=direct)

    def direction(share: float) -> DirectionStats:
        if share == 0:
            return DirectionStats()
        part = iops * share
        return DirectionStats(io_count=int(part * 10) or 1, io_bytes=int(part * 10) * bs, runtime_ms=10_000, iops=part,
                              bw_bytes_per_s=part * bs, lat_ns=LatencyStats(samples=int(part * 10), mean=lat_ns, p99=lat_ns))

    return RunResult(
        id=run_id, engine=EngineInfo(name="fio", effective_queue_depth=qd), workload=workload,
        environment=Environment(device_model=device_model, interface=interface, interface_limit_bytes_per_s=interface_limit),
        hosts=[HostResult(host=f"client{i}") for i in range(hosts)], read=direction(pct / 100), write=direction(1 - pct / 100),
        tags=tags or {}, cpu_busy_pct=cpu_busy_pct, status=status)
