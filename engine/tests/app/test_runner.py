"""Sweeps end to end with real fio: commit as points finish, cancel, resume, clean up."""

import threading
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.engines import choose_engine
from ssdprof.app.runner import Runner
from ssdprof.model.events import PointFinished, PointProgress, RunEvent, SweepStarted
from ssdprof.model.sweep import SweepMode, SweepSpec, build_sweep
from ssdprof.model.workload import EngineChoice, WorkloadError, parse_workload
from ssdprof.store.db import RunFilter, Store

pytestmark = requires_fio


def base(target: Path, **changes: object) -> object:
    return parse_workload({"target": str(target), "runtime_s": 1, "ramp_s": 0, "size_bytes": "32MiB", **changes})


def test_auto_picks_fio_when_installed_and_says_why() -> None:
    engine = choose_engine(EngineChoice.AUTO)
    assert engine.name == "fio" and "fio found" in engine.reason


def test_asking_for_a_missing_fio_names_the_engine_field() -> None:
    with pytest.raises(WorkloadError, match="install it") as caught:
        choose_engine(EngineChoice.FIO, fio_executable="fio-that-does-not-exist")
    assert caught.value.problems[0].field == "engine"


def test_a_sweep_commits_each_point_emits_progress_and_removes_its_test_file(disk_dir: Path, fresh_store: Store) -> None:
    spec = build_sweep(base(disk_dir, runtime_s=2), {"queue_depth": [1, 4]}, SweepMode.ONE_AT_A_TIME)  # type: ignore[arg-type]
    events: list[RunEvent] = []
    outcome = Runner(fresh_store).run_sweep(spec, on_event=events.append)
    assert outcome.status == "done"
    assert [r.workload.queue_depth for r in outcome.results] == [1, 4]
    assert all(r.read.iops > 0 and r.read.lat_ns.p99 is not None for r in outcome.results)
    assert len(fresh_store.runs(RunFilter(sweep_id=outcome.sweep_id))) == 2
    assert any(isinstance(e, PointProgress) for e in events)
    assert isinstance(events[0], SweepStarted)
    assert list(disk_dir.iterdir()) == []


def test_every_result_records_its_environment_and_engine(disk_dir: Path) -> None:
    result = Runner(None).run_sweep(SweepSpec(name="one", points=[base(disk_dir)])).results[0]
    env = result.environment
    assert env.kernel and env.cpu_count > 0 and env.filesystem and env.tool_versions["fio"].startswith("fio-")
    assert result.engine.name == "fio" and result.engine.ioengine in ("io_uring", "libaio")
    assert "[global]" in result.job_text and result.raw_output.lstrip().startswith("{")


def test_cancel_keeps_finished_points_and_cleans_up(disk_dir: Path, fresh_store: Store) -> None:
    spec = build_sweep(base(disk_dir, runtime_s=2), {"queue_depth": [1, 2, 4]}, SweepMode.ONE_AT_A_TIME)  # type: ignore[arg-type]
    cancel = threading.Event()

    def on_event(event: RunEvent) -> None:
        if isinstance(event, PointFinished):
            cancel.set()

    outcome = Runner(fresh_store).run_sweep(spec, on_event=on_event, cancel=cancel)
    assert outcome.status == "cancelled"
    assert len(outcome.results) == 1
    assert list(disk_dir.iterdir()) == []


def test_resuming_runs_only_the_points_not_yet_finished(disk_dir: Path, fresh_store: Store) -> None:
    spec = build_sweep(base(disk_dir), {"queue_depth": [1, 2, 4]}, SweepMode.ONE_AT_A_TIME)  # type: ignore[arg-type]
    cancel = threading.Event()
    first = Runner(fresh_store).run_sweep(spec, on_event=lambda e: isinstance(e, PointFinished) and cancel.set(), cancel=cancel)
    second = Runner(fresh_store).run_sweep(spec, resume_id=first.sweep_id)
    assert [r.workload.queue_depth for r in second.results] == [2, 4]
    assert second.status == "done"
    stored = fresh_store.runs(RunFilter(sweep_id=first.sweep_id))
    assert sorted(r.workload.queue_depth for r in stored) == [1, 2, 4]


def test_a_ram_backed_target_is_refused_as_not_a_device() -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm")
    with pytest.raises(WorkloadError, match="lives in RAM") as caught:
        Runner(None).run_sweep(SweepSpec(name="ram", points=[base(Path("/dev/shm"))]))
    assert caught.value.problems[0].field == "target"


def test_an_explicitly_buffered_run_is_labelled_as_not_device_numbers(disk_dir: Path) -> None:
    result = Runner(None).run_sweep(SweepSpec(name="b", points=[base(disk_dir, direct=False)])).results[0]
    assert "buffered" in {w.code for w in result.warnings}
    assert result.engine.direct is False
