"""Trace replays on real sshd hosts in network namespaces (tests/infra) with the real fio: the whole trace on every
host, or one trace split across them, each I/O at its recorded time from the hosts' common start."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from conftest import requires_fio
from infra.netns_hosts import ssdprof_on_hosts as ssdprof
from trace_files import Io, random_ios, write_iolog_v3, write_msr

from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.model import histogram
from ssdprof.model.replay import HostsMode
from ssdprof.model.sweep import SweepSpec
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.replay import ReplayOnHosts
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.trace.plan import ReplayPlan

pytestmark = requires_fio

HOSTS = ("h1", "h2")
SPAN_S = 5.0
"""Long enough that the scheduling delay of a loaded test machine (tens of ms) stays well inside 5 % of the span."""


def replay_dirs(hosts: Any) -> list[str]:
    return [f"--remote-dir={alias}={hosts.host_dirs[alias]}" for alias in HOSTS]


@contextmanager
def iolog_folders_seen() -> Iterator[set[Path]]:
    """The host sessions' folders (fio_wrapper.sh's, in the shared /tmp) seen holding a replay's iologs meanwhile."""
    seen: set[Path] = set()
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.1):
            seen.update(log.parent for log in Path("/tmp").glob("ssdprof-run.*/replay-0.iolog"))

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield seen
    finally:
        stop.set()
        watcher.join()


def no_fio_anywhere(hosts: Any) -> bool:
    return all(name != "fio" for alias in hosts.aliases for _, name in hosts.processes(alias))


def direction_totals(ios: list[Io]) -> dict[str, tuple[int, int]]:
    reads = [io for io in ios if not io.write]
    writes = [io for io in ios if io.write]
    return {"read": (len(reads), sum(io.size for io in reads)), "write": (len(writes), sum(io.size for io in writes))}


def test_a_trace_replayed_whole_on_two_hosts_issues_every_io_once_on_each_with_its_bytes_and_timing(
        ssh_hosts: Any, tmp_path: Path) -> None:
    ios = random_ios(150, span_s=SPAN_S, seed=31, region=8 << 20)
    trace = write_msr(tmp_path / "hm_1.csv", ios)
    with iolog_folders_seen() as seen:
        done = ssdprof(ssh_hosts, "replay", str(trace), "--host", "h1", "--host", "h2", *replay_dirs(ssh_hosts),
                       "--qd", "4", "--repeat", "2", "--json", db=tmp_path / "r.db")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = direction_totals(ios)
    assert result["hosts_mode"] == "whole" and result["recorded_copies"] == 2 and len(result["run_ids"]) == 2
    for host in result["hosts"]:
        assert host["error"] is None, host
        for direction, (count, size) in expected.items():
            assert (host[f"{direction}_io_count"], host[f"{direction}_io_bytes"]) == (count, size), (host["host"], direction)
            assert host[f"recorded_{direction}_count"] == count
        assert abs(host["span_change_pct"]) <= 5, host["timing_sentence"]
    assert (result["read_io_count"], result["read_io_bytes"]) == (2 * expected["read"][0], 2 * expected["read"][1])
    parts = {part["host"]: part for part in result["spec"]["parts"]}
    assert all(parts[alias]["issued"]["issued"] == len(ios) for alias in HOSTS), "each host issued every I/O once"
    # The aggregate is exact: the hosts' bins added, its percentiles read from them.
    run = Store(tmp_path / "r.db").run(result["run_id"])
    assert run is not None
    summed = histogram.merge(h.read.lat_bins_ns for h in run.hosts)
    assert run.read.lat_bins_ns == summed and run.read.lat_ns.p99 == histogram.percentile(summed, 99)
    assert {p.host for p in run.progress} == set(HOSTS)
    # Cleaned up: the iologs went with each host's session, the test files with the replay, fio with its point.
    assert seen, "the iologs were put in the hosts' session folders"
    assert not any(folder.exists() for folder in seen), sorted(seen)
    assert all(not list(Path(ssh_hosts.host_dirs[alias]).glob("ssdprof-testfile-*")) for alias in HOSTS)
    assert no_fio_anywhere(ssh_hosts)


def trace_with_a_late_second_io(tmp_path: Path) -> tuple[Path, list[Io]]:
    """The split deals I/O 1 to the second host first: recorded at 1.5 s, it must wait 1.5 s from the common start
    there, not from that host's own first I/O."""
    rest = random_ios(120, span_s=SPAN_S - 1.5, seed=32, region=8 << 20)
    ios = [rest[0], *[Io(io.time_us + 1_500_000, io.write, io.offset, io.size) for io in rest[1:]]]
    return write_iolog_v3(tmp_path / "app.iolog", ios), ios


