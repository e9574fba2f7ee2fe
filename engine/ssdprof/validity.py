"""Validity warnings: reasons not to trust a number, computed from the result itself."""

from __future__ import annotations

from ssdprof.results import DirectionStats, Environment, Measurement, Severity, ValidityWarning
from ssdprof.workload import Workload

__all__ = ["CPU_SATURATED_PCT", "SHORT_RUN_FRACTION", "check_validity"]

CPU_SATURATED_PCT = 90.0
SHORT_RUN_FRACTION = 0.95
# No flash device completes a 4K read in under ~5 µs (Optane ~7 µs); faster means a cache answered.
CACHE_READ_LATENCY_NS = 5_000.0


def check_validity(workload: Workload, measurement: Measurement, read: DirectionStats, write: DirectionStats, *,
                   environment: Environment, cpu_busy_pct: float | None) -> list[ValidityWarning]:
    warnings = list(measurement.extra_warnings)
    limit = environment.interface_limit_bytes_per_s
    for name, stats in (("read", read), ("write", write)):
        if not stats.active:
            continue
        if limit and stats.bw_bytes_per_s > limit * 1.02:
            warnings.append(ValidityWarning(
                code="above_interface_limit", concerns=[f"{name}.bw_bytes_per_s"],
                message=f"{name} bandwidth {stats.bw_bytes_per_s / 1e6:.0f} MB/s exceeds the {environment.interface} "
                        f"link's {limit / 1e6:.0f} MB/s: a cache answered, not the device"))
        if stats.runtime_ms and stats.runtime_ms < workload.runtime_s * 1000 * SHORT_RUN_FRACTION and not measurement.cancelled:
            warnings.append(ValidityWarning(
                code="short_run", concerns=[f"{name}.iops"],
                message=f"{name} ran {stats.runtime_ms / 1000:.1f} s of the {workload.runtime_s:g} s asked"))
    if workload.direct and read.active and read.clat_ns.p50 is not None and read.clat_ns.p50 < CACHE_READ_LATENCY_NS:
        warnings.append(ValidityWarning(
            code="cache_suspected", concerns=["read.clat_ns.p50"],
            message=f"median read latency {read.clat_ns.p50 / 1000:.1f} µs is faster than any flash device: "
                    "a cache (RAM disk, hypervisor or controller cache) is answering"))
    if not workload.direct:
        warnings.append(ValidityWarning(
            code="buffered", severity=Severity.WARNING, concerns=["read", "write"],
            message="buffered run: the page cache is in the path; these are not device numbers"))
    for line in measurement.errors[:5]:
        warnings.append(ValidityWarning(code="tool_error", severity=Severity.ERROR, message=line))
    if cpu_busy_pct is not None and cpu_busy_pct >= CPU_SATURATED_PCT:
        warnings.append(ValidityWarning(
            code="cpu_saturated", concerns=["read.iops", "write.iops"],
            message=f"the CPU was {cpu_busy_pct:.0f} % busy: the result may be CPU-bound, not device-bound"))
    if measurement.engine.effective_queue_depth < workload.queue_depth:
        warnings.append(ValidityWarning(
            code="queue_depth_realised_as_jobs", severity=Severity.INFO, concerns=["workload.queue_depth"],
            message=measurement.engine.reason))
    return warnings
