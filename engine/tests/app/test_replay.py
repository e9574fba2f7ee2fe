"""A replay run on this machine with the real fio: stored as a replay with its run, read back beside the trace,
cancelled and run again, refused where it cannot run."""

import threading
from pathlib import Path

import pytest
from conftest import requires_fio
from trace_files import random_ios, write_iolog_v3, write_msr

from ssdprof.analysis.stats import compare_groups
from ssdprof.app.replay import ReplayRunner
from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.app.runner import Runner
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import ReplayTiming
from ssdprof.model.replay_events import ReplayFinished, ReplayProgress, ReplayStarted
from ssdprof.store.db import RunFilter, Store

pytestmark = requires_fio


def test_a_replay_is_stored_with_its_run_and_read_back_beside_the_trace(disk_dir: Path, fresh_store: Store) -> None:
    ios = random_ios(240, span_s=3, seed=21, region=16 << 20)
    trace = write_msr(disk_dir / "hm_1.csv", ios)
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), lanes=8), check_target=True)
    events: list[object] = []
    outcome = ReplayRunner(fresh_store).run(job, on_event=events.append)

    assert outcome.status == "done"
    assert isinstance(events[0], ReplayStarted) and isinstance(events[-1], ReplayFinished)
    assert any(isinstance(e, ReplayProgress) and e.recorded_read_iops is not None for e in events)
    result = outcome.result
    reads = [io for io in ios if not io.write]
    assert (result.read_io_count, result.read_io_bytes) == (len(reads), sum(io.size for io in reads))
    assert result.latency[0].recorded_count == len(reads) and result.latency[0].replayed_p99_ns is not None
    assert result.latency[0].recorded_p50_ns == job.spec.replay.recorded.recorded_read_lat_ns.p50  # type: ignore[union-attr]
    assert abs(result.span_change_pct or 0) <= 5, result.timing_sentence
    issued = result.spec.issued
    assert issued is not None and issued.issued == len(ios)
    assert sum(issued.reads_per_step) == len(reads)
    assert sum(r.replayed_read_iops or 0 for r in result.rates) == len(reads)  # 1 s steps: IOPS are counts
    [run] = fresh_store.runs(RunFilter(sweep_id=result.id, limit=None))
    assert run.id == result.run_id and run.tags["replay"] == "hm_1.csv" and run.read.lat_bins_ns
    assert [p.name for p in disk_dir.iterdir() if p.name.startswith("ssdprof-testfile")] == []
    assert [r.id for r in ReplayRunner(fresh_store).listed()] == [result.id]


def test_a_cancelled_replay_keeps_no_run_and_runs_again_from_its_start_on_resume(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_iolog_v3(disk_dir / "t.log", random_ios(200, span_s=6, seed=22, region=8 << 20))
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), lanes=4), check_target=True)
    cancel = threading.Event()

    def stop_after_a_second(event: object) -> None:
        if isinstance(event, ReplayProgress):
            cancel.set()

    runner = ReplayRunner(fresh_store)
    first = runner.run(job, on_event=stop_after_a_second, cancel=cancel)
    assert first.status == "cancelled" and first.result.run_id is None
    again = runner.run(resume_id=first.test_id)
    assert again.status == "done" and again.result.read_io_count + again.result.write_io_count == 200
    with pytest.raises(KeyError, match="is finished"):
        runner.run(resume_id=first.test_id)


def test_a_replay_whose_trace_changed_is_not_run_again(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(20, span_s=1, seed=23))
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir)), check_target=True)
    stored = fresh_store.create_sweep(job.spec, kind="replay")
    trace.write_text(trace.read_text() + trace.read_text().splitlines()[0] + "\r\n")
    with pytest.raises(KeyError, match="changed since the replay was planned"):
        ReplayRunner(fresh_store).run(resume_id=stored)


def test_the_portable_engine_without_its_compiled_loop_is_refused_with_the_reason_before_anything_is_stored(
        disk_dir: Path, fresh_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSDPROF_NATIVE_IO", str(disk_dir / "no-such-program"))
    trace = write_msr(disk_dir / "t.csv", random_ios(20, span_s=1, seed=24))
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), engine="portable"))
    with pytest.raises(WorkloadError, match="replays a trace with its compiled I/O loop only, and none runs here"):
        ReplayRunner(fresh_store).run(job)
    assert fresh_store.list_sweeps() == []


def test_a_replay_is_not_resumed_as_a_sweep(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(20, span_s=1, seed=25))
    stored = fresh_store.create_sweep(plan_replay_request(ReplayRequest(trace=str(trace))).spec, kind="replay")
    with pytest.raises(KeyError, match="is a trace replay"):
        Runner(fresh_store).run_sweep(plan_replay_request(ReplayRequest(trace=str(trace))).spec, resume_id=stored)


def test_two_targets_replaying_one_trace_compare_with_a_welch_verdict(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(60, span_s=0.5, seed=26, region=4 << 20))
    ids = []
    for side in ("a", "b"):
        (disk_dir / side).mkdir()
        job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir / side), repeats=3,
                                                timing=ReplayTiming.FASTEST, lanes=4), check_target=True)
        outcome = ReplayRunner(fresh_store).run(job)
        assert outcome.status == "done" and len(outcome.result.run_ids) == 3
        ids.append(outcome.result.id)
    a, b = (fresh_store.runs(RunFilter(sweep_id=i, limit=None)) for i in ids)
    [found] = compare_groups(a, b, "lat_ns_mean", scale=1e3, unit="µs")
    assert found.same_setting and len(found.a_run_ids) == len(found.b_run_ids) == 3
    assert found.result.verdict  # Welch's words: a difference, or none at this confidence


def test_a_replays_rates_are_its_ios_over_its_span_not_its_lanes_rates_summed(disk_dir: Path, fresh_store: Store) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(120, span_s=1, seed=27, region=4 << 20))
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), timing=ReplayTiming.FASTEST,
                                            lanes=8), check_target=True)
    result = ReplayRunner(fresh_store).run(job).result
    [run] = fresh_store.runs(RunFilter(sweep_id=result.id, limit=None))
    span_s = max(run.read.runtime_ms, run.write.runtime_ms) / 1000
    assert result.replayed_span_s == span_s
    assert run.read.iops == pytest.approx(run.read.io_count / span_s)
    assert run.write.bw_bytes_per_s == pytest.approx(run.write.io_bytes / span_s)
    assert run.mixed.iops == pytest.approx((run.read.io_count + run.write.io_count) / span_s)
