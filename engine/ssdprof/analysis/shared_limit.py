"""A shared limit beyond the clients: across a sweep, aggregate bandwidth that stops growing as the
clients, jobs or access size grow, while no client was CPU- or NIC-bound and no client's own disk
was the limit, is held by something they share (a storage node's link, a switch, the cluster), and
is named with the common link rates it fits: "≈ 1.18 GB/s: one 10 GbE link".

Read by :func:`ssdprof.analysis.observations.observe`, so the GUI's observations and the PDF say
it alike. Whole runs only: a summary carries neither the hosts' figures nor the warnings.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdprof.analysis.metrics import setting_key
from ssdprof.model.plateau import device_was_limit
from ssdprof.model.quantities import format_size
from ssdprof.model.results import RunResult
from ssdprof.model.run_summary import AnyRun

__all__ = [
    "CLIENT_LIMIT_CODES",
    "LINK_GBPS",
    "SharedLimit",
    "counting_step",
    "link_fits",
    "rate_words",
    "shared_limits",
]

LINK_GBPS = (1.0, 2.5, 10.0, 25.0, 40.0, 100.0)
"""Common Ethernet line rates, Gb/s."""
PAYLOAD_RANGE = (0.85, 1.01)
"""What a link's line rate carries as the bandwidth a client counts: ~94-95 % at MTU 1500, ~99 %
with jumbo frames, a few % less under a storage protocol's own headers (1.01: rounding, clocks)."""
MOST_LINKS = 8
"""Bonded or parallel links counted up to this many."""
STILL_FLAT = 0.10
"""The factor at least doubled and the aggregate moved less than this: it stopped growing."""
CLIENT_LIMIT_CODES = frozenset({"cpu_bound", "network_bound"})
"""Validity warnings that put the limit in a client, not beyond it (cpu_saturated is the measuring
machine's, which is not in the data path of a run on hosts)."""
_COUNT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight")


@dataclass(frozen=True)
class SharedLimit:
    factor: str
    """What grew: "clients", "jobs" or "access size"."""
    bytes_per_s: float
    """The aggregate it held at: the mean over the flat points."""
    grew: str
    """From where to where, in words: "1 to 4 jobs"."""
    setting: str
    """The rest of the setting, e.g. "read 4MiB on h1, h2"."""
    run_ids: tuple[int | None, ...]
    fits: tuple[str, ...]
    """The link rates it fits, fewest links first: "one 10 GbE link"."""
    busy: str = ""
    """A watched (monitor-only) host's busiest interface in the flat runs, in words; '' if none."""


_FACTORS: tuple[
    tuple[str, frozenset[str], Callable[[RunResult], float], Callable[[float, float], str]], ...
] = (
    (
        "jobs",
        frozenset({"jobs"}),
        lambda r: float(r.workload.numjobs),
        lambda a, b: f"{a:g} to {b:g} jobs",
    ),
    (
        "access size",
        frozenset({"bs"}),
        lambda r: float(r.workload.block_size_bytes),
        lambda a, b: f"{format_size(int(a))} to {format_size(int(b))}",
    ),
    (
        "clients",
        frozenset({"hosts"}),
        lambda r: float(len(r.hosts)),
        lambda a, b: f"{a:g} to {b:g} clients",
    ),
)


def link_fits(bytes_per_s: float, step_bytes_per_s: float = 0.0) -> tuple[str, ...]:
    """The common link rates (and up to eight links of one) whose payload ``bytes_per_s`` fits,
    give or take ``step_bytes_per_s``: what counting whole I/Os can add or miss (see
    :func:`counting_step`)."""
    fits = []
    for count in range(1, MOST_LINKS + 1):
        for gbps in LINK_GBPS:
            line_rate = count * gbps * 1e9 / 8
            low = PAYLOAD_RANGE[0] * line_rate - step_bytes_per_s
            if low <= bytes_per_s <= PAYLOAD_RANGE[1] * line_rate + step_bytes_per_s:
                fits.append(
                    f"{_COUNT_WORDS[count - 1]} {gbps:g} GbE link{'s' if count > 1 else ''}"
                )
    return tuple(fits)


def counting_step(run: RunResult) -> float:
    """Bytes per second a run's bandwidth can be off by from counting whole I/Os: on every client
    the window counts an I/O more or less at either end (one in flight as it opened, or as it
    closed). In CI two clients reading 4 MiB through a 1 Gb/s shaper counted 126.5 MB/s over
    2 s, 1.2 % above the line rate: one 4 MiB I/O is 1.7 % of it."""
    seconds = run.workload.runtime_s
    return 2 * run.workload.block_size_bytes * max(len(run.hosts), 1) / seconds if seconds else 0.0


