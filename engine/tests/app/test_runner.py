"""Sweeps end to end with real fio: commit as points finish, cancel, resume, clean up."""

import threading
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.curve import CurveRequest, plan_curve
from ssdprof.app.engines import choose_engine
from ssdprof.app.planner import SweepRequest, WorkloadInput
from ssdprof.app.runner import Runner
from ssdprof.app.slo import SloRequest, plan_slo
from ssdprof.model.events import PointFinished, PointProgress, PointStarted, RunEvent, SweepFinished, SweepStarted
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


Counted = SweepStarted | PointStarted | PointFinished


def counts(events: list[RunEvent], kind: type[Counted]) -> list[tuple[int, int | None, str]]:
    """(done, total, bound) of each event of a kind, in order."""
    return [(e.count.done, e.count.total, e.count.bound) for e in events if isinstance(e, kind)]


def test_a_curves_progress_counts_its_probe_and_rates_from_the_first_event(disk_dir: Path, fresh_store: Store) -> None:
    fields = WorkloadInput(target=str(disk_dir), engine="fio", queue_depth=2, runtime_s=0.5, ramp_s=0,
                           size_bytes="32MiB")
    curve = plan_curve(CurveRequest(sweep=SweepRequest(base=fields), points_pct="20,60"))
    events: list[RunEvent] = []
    outcome = Runner(fresh_store).run_sweep(curve, on_event=events.append)
    assert outcome.status == "done" and len(outcome.results) == 3
    assert counts(events, SweepStarted) == [(0, 3, "exact")]
    assert counts(events, PointStarted) == [(0, 3, "exact"), (1, 3, "exact"), (2, 3, "exact")]
    assert counts(events, PointFinished) == [(1, 3, "exact"), (2, 3, "exact"), (3, 3, "exact")]
    progress = [e for e in events if isinstance(e, PointProgress)]
    assert progress and all(e.count.total == 3 for e in progress)
    assert isinstance(events[-1], SweepFinished) and events[-1].status == "done"


def test_a_searchs_progress_counts_the_depths_tried_and_promises_no_total(disk_dir: Path, fresh_store: Store) -> None:
    fields = WorkloadInput(target=str(disk_dir), engine="fio", runtime_s=0.5, ramp_s=0, size_bytes="32MiB")
    search = plan_slo(SloRequest(sweep=SweepRequest(base=fields), latency="1s", max_qd=2))
    events: list[RunEvent] = []
    outcome = Runner(fresh_store).run_sweep(search, on_event=events.append)
    assert outcome.status == "done" and [r.workload.queue_depth for r in outcome.results] == [1, 2]
    assert counts(events, SweepStarted) == [(0, None, "open")]
    assert counts(events, PointStarted) == [(0, None, "open"), (1, None, "open")]
    assert counts(events, PointFinished) == [(1, None, "open"), (2, None, "open")]
    stored = fresh_store.sweep(outcome.sweep_id or 0)
    assert stored is not None and stored.status == "done"
