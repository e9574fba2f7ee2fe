"""The PTS runner against a real engine: rounds committed as they finish, a cancelled test resumed where it
stopped with its test file and drive state kept, and the ledger of bytes written."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.app.kinds.pts import list_tests
from ssdprof.app.pts_planner import PtsRequest, plan_pts
from ssdprof.app.pts_runner import PtsRunner
from ssdprof.model.events import PointFinished, PreconditionProgress, PtsFinished, PtsStarted, RoundFinished, RunEvent
from ssdprof.store.db import RunFilter, Store

pytestmark = requires_fio


def scaled_down(target: Path, **changes: object) -> PtsRequest:
    values: dict[str, object] = {"test": "iops", "profile": "laptop", "target": str(target), "size_bytes": "16MiB",
                                 "round_time_s": "1s", "window": 3, "min_rounds": 3, "max_rounds": 3, "block_sizes": ["4k"],
                                 "mixes": [0], "precondition_passes": 0.5, "engine": "fio"}
    return PtsRequest.model_validate({**values, **changes})


def test_a_cancelled_test_resumes_after_its_last_committed_point_with_its_file_and_state(disk_dir: Path) -> None:
    store = Store(disk_dir.with_suffix(".db"))
    spec = plan_pts(scaled_down(disk_dir, mixes=[100, 0]))
    cancel = threading.Event()
    events: list[RunEvent] = []

    def stop_in_round_two(event: RunEvent) -> None:
        events.append(event)
        if isinstance(event, PointFinished) and event.number == 3:  # round 2's first point
            cancel.set()

    first = PtsRunner(store).run(spec, on_event=stop_in_round_two, cancel=cancel)
    assert first.status == "cancelled"
    assert [e.round for e in events if isinstance(e, RoundFinished)] == [1]
    assert any(isinstance(e, PreconditionProgress) and e.done for e in events)
    kept = disk_dir / f"ssdprof-testfile-pts{first.test_id}.dat"
    assert kept.exists()  # kept for the resume: the drive state is in it
    assert store.pts(first.test_id).status == "cancelled"  # type: ignore[union-attr]
    assert len(store.runs(RunFilter(sweep_id=first.test_id, limit=None))) == 3

    resumed: list[RunEvent] = []
    second = PtsRunner(store).run(None, resume_id=first.test_id, on_event=resumed.append)
    assert second.status == "done" and second.test_id == first.test_id
    assert not any(isinstance(e, PreconditionProgress) for e in resumed)  # the state carried over: no new preconditioning
    assert sum(isinstance(e, PointFinished) for e in resumed) == 3  # round 2's second point, then round 3
    result = second.result
    assert [r.round for r in result.rounds] == [1, 2, 3] and all(len(r.runs) == 2 for r in result.rounds)
    assert result.drive_state is not None and result.drive_state.preparation == "precondition"
    assert not kept.exists()
    store.close()


def test_a_round_cut_short_by_a_cancel_is_not_counted_as_finished_on_any_face(disk_dir: Path) -> None:
    store = Store(disk_dir.with_suffix(".db"))
    spec = plan_pts(scaled_down(disk_dir, mixes=[100, 0], precondition="none"))
    cancel = threading.Event()
    events: list[RunEvent] = []

    def stop_in_round_two(event: RunEvent) -> None:
        events.append(event)
        if isinstance(event, PointFinished) and event.number == 3:  # round 2's first point: round 2 begun, 1 finished
            cancel.set()

    first = PtsRunner(store).run(spec, on_event=stop_in_round_two, cancel=cancel)
    assert first.status == "cancelled"
    assert [e.rounds for e in events if isinstance(e, PtsFinished)] == [1]
    assert first.result.finished_rounds == 1 and [r.complete for r in first.result.rounds] == [True, False]
    assert [t.rounds for t in list_tests(store)] == [1]

    resumed: list[RunEvent] = []
    PtsRunner(store).run(None, resume_id=first.test_id, on_event=resumed.append, cancel=threading.Event())
    assert [e.already_rounds for e in resumed if isinstance(e, PtsStarted)] == [1]
    store.close()


def test_every_byte_written_is_in_the_targets_ledger(disk_dir: Path) -> None:
    store = Store(":memory:")
    outcome = PtsRunner(store).run(plan_pts(scaled_down(disk_dir, test="write-saturation", saturation_multiple=0.5,
                                                         max_rounds=None, min_rounds=None, window=None)))
    result = outcome.result
    assert outcome.status == "done"
    assert result.rounds[-1].bytes_written >= 8 << 20  # stopped once half the region was written by the rounds
    assert all(a.bytes_written < b.bytes_written for a, b in zip(result.rounds, result.rounds[1:], strict=False))
    state = result.drive_state
    assert state is not None and state.preconditioning is not None
    ledger = store.ledger(state.target_identity)
    assert ledger is not None
    layout = 16 << 20
    assert ledger.bytes_written == layout + state.preconditioning.bytes_written + result.rounds[-1].bytes_written
    assert result.parameters.saturation_multiple == 0.5
    store.close()


def test_a_finished_test_is_not_resumed(disk_dir: Path) -> None:
    store = Store(":memory:")
    done = PtsRunner(store).run(plan_pts(scaled_down(disk_dir, precondition="none", max_rounds=3)))
    with pytest.raises(KeyError, match="is finished"):
        PtsRunner(store).run(None, resume_id=done.test_id)
    with pytest.raises(KeyError, match="is a PTS test"):
        from ssdprof.app.runner import Runner

        stored = store.sweep(done.test_id)
        assert stored is not None and stored.kind == "pts"
        store.set_sweep_status(done.test_id, "cancelled")
        Runner(store).run_sweep(stored.spec, resume_id=done.test_id)
    store.close()
