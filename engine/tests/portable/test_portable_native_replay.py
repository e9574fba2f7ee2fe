"""A trace replayed by the portable engine's compiled loop where fio is missing (portable/native_replay.py, through
the replay runner as any replay): every I/O once, bytes per direction exact, the recorded timing kept within 5 % of
the trace's span, each I/O's issue time kept; the same figures as fio's replay of the same trace."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import requires_fio
from trace_files import Io, random_ios, write_msr

from ssdprof.app.replay import ReplayRunner
from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import ReplayTiming
from ssdprof.model.replay_results import ReplayResult
from ssdprof.store.db import RunFilter, Store

SPAN_S = 3.0


def replayed(store: Store, trace: Path, target: Path, engine: str, **asked: object) -> ReplayResult:
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(target), engine=engine, lanes=4, **asked),
                              check_target=True)
    outcome = ReplayRunner(store).run(job)
    assert outcome.status == "done", outcome.result.warnings
    return outcome.result


def expect_every_io_once(result: ReplayResult, ios: list[Io]) -> None:
    for direction, write in (("read", False), ("write", True)):
        chosen = [io for io in ios if io.write == write]
        assert getattr(result, f"{direction}_io_count") == len(chosen), direction
        assert getattr(result, f"{direction}_io_bytes") == sum(io.size for io in chosen), direction


def test_without_fio_the_compiled_loop_replays_every_io_once_at_its_recorded_time(
        native_program: Path, disk_dir: Path, fresh_store: Store) -> None:
    ios = random_ios(200, span_s=SPAN_S, seed=51, region=16 << 20)
    trace = write_msr(disk_dir / "hm_1.csv", ios)
    result = replayed(fresh_store, trace, disk_dir, "portable")
    expect_every_io_once(result, ios)
    assert result.engine == "portable" and abs(result.span_change_pct or 0) <= 5, result.timing_sentence
    issued = result.spec.issued
    assert issued is not None and issued.issued == len(ios) and issued.late_p50_ms is not None
    assert issued.late_p50_ms < 0.01 * SPAN_S * 1000
    assert sum(r.replayed_read_iops or 0 for r in result.rates) == result.read_io_count  # 1 s steps: IOPS are counts
    [run] = fresh_store.runs(RunFilter(sweep_id=result.id, limit=None))
    assert run.engine.loop == "native" and "--trace" in run.engine.reason and run.read.lat_bins_ns
    assert sum(run.read.lat_bins_ns.values()) == result.read_io_count
    assert "read_iolog=" in run.job_text, "the fio job that replays the same lanes, kept with the run"
    assert [p.name for p in disk_dir.iterdir() if p.name.startswith("ssdprof-testfile")] == []


def test_as_fast_as_possible_the_compiled_loop_does_not_wait_for_the_recorded_times(
        native_program: Path, disk_dir: Path, fresh_store: Store) -> None:
    ios = random_ios(300, span_s=60, seed=52, region=16 << 20)
    result = replayed(fresh_store, write_msr(disk_dir / "t.csv", ios), disk_dir, "portable", timing=ReplayTiming.FASTEST)
    expect_every_io_once(result, ios)
    assert result.replayed_span_s is not None and result.replayed_span_s < 30


@requires_fio
def test_the_compiled_loop_and_fio_replay_one_trace_to_the_same_counts_bytes_and_timing(
        native_program: Path, disk_dir: Path, fresh_store: Store) -> None:
    ios = random_ios(150, span_s=SPAN_S, seed=53, region=16 << 20)
    trace = write_msr(disk_dir / "t.csv", ios)
    native, fio = (replayed(fresh_store, trace, disk_dir, engine) for engine in ("portable", "fio"))
    assert (native.engine, fio.engine) == ("portable", "fio")
    for result in (native, fio):
        expect_every_io_once(result, ios)
        assert abs(result.span_change_pct or 0) <= 5, (result.engine, result.timing_sentence)
    assert native.recorded_span_s == fio.recorded_span_s and native.spec.lanes == fio.spec.lanes
    assert [r.recorded_read_iops for r in native.rates] == [r.recorded_read_iops for r in fio.rates]


def test_a_fio_too_old_for_timed_iologs_gives_way_to_the_compiled_loop(native_program: Path, disk_dir: Path,
                                                                       fresh_store: Store, tmp_path: Path) -> None:
    old = tmp_path / "fio"  # a stand-in named as such: fio 3.30 cannot be installed beside this machine's 3.33
    old.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo fio-3.30 && exit 0\n"
                   "[ \"$1\" = --enghelp ] && echo 'Available IO engines:' && echo '\tlibaio' && exit 0\nexit 1\n")
    old.chmod(0o755)
    ios = random_ios(40, span_s=1, seed=54, region=16 << 20)
    trace = write_msr(disk_dir / "t.csv", ios)
    runner = ReplayRunner(fresh_store, fio_executable=str(old))
    outcome = runner.run(plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir)), check_target=True))
    assert outcome.status == "done" and outcome.result.engine == "portable"
    expect_every_io_once(outcome.result, ios)
    with pytest.raises(WorkloadError, match=r"older than fio 3\.31"):  # fio insisted on: refused, not swapped
        runner.run(plan_replay_request(ReplayRequest(trace=str(trace), target=str(disk_dir), engine="fio")))
