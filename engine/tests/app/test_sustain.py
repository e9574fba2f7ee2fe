"""A sustained-write test end to end with real fio on a small test file: the fill stopped after its
bytes, recovery writes after short idle intervals, each a stored run; cancel and resume; the RPC."""

from __future__ import annotations

import threading
from pathlib import Path

from conftest import requires_fio
from rpc_client import Client

from ssdprof.app.sustain import SustainRunner
from ssdprof.app.sustain_planner import SustainRequest, plan_sustain
from ssdprof.model.sustain_events import SustainEvent, SustainIdle
from ssdprof.store.db import Store

SMALL = {"size_bytes": "32MiB", "write_bytes": "48MiB", "idle_s": ["0.5s", "1s"], "recovery_bytes": "8MiB",
         "block_size_bytes": "64k", "queue_depth": 4, "engine": "fio"}


@requires_fio
def test_the_fill_and_each_recovery_write_are_stored_runs_with_their_seconds(fresh_store: Store, disk_dir: Path) -> None:
    spec = plan_sustain(SustainRequest(target=str(disk_dir), **SMALL), check_target=True)
    events: list[SustainEvent] = []
    outcome = SustainRunner(fresh_store).run(spec, on_event=events.append)
    assert outcome.status == "done"
    result = outcome.result
    assert result.fill_run_id is not None and result.samples
    fill = fresh_store.run(result.fill_run_id)
    # fio ends each write after exactly its bytes (io_size), wrapping around the 32 MiB region
    assert fill is not None and fill.write.io_bytes == 48 << 20 and "io_size=50331648" in fill.job_text.splitlines()
    assert fill.tags["sustain_step"] == "fill" and fill.workload.ramp_s == 0
    assert [r.status for r in result.recovery] == ["done", "done"]
    assert [r.bytes_written for r in result.recovery] == [8 << 20, 8 << 20]
    kinds = [e.kind for e in events]
    assert kinds[0] == "sustain_started" and kinds[-1] == "sustain_finished"
    assert kinds.count("sustain_step_done") == 3 and "sustain_idle" in kinds
    assert not list(disk_dir.glob("ssdprof-testfile-sustain*.dat"))  # the test's own file is removed when it is done
    assert result.test_file == "" and result.test_file_bytes is None


@requires_fio
def test_a_test_cancelled_while_idle_resumes_with_the_recovery_writes_not_yet_done(fresh_store: Store,
                                                                                  disk_dir: Path) -> None:
    spec = plan_sustain(SustainRequest(target=str(disk_dir), **{**SMALL, "idle_s": ["30s", "0.5s"]}), check_target=True)
    cancel = threading.Event()

    def on_event(event: SustainEvent) -> None:
        if isinstance(event, SustainIdle):
            cancel.set()

    first = SustainRunner(fresh_store).run(spec, on_event=on_event, cancel=cancel)
    assert first.status == "cancelled"
    assert [r.status for r in first.result.recovery] == ["pending", "pending"]
    kept = disk_dir / f"ssdprof-testfile-sustain{first.test_id}.dat"  # the region's size, not the fill's (48 MiB)
    assert (first.result.test_file, first.result.test_file_bytes) == (str(kept), 32 << 20) == (str(kept), kept.stat().st_size)
    fill_id = first.result.fill_run_id
    events: list[SustainEvent] = []
    resumed = SustainRunner(fresh_store).run(resume_id=first.test_id, on_event=events.append)
    assert resumed.status == "done" and resumed.result.fill_run_id == fill_id  # the fill was kept
    assert events[0].kind == "sustain_started" and events[0].fill_done  # type: ignore[union-attr]
    assert [r.status for r in resumed.result.recovery] == ["done", "done"]
    assert resumed.result.test_file == "" and not kept.exists()


def test_bad_sustain_fields_are_named_all_at_once(client: Client, disk_dir: Path) -> None:
    response = client.request("sustain.estimate", {"target": str(disk_dir), "write_bytes": "1k", "idle_s": ["-3s", "soon"],
                                                   "queue_depth": 0})
    fields = {p["field"] for p in response["error"]["data"]["problems"]}
    assert fields >= {"write_bytes", "idle_s", "queue_depth"}


def test_the_estimate_says_bytes_time_and_wear_before_anything_is_written(client: Client, disk_dir: Path) -> None:
    estimate = client.call("sustain.estimate", {"target": str(disk_dir), **SMALL})
    assert estimate["write_bytes"] == 48 << 20 and estimate["total_bytes"] == (48 + 2 * 8) << 20
    assert estimate["idle_total_s"] == 1.5 and estimate["estimated_s"] > 1.5
    assert "rating unknown" in estimate["wear"]["text"] and estimate["free_bytes"] > 0
    assert not list(disk_dir.glob("ssdprof-*"))


@requires_fio
def test_a_started_test_sends_its_seconds_and_is_listed_and_fetched(client: Client, disk_dir: Path) -> None:
    started = client.call("sustain.start", {"target": str(disk_dir), **SMALL})
    assert started["kind"] == "sustain_started"
    busy = client.request("sweep.start", {"base": {"target": str(disk_dir), "runtime_s": 1}})
    pts = client.request("pts.start", {"test": "iops", "target": str(disk_dir),
                                       "size_bytes": "16MiB"})
    assert busy["error"]["message"] == pts["error"]["message"] == (
        "a sweep, PTS or sustained-write test is already running; cancel it or wait for it "
        "to finish")
    events = client.events_until("sustain_finished", 120, "sustain.event")
    assert events[-1]["status"] == "done"
    assert any(e["kind"] == "sustain_sample" for e in events)
    listed = client.call("sustain.list")["tests"]
    assert [t["id"] for t in listed] == [started["sustain_id"]] and listed[0]["recovery_done"] == 2
    result = client.call("sustain.get", {"sustain_id": started["sustain_id"]})
    assert result["samples"][-1]["bytes_written"] >= 40 << 20 and len(result["recovery"]) == 2
    assert client.request("sustain.get", {"sustain_id": 999})["error"]["message"] == (
        "sustained-write test 999 does not exist")


def test_a_start_with_the_portable_engine_is_refused_before_anything_is_stored(
        client: Client, disk_dir: Path) -> None:
    response = client.request("sustain.start",
                              {"target": str(disk_dir), **SMALL, "engine": "portable"})
    [refused] = response["error"]["data"]["problems"]
    assert refused["field"] == "engine" and "needs fio" in refused["message"]
    assert client.call("sustain.list")["tests"] == []
    assert not list(disk_dir.glob("ssdprof-*"))


def test_a_recovery_write_larger_than_the_region_is_kept_whole_as_the_fill_is(disk_dir: Path) -> None:
    request = SustainRequest(target=str(disk_dir), **{**SMALL, "recovery_bytes": "96MiB"})
    plan = plan_sustain(request, check_target=True).sustain
    assert plan is not None and plan.region_bytes == 32 << 20
    assert plan.recovery_bytes == 96 << 20 and plan.write_bytes == 48 << 20