def engine_for(hosts: Any, tmp_path: Path, request: ReplayRequest) -> tuple[ReplayOnHosts, SweepSpec,
                                                                          dict[str, ReplayPlan]]:
    job = plan_replay_request(request)
    options = RemoteOptions(hosts=[parse_host(alias) for alias in HOSTS],
                            ssh=SshSettings(config=hosts.ssh_config_path, leftovers=tmp_path / "leftovers"),
                            target_dirs={alias: str(hosts.host_dirs[alias]) for alias in HOSTS})
    return ReplayOnHosts(options, job.host_plans), job.spec, job.host_plans


def issued_ios(lines: dict[str, list[str]]) -> list[tuple[int, bool, int, int]]:
    """(time ms, write, size, offset) of every I/O a host's fio logged as submitted."""
    rows = [line.split(",") for log in lines.values() for line in log]
    return [(int(r[0]), int(r[2]) == 1, int(r[3]), int(r[4])) for r in rows]


def test_a_split_trace_issues_each_io_on_exactly_one_host_at_its_time_from_the_common_start(
        ssh_hosts: Any, tmp_path: Path) -> None:
    trace, ios = trace_with_a_late_second_io(tmp_path)
    engine, spec, plans = engine_for(ssh_hosts, tmp_path, ReplayRequest(
        trace=str(trace), hosts=list(HOSTS), hosts_mode=HostsMode.SPLIT, lanes=2,
        remote_dirs={alias: str(ssh_hosts.host_dirs[alias]) for alias in HOSTS}))
    with iolog_folders_seen() as seen:
        try:
            engine.prepare(spec)
            measured = engine.measure(spec.points[0], Path("/"), is_device=False, on_progress=None,
                                      cancel=threading.Event())
            logged = {run.host.name: issued_ios(run.issued) for run in engine.last_runs}
        finally:
            engine.cleanup()
            engine.close()
    assert measured.errors == [] and measured.start_skew_ms is not None and measured.start_skew_ms < 100
    what = Counter((io.write, io.size, io.offset) for io in ios)
    on_hosts = {alias: Counter((w, size, offset) for _, w, size, offset in logged[alias]) for alias in HOSTS}
    assert on_hosts["h1"] + on_hosts["h2"] == what, "every I/O of the trace issued, each on exactly one host"
    for result in measured.hosts:
        share = [ios[i] for i in range(HOSTS.index(result.host), len(ios), len(HOSTS))]
        assert on_hosts[result.host] == Counter((io.write, io.size, io.offset) for io in share)
        totals = direction_totals(share)
        assert (result.read.io_count, result.read.io_bytes) == totals["read"]
        assert (result.write.io_count, result.write.io_bytes) == totals["write"]
        plan = plans[result.host]
        recorded_end_s = int(plan.records.time_ns.max()) / 1e9
        replayed_s = max(result.read.runtime_ms, result.write.runtime_ms) / 1000
        assert abs(replayed_s - recorded_end_s) <= 0.05 * recorded_end_s, (result.host, replayed_s, recorded_end_s)
    # Timed from the common start: the second host's first I/O went out 1.5 s in, as recorded, not at once.
    first_on_h2 = min(t for t, *_ in logged["h2"])
    assert 1450 <= first_on_h2 <= 1600, first_on_h2
    issued = engine.issued_ns["h2"]
    assert issued is not None and bool((issued >= 0).all())
    late_ms = (issued - plans["h2"].records.time_ns) / 1e6
    assert float(np.median(late_ms)) < 0.02 * SPAN_S * 1000, sorted(late_ms.tolist())[-5:]
    assert no_fio_anywhere(ssh_hosts)
    assert seen and not any(folder.exists() for folder in seen), "each host's iologs went with its session"


def test_a_host_session_lost_between_repeats_gets_its_iologs_again_in_the_new_one(ssh_hosts: Any, tmp_path: Path) -> None:
    ios = random_ios(40, span_s=1, seed=34, region=8 << 20)
    engine, spec, _ = engine_for(ssh_hosts, tmp_path, ReplayRequest(
        trace=str(write_msr(tmp_path / "t.csv", ios)), hosts=list(HOSTS), lanes=2,
        remote_dirs={alias: str(ssh_hosts.host_dirs[alias]) for alias in HOSTS}))
    try:
        engine.prepare(spec)
        first = engine.measure(spec.points[0], Path("/"), is_device=False, on_progress=None, cancel=threading.Event())
        assert engine._launch is not None
        lost = engine._launch.sessions["h2"]
        lost.process.kill()  # the session ends, and its folder with the iologs goes with it on the host
        lost.ended.wait(10)
        again = engine.measure(spec.points[0], Path("/"), is_device=False, on_progress=None, cancel=threading.Event())
    finally:
        engine.cleanup()
        engine.close()
    assert engine._shipped["h2"] is not lost
    for measured in (first, again):
        assert measured.errors == []
        assert [h.read.io_count + h.write.io_count for h in measured.hosts] == [len(ios), len(ios)]