def shared_limits(runs: Sequence[AnyRun]) -> list[SharedLimit]:
    """Every factor along which the clients' aggregate stopped growing with no client to blame."""
    whole = [
        r
        for r in runs
        if isinstance(r, RunResult) and r.status in ("ok", "partial") and _on_clients(r)
    ]
    found = []
    for factor, drop, value, words in _FACTORS:
        groups: dict[tuple[object, ...], list[RunResult]] = {}
        for run in whole:
            groups.setdefault(setting_key(run, drop), []).append(run)
        for group in groups.values():
            limit = _flat_tail(group, value)
            if limit is not None and not any(_client_bound(r) for r in limit[2]):
                low, high, flat_runs = limit
                found.append(_named(factor, flat_runs, words(low, high)))
    return found


def _on_clients(run: RunResult) -> bool:
    """Measured from SSH clients (this machine's own runs have no clients to look beyond)."""
    return bool(run.hosts) and all(h.host != "local" for h in run.hosts)


def _client_bound(run: RunResult) -> bool:
    """A client held by its own CPU, NIC or disk: the limit is not beyond the clients."""
    return any(w.code in CLIENT_LIMIT_CODES for w in run.warnings) or any(
        device_was_limit(h.device_queue) for h in run.hosts
    )


def _flat_tail(
    group: list[RunResult], value: Callable[[RunResult], float]
) -> tuple[float, float, list[RunResult]] | None:
    """The largest settings over which the aggregate held within STILL_FLAT while the factor at
    least doubled: (from, to, their runs); None when it kept growing or too little was measured."""
    by_value: dict[float, list[RunResult]] = {}
    for run in group:
        by_value.setdefault(value(run), []).append(run)
    if len(by_value) < 2:
        return None
    means = {v: statistics.fmean(_bandwidth(r) for r in rs) for v, rs in sorted(by_value.items())}
    values = list(means)
    start = len(values) - 1
    while start > 0:
        tail = [means[v] for v in values[start - 1 :]]
        if max(tail) > (1 + STILL_FLAT) * min(tail):
            break
        start -= 1
    low, high = values[start], values[-1]
    if high < 2 * low or min(means[v] for v in values[start:]) <= 0:
        return None
    return low, high, [r for v in values[start:] for r in by_value[v]]


def _bandwidth(run: RunResult) -> float:
    return run.read.bw_bytes_per_s + run.write.bw_bytes_per_s


def _named(factor: str, runs: list[RunResult], grew: str) -> SharedLimit:
    w = runs[0].workload
    setting = (
        f"{w.pattern.value} {format_size(w.block_size_bytes)}"
        if factor != "access size"
        else w.pattern.value
    )
    if factor != "clients":
        setting += f" on {', '.join(sorted(h.host for h in runs[0].hosts))}"
    rate = statistics.fmean(_bandwidth(r) for r in runs)
    return SharedLimit(
        factor=factor,
        bytes_per_s=rate,
        grew=grew,
        setting=setting,
        run_ids=tuple(r.id for r in runs),
        fits=link_fits(rate, statistics.fmean(counting_step(r) for r in runs)),
        busy=_busiest(runs),
    )


def _busiest(runs: list[RunResult]) -> str:
    """The watched hosts' interface that carried the most (its median second, either way) in the
    flat runs: where a storage node's link is the shared wall, the busy one."""
    loads = [(max(i.rx_bytes_per_s_median, i.tx_bytes_per_s_median), w.host, i)
             for r in runs for w in r.watched for i in w.interfaces]
    if not loads:
        return ""
    carried, host, interface = max(loads, key=lambda load: load[0])
    limit = interface.link_limit_bytes_per_s
    of = f" of its {limit / 1e6:.0f} MB/s link ({interface.link_limit_source})" if limit else ""
    return f"{host}'s {interface.interface} carried {carried / 1e6:.0f} MB/s (median second){of}"


def rate_words(bytes_per_s: float) -> str:
    """≈ 1.18 GB/s, ≈ 118 MB/s."""
    return (
        f"≈ {bytes_per_s / 1e9:.2f} GB/s"
        if bytes_per_s >= 1e9
        else f"≈ {bytes_per_s / 1e6:.0f} MB/s"
    )
