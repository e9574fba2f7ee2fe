"""Curve runs on real fio and on the portable engine: the maximum, then Poisson arrivals at fixed shares of it.

Short points (1.5 s: at 10 % of this VM's maximum still thousands of I/Os, so Poisson's own spread is a few
percent at most) all below 70 % of the maximum, where the issue asks for achieved IOPS within 5 % of offered
(the offer as the engine made it: fio's whole-microsecond gaps offer more than asked at high rates).

Latency on a shared 2-core VM is noisy, so p99's rise with load is
judged against the noise between repeats: the lightest point is run twice, and p99 at the heaviest point
may not fall below the lighter repeat by more than the repeats differ (at least a quarter, see below).
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio
from infra.netns_hosts import ssdprof_on_hosts

from ssdprof.app.adaptive import stored_curve
from ssdprof.app.curve import CurveRequest, plan_curve, summarize_curve, total
from ssdprof.app.planner import SweepRequest, WorkloadInput
from ssdprof.app.runner import Runner
from ssdprof.fio.jobfile import poisson_offered_iops
from ssdprof.model import histogram
from ssdprof.model.curves import CurveSummary
from ssdprof.model.events import PointFinished, RunEvent
from ssdprof.model.sweep import SweepSpec
from ssdprof.store.db import RunFilter, Store
from ssdprof.store.interchange import curve_csv

POINTS = "10,30,50"


def curve_request(target: Path, engine: str, points: str = POINTS) -> CurveRequest:
    base = WorkloadInput(target=str(target), engine=engine, pattern="randread", block_size_bytes="4k", queue_depth=8,
                         runtime_s=1.5, ramp_s=0.25, size_bytes="32MiB")
    return CurveRequest(sweep=SweepRequest(base=base), points_pct=points)


def assert_an_honest_curve(store: Store, spec: SweepSpec, outcome_spec: SweepSpec, sweep_id: int, runner: Runner) -> None:
    summary = stored_curve(store, sweep_id)
    paced = [p for p in summary.points if p.pct is not None]
    assert summary.max_iops and [p.pct for p in paced] == [10, 30, 50]
    for point, workload in zip(paced, outcome_spec.points[1:], strict=True):
        assert point.rate_iops == workload.rate_iops == round(summary.max_iops * point.pct / 100)  # type: ignore[operator]
        # what the engine offered: fio's Poisson gaps are whole microseconds (more than asked at high rates); the portable
        # engine paces the rate asked
        assert point.offered_iops == (poisson_offered_iops(workload, 1) if summary.engine == "fio" else workload.rate_iops)
        assert point.lat_ns_p99 and point.lat_ns_p99_9
        if not within_5_pct(point.achieved_iops, point.offered_iops):
            # Other programs share this disk and these 2 cores: a burst of theirs can take a point's IOPS.
            # The engine must still deliver the rate, so the point gets one plain re-run, and that must.
            again = total(runner.run_sweep(SweepSpec(name="re-run", points=[workload])).results[0]).iops
            assert within_5_pct(again, point.offered_iops), (point, again)
    # the noise between repeats, measured here: the lightest point once more, as a plain run at its rate
    light = outcome_spec.points[1]
    again = total(runner.run_sweep(SweepSpec(name="repeat", points=[light])).results[0]).lat_ns.p99
    assert again is not None and paced[0].lat_ns_p99 is not None and paced[-1].lat_ns_p99 is not None
    # One pair of repeats understates the spread: on this project's shared 2-core VM p99 of two repeats of one
    # point differed by up to a quarter (CPU wake-ups dominate the tail at light load), so that is the floor.
    noise = max(abs(paced[0].lat_ns_p99 - again), 0.25 * min(paced[0].lat_ns_p99, again))
    assert paced[-1].lat_ns_p99 >= min(paced[0].lat_ns_p99, again) - noise, (paced, again)
    runs = store.runs(RunFilter(sweep_id=sweep_id))
    assert {r.tags.get("curve_pct") for r in runs} == {"max", "10", "30", "50"}
    assert all(r.tags["offered_iops"] == str(r.workload.rate_iops) for r in runs if r.workload.rate_iops)
    assert curve_csv(summary).splitlines()[0].startswith("pct,offered_iops,achieved_iops,saturated")
    assert summary.knee is not None and summary.knee.text.startswith("p99 ")


def within_5_pct(achieved: float, offered: float) -> bool:
    return abs(achieved - offered) <= 0.05 * offered


def run_cancelled_then_resumed(store: Store, spec: SweepSpec) -> tuple[Runner, SweepSpec, int]:
    """Stop after the maximum, then resume: the rates come from the stored maximum."""
    cancel = threading.Event()

    def on_event(event: RunEvent) -> None:
        if isinstance(event, PointFinished):
            cancel.set()

    runner = Runner(store)
    first = runner.run_sweep(spec, on_event=on_event, cancel=cancel)
    assert first.status == "cancelled" and first.sweep_id is not None and len(first.results) == 1
    resumed = runner.run_sweep(spec, resume_id=first.sweep_id)
    assert resumed.status == "done" and len(resumed.results) == 3 and resumed.spec is not None
    assert summarize_curve(resumed.spec, resumed.measured, sweep_id=first.sweep_id, status="done").points[0].index == 0
    return runner, resumed.spec, first.sweep_id


@requires_fio
def test_a_fio_curve_offers_poisson_rates_resumes_and_p99_does_not_fall_with_load(disk_dir: Path, fresh_store: Store) -> None:
    spec = plan_curve(curve_request(disk_dir, "fio"))
    runner, grown, sweep_id = run_cancelled_then_resumed(fresh_store, spec)
    assert "rate_process=poisson" in fresh_store.runs(RunFilter(sweep_id=sweep_id))[-1].job_text
    assert_an_honest_curve(fresh_store, spec, grown, sweep_id, runner)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="the portable engine's real path is exercised on Linux")
def test_a_portable_curve_paces_the_same_way(disk_dir: Path, fresh_store: Store) -> None:
    spec = plan_curve(curve_request(disk_dir, "portable"))
    runner = Runner(fresh_store)
    outcome = runner.run_sweep(spec)
    assert outcome.status == "done" and outcome.sweep_id is not None and outcome.spec is not None
    assert all(r.engine.name == "portable" for r in outcome.results)
    assert_an_honest_curve(fresh_store, spec, outcome.spec, outcome.sweep_id, runner)


@requires_fio
def test_a_curve_stops_once_p99_passes_the_stop_latency(disk_dir: Path, fresh_store: Store) -> None:
    request = curve_request(disk_dir, "fio", points="50,60").model_copy(update={"stop_latency": "1us"})
    request = request.model_copy(update={"sweep": request.sweep.model_copy(update={"base": request.sweep.base.model_copy(
        update={"runtime_s": 0.5, "ramp_s": 0})})})
    outcome = Runner(fresh_store).run_sweep(plan_curve(request))
    assert outcome.spec is not None and [p.rate_iops > 0 for p in outcome.spec.points] == [False, True]
    summary = summarize_curve(outcome.spec, outcome.measured, sweep_id=outcome.sweep_id, status=outcome.status)
    assert summary.stopped_at_pct == 50 and len(summary.points) == 2


@requires_fio
def test_a_curve_on_two_hosts_splits_each_rate_between_them_and_merges_latency_by_bins(ssh_hosts: Any, tmp_path: Path) -> None:
    db = tmp_path / "curve.db"
    dirs = [f"--remote-dir={alias}={ssh_hosts.host_dirs[alias]}" for alias in ("h1", "h2")]
    done = ssdprof_on_hosts(ssh_hosts, "curve", "--host", "h1", "--host", "h2", *dirs, "--rw", "randread", "--bs", "4k", "--qd", "4",
                            "--size", "32MiB", "--runtime", "1", "--ramp", "0", "--points", "20", "--json", db=db)
    assert done.returncode == 0, done.stderr
    summary = CurveSummary.model_validate_json(done.stdout)
    paced = [p for p in summary.points if p.pct is not None]
    assert [p.pct for p in paced] == [20]
    store = Store(db)
    try:
        for point in paced:
            run = store.run(point.run_id or 0)
            assert run is not None and {h.host for h in run.hosts} == {"h1", "h2"}
            # each host's fio was given half the rate (its own job options, as its fio reported them) and offered it
            share = round(point.rate_iops / 2)
            for host in run.hosts:
                section = run.raw_output.split(f"### host {host.host}\n", 1)[1].split("### host ", 1)[0]
                assert set(re.findall(r'"rate_iops" : "(\d+)"', section)) == {str(share)}, section[:2000]
                assert within_5_pct(host.read.iops, point.offered_iops / 2), (host.host, host.read.iops, point)
            assert within_5_pct(point.achieved_iops, point.offered_iops), point
            # latency merged by adding the hosts' bins: the point's p99 is the percentile of the summed bins
            summed = histogram.merge(h.read.lat_bins_ns for h in run.hosts)
            assert summed and run.read.lat_bins_ns == summed
            assert point.lat_ns_p99 == histogram.percentile(summed, 99) and point.lat_ns_p50 == histogram.percentile(summed, 50)
    finally:
        store.close()
