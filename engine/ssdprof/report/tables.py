"""The report's factual sections: test setup, workloads with the fio job to reproduce them, results
tables (units in every header), and per-host results of multi-host runs, with the storage nodes
watched during them.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.units import cm

from ssdprof.model.quantities import format_size
from ssdprof.model.results import (
    DeviceQueue,
    DirectionStats,
    Environment,
    HostResult,
    RunResult,
    WatchedHost,
)
from ssdprof.report.groups import Figure, RunGroup, Summary, repeat_summaries
from ssdprof.report.layout import Builder, fmt_count, fmt_mb, fmt_us

__all__ = ["hosts_section", "results_section", "setup_section", "workloads_section"]


def _runs(groups: Sequence[RunGroup]) -> list[RunResult]:
    return [r for g in groups for r in g.runs]


def _device(env: Environment) -> str:
    parts = [env.device_model or "model not recorded", f"({env.device})" if env.device else ""]
    return " ".join(p for p in parts if p)


def _environment_rows(env: Environment, run: RunResult) -> list[tuple[str, str]]:
    link = ", ".join(p for p in (env.interface, env.pcie_link) if p) or "not recorded"
    memory = f"{env.memory_bytes / (1 << 30):.1f} GiB" if env.memory_bytes else "not recorded"
    engine = f"{run.engine.name} {run.engine.version}".strip() + (f", ioengine {run.engine.ioengine}" if run.engine.ioengine else "")
    rows = [
        ("Machine", env.hostname or "not recorded"),
        ("Operating system", " ".join(p for p in (env.os, env.kernel) if p) or "not recorded"),
        ("CPU", f"{env.cpu_model or 'not recorded'}" + (f", {env.cpu_count} logical CPUs" if env.cpu_count else "")),
        ("Memory", memory),
        ("Device", _device(env)),
        ("Firmware / serial", " / ".join(p for p in (env.device_firmware, env.device_serial) if p) or "not recorded"),
        ("Interface", link),
        ("File system", " ".join(p for p in (env.filesystem, env.mount_point, env.mount_options) if p) or "not recorded"),
        ("Measured with", engine + ("; direct I/O (page cache bypassed)" if run.workload.direct else "; BUFFERED (page cache)")),
        ("Source", run.source),
    ]
    if len(env.device_stack) > 1:  # the device lies on others: RAID, LVM, a loop device, a partition
        rows.insert(5, ("Device stack", "; ".join(env.device_stack)))
    if env.cluster is not None:
        c = env.cluster
        rows.append(("Ceph cluster", f"{c.name or c.fsid}: {c.storage_nodes} storage node(s), {c.osds_up}/{c.osd_count} OSDs up, "
                                     f"{c.health}, Ceph {c.ceph_version}"))
    return rows


def setup_section(b: Builder, groups: Sequence[RunGroup]) -> None:
    b.heading("Test setup")
    firsts: dict[tuple[str, str, str], RunResult] = {}
    for run in _runs(groups):
        env = run.environment
        firsts.setdefault((env.hostname, env.device_model, run.source), run)
    for key, run in list(firsts.items())[:4]:
        rows = _environment_rows(run.environment, run)
        where = f" ({key[0] or key[2]})" if len(firsts) > 1 else ""
        b.table(["Item", "Value"], [list(r) for r in rows], f"machine, device and environment{where}", widths=[3.8 * cm, 13.2 * cm],
                numeric_from=2)
    if len(firsts) > 4:
        b.para(f"{len(firsts) - 4} further machine/device combinations are listed with their runs in the results table.")


def _setting_row(run: RunResult, count: int) -> list[str]:
    w = run.workload
    mix = f"{w.read_pct}" if w.pattern.fixed_read_pct is None else str(w.pattern.fixed_read_pct)
    return [w.pattern.value, mix, format_size(w.block_size_bytes), str(w.queue_depth), str(w.numjobs), f"{w.runtime_s:g}",
            f"{w.ramp_s:g}", format_size(w.size_bytes), str(count)]


def workloads_section(b: Builder, groups: Sequence[RunGroup]) -> None:
    b.heading("Workloads and how to reproduce them")
    # one row per setting however its runs are shown as figures: a count of runs, not their mean
    summaries = repeat_summaries([RunGroup(g.label, g.runs, pool=True) for g in groups])
    rows = [([s.group] if len(groups) > 1 else []) + _setting_row(s.runs[0], len(s.runs)) for s in summaries]
    header = ["Pattern", "Read (%)", "Access size", "Queue depth", "Jobs", "Runtime (s)", "Ramp (s)", "Test size", "Runs"]
    b.table((["Group"] if len(groups) > 1 else []) + header, rows, "workloads measured (one row per setting; repeats counted)",
            numeric_from=2 if len(groups) > 1 else 1)
    first = _runs(groups)[0]
    export = f"<font name='DejaVuSansMono'>ssdprof export {first.id or 'RUN_ID'} --format fio -o job.fio</font>"
    if not first.job_text:
        b.para(f"The first setting ({first.workload.label}) was imported without a fio job; {export} writes one "
               "from its workload.", markup=True)
        return
    b.para(f"Every measurement is a plain fio job. The job of the first setting ({first.workload.label}) is "
           "below; plain <font name='DejaVuSansMono'>fio job.fio</font> repeats it. Any run's job file is "
           f"written by {export}; the other settings differ only in the rw, bs, iodepth, numjobs and rwmixread "
           "lines.", markup=True)
    b.code(first.job_text)


def _direction_rows(run: RunResult | HostResult) -> list[tuple[str, DirectionStats]]:
    return [(name, stats) for name, stats in (("read", run.read), ("write", run.write)) if stats.active]


def _result_rows(run: RunResult) -> list[tuple[str, DirectionStats]]:
    """Each direction, and all the I/Os of a run that read and wrote (``all``: percentiles from the merged bins)."""
    rows = _direction_rows(run)
    return [*rows, ("all", run.mixed)] if len(rows) == 2 else rows


RESULT_HEADER = ["Run", "Workload", "Dir.", "IOPS", "MB/s", "MiB/s", "Mean (µs)", "p50 (µs)", "p99 (µs)", "p99.9 (µs)"]
_RESULT_WIDTHS = [1.0 * cm, 4.6 * cm, 1.1 * cm, 1.6 * cm, 1.5 * cm, 1.5 * cm, 1.5 * cm, 1.4 * cm, 1.4 * cm, 1.4 * cm]


def results_section(b: Builder, groups: Sequence[RunGroup]) -> None:
    b.heading("Results")
    rows: list[list[str]] = []
    for run in _runs(groups):
        label = run.workload.label + (" ⚠" if run.warnings else "") + ("" if run.status == "ok" else f" ({run.status})")
        for name, stats in _result_rows(run) or [("–", DirectionStats())]:
            c = stats.lat_ns
            rows.append([str(run.id or "–"), label, name, fmt_count(stats.iops), fmt_mb(stats.bw_bytes_per_s),
                         fmt_mb(stats.bw_bytes_per_s, 1 << 20), fmt_us(c.mean), fmt_us(c.p50), fmt_us(c.p99), fmt_us(c.p99_9)])
    mixed = any(name == "all" for _, _, name, *_ in rows)
    b.table(RESULT_HEADER, rows, "results per run and direction. MB/s and MiB/s: bandwidth (MB = 10^6 bytes, MiB = 2^20 bytes). "
            "Mean, p50, p99, p99.9: latency (total, submission to completion: fio's lat) in microseconds, percentiles "
            "from the histogram bins" + ("; all: a run's reads and writes together, its percentiles those of all its "
                                         "I/Os from the merged bins (fio's unified_rw_reporting=mixed)" if mixed else "")
            + ". ⚠: see Observations and warnings.",
            widths=_RESULT_WIDTHS, numeric_from=3)
    _breakdown_table(b, groups)
    _device_queue_table(b, groups)
    summaries = [s for s in repeat_summaries(groups) if len(s.runs) > 1]
    if summaries:
        _repeats_table(b, summaries, len(groups) > 1)


def _breakdown_table(b: Builder, groups: Sequence[RunGroup]) -> None:
    """Where an engine split total latency (fio's asynchronous engines), its two parts per run."""
    rows = [[str(run.id or "–"), run.workload.label, name, fmt_us(stats.slat_ns.mean), fmt_us(stats.clat_ns.mean),
             fmt_us(stats.lat_ns.mean)]
            for run in _runs(groups) for name, stats in _direction_rows(run) if stats.slat_ns.mean is not None]
    if rows:
        b.table(["Run", "Workload", "Dir.", "Submission (µs)", "Completion (µs)", "Total (µs)"], rows,
                "latency breakdown, means: submission (slat, the submit call) + completion (clat, from the call's return "
                "to completion) = total. Synchronous calls and the portable engine time the whole call, so their runs "
                "are not listed here.", numeric_from=3)


def _device_queues(run: RunResult) -> list[tuple[str, DeviceQueue]]:
    """The run's own device queue, or on several hosts each host's (named "host: disk")."""
    if run.device_queue is not None:
        return [(run.device_queue.disk, run.device_queue)]
    return [(f"{host.host}: {host.device_queue.disk}", host.device_queue) for host in run.hosts if host.device_queue is not None]


def _device_queue_table(b: Builder, groups: Sequence[RunGroup]) -> None:
    """How much of each run's queue reached the device, where the disk's counters were read (runs with a queue)."""
    rows = [[str(run.id or "–"), run.workload.label, disk, str(queue.requested_outstanding), f"{queue.mean_in_flight:.1f}",
             fmt_us(queue.read_request_lat_ns_mean), fmt_us(queue.write_request_lat_ns_mean)]
            for run in _runs(groups) for disk, queue in _device_queues(run) if queue.requested_outstanding > 1]
    if rows:
        b.table(["Run", "Workload", "Disk", "Kept outstanding", "At the device (mean)", "Read (µs/request)",
                 "Write (µs/request)"], rows,
                "the device's side of the queue, from the disk's counters read around each run (on several hosts, each "
                "host's own disk): the mean number of I/Os "
                "the block layer held (the run's IOPS × block-layer time per I/O issued, Little's law) against the queue "
                "depth × jobs the engine kept outstanding, and the block layer's mean time per request. The rest of the "
                "queue waited in the engine's own thread (not yet submitted, or completed and not yet reaped); its latency "
                "includes that wait. Other I/O on the disk during a run counts too. Runs with one I/O outstanding are left out.",
                numeric_from=3)


def _ci(found: Figure | None, scale: float, fmt: str) -> str:
    if found is None:
        return "–"
    half = found.half_width
    return f"{found.value / scale:,.{fmt}f}" + (f" ± {half / scale:,.{fmt}f}" if half is not None else "")


def _repeats_table(b: Builder, summaries: Sequence[Summary], with_group: bool) -> None:
    rows = []
    for s in summaries:
        figures = [_ci(s.figure("iops"), 1, "0"), _ci(s.figure("bw_bytes_per_s"), 1e6, "1"),
                   _ci(s.figure("lat_ns_mean"), 1e3, "1"), _ci(s.figure("lat_ns_p99"), 1e3, "1")]
        rows.append(([s.group] if with_group else []) + [s.label, s.source, *figures])
    header = ["Setting", "n and source", "IOPS", "Bandwidth (MB/s)", "Mean latency (µs)",
              "p99 latency, all I/Os (µs)"]
    widths = [4.6 * cm, 3.9 * cm, 2.4 * cm, 2.1 * cm, 2.1 * cm, 1.9 * cm]
    b.table((["Group"] if with_group else []) + header, rows,
            "settings measured more than once, as mean ± half width of the 95 % confidence "
            "interval (Student's t, n−1 degrees of freedom): the repeats a sweep asked for, or "
            "runs pooled on request; n and where the runs came from beside each. The p99 is that of "
            "all the runs' I/Os together, reads and writes, from their added histogram bins: a "
            "percentile is never averaged, so it has no interval",
            widths=None if with_group else widths, numeric_from=3 if with_group else 2)


def hosts_section(b: Builder, groups: Sequence[RunGroup]) -> bool:
    """Per-host rows of multi-host runs (and of runs that watched storage nodes); returns False (and
    writes nothing) when there are none."""
    runs = [r for r in _runs(groups) if len(r.hosts) > 1 or r.watched]
    if not runs:
        return False
    b.heading("Per-host results, network and CPU")
    rows = []
    for run in runs:
        for host in run.hosts:
            for name, stats in _direction_rows(host) or [("–", DirectionStats())]:
                rows.append([str(run.id or "–"), host.host, name, fmt_count(stats.iops), fmt_mb(stats.bw_bytes_per_s),
                             fmt_us(stats.lat_ns.mean), fmt_us(stats.lat_ns.p99), host.error or "ok"])
    skew = [f"run {r.id}: {r.start_skew_ms:.0f} ms" for r in runs if r.start_skew_ms is not None]
    b.table(["Run", "Host", "Dir.", "IOPS", "Bandwidth (MB/s)", "Mean latency (µs)", "p99 (µs)", "Status"], rows,
            "each host's own result; the run's total adds IOPS and bandwidth over hosts that ran at the same time and "
            "merges their latency histograms", numeric_from=3)
    _watched_table(b, runs)
    if skew:
        b.para("Spread of the hosts' fio start times: " + "; ".join(skew) + ".")
    clocks = [f"run {r.id} {h.host}: {h.clock_offset_label}"
              for r in runs for h in r.hosts if h.clock_offset_label]
    if clocks:
        b.para("Each host's clock minus ssdprof's, measured over its SSH session as the point "
               "started (± half the round trip; start times above are on ssdprof's clock): "
               + "; ".join(clocks) + ".")
    return True


def _watched_table(b: Builder, runs: Sequence[RunResult]) -> None:
    """The storage nodes watched during the runs (monitor-only hosts: no I/O of the run's)."""
    rows = [[str(run.id or "–"), host.host, str(host.seconds), _pct(host.cpu_busy_pct_mean),
             _busiest_link(host), ", ".join(f"{disk} {pct:.0f}" for disk, pct
                                             in host.disk_busy_pct_median.items()) or "–",
             host.error or "watched"]
            for run in runs for host in run.watched]
    if rows:
        b.table(["Run", "Watched host", "Seconds", "CPU busy (%)", "Busiest link (MB/s, median s)",
                 "Disks busy (%)", "Status"], rows,
                "storage nodes watched during the run without running its I/O: the median second "
                "of each interface and disk; one near its link limit or ~100 % busy was the limit",
                numeric_from=2)


def _busiest_link(host: WatchedHost) -> str:
    if not host.interfaces:
        return "–"
    load = host.interfaces[0]
    busiest = max(load.tx_bytes_per_s_median, load.rx_bytes_per_s_median)
    carried = f"{load.interface}: {fmt_mb(busiest)}"
    limit = load.link_limit_bytes_per_s
    return f"{carried} of {fmt_mb(limit)}" if limit else carried


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"

