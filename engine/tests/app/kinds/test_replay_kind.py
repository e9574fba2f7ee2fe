"""Trace replay as a kind through the RPC, as the Replay view calls it: the trace described, the replay estimated,
started with its events, busy beside another kind, read back, listed and reported; bad input named."""

from __future__ import annotations

import base64
from pathlib import Path

from conftest import requires_fio
from rpc_client import Client
from trace_files import random_ios, write_msr


def test_a_trace_is_described_before_anything_runs(client: Client, disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "hm_1.csv", random_ios(40, span_s=2, seed=51))
    summary = client.call("trace.describe", {"trace": str(trace)})
    assert summary["io_count"] == 40 and summary["format"] == "msr-csv" and summary["duration_s"] == 2.0
    assert summary["series"][0]["span_s"] == 1.0 and summary["recorded_read_lat_ns"]["p99"] is not None


def test_a_malformed_line_is_a_trace_problem_naming_its_line(client: Client, disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(5, span_s=1, seed=52))
    trace.write_text(trace.read_text() + "128166372003061629,hm,1,Erase,0,4096,1\n")
    error = client.request("trace.describe", {"trace": str(trace)})["error"]
    assert error["data"]["problems"][0]["field"] == "trace"
    assert "line 6: Type 'Erase' is neither Read nor Write" in error["data"]["problems"][0]["message"]


def test_the_estimate_says_the_part_replayed_the_lanes_and_the_layout(client: Client, disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(60, span_s=3, seed=53, region=8 << 20))
    estimate = client.call("replay.estimate", {"trace": str(trace), "target": str(disk_dir), "lanes": 4,
                                               "selection": {"start_s": 1}})
    assert estimate["trace"]["io_count"] == 60 and estimate["replayed"]["io_count"] < 60
    assert estimate["lanes"] == 4 and estimate["layout_bytes"] == 8 << 20 and estimate["expected_s"] < 2.01
    assert any("only" not in n and "window from 1 s" in n for n in estimate["notes"])


@requires_fio
def test_a_replay_runs_as_a_job_and_is_read_back_listed_and_reported(client: Client, disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(80, span_s=1.5, seed=54, region=4 << 20))
    started = client.call("replay.start", {"trace": str(trace), "target": str(disk_dir), "lanes": 4})
    assert started["kind"] == "replay_started"
    busy = client.request("sweep.start", {"base": {"target": str(disk_dir), "runtime_s": 1}})
    assert "already running" in busy["error"]["message"]  # one test at a time, whatever its kind
    assert client.call("replay.status")["running"] is True
    events = client.events_until("replay_finished", notification="replay.event")
    assert events[-1]["status"] == "done" and any(e["kind"] == "replay_progress" for e in events)
    result = client.call("replay.get", {"replay_id": started["replay_id"]})
    assert result["read_io_count"] + result["write_io_count"] == 80 and result["latency"][0]["recorded_p50_ns"]
    assert [r["id"] for r in client.call("replay.list")["replays"]] == [started["replay_id"]]
    report = client.call("replay.report", {"replay_id": started["replay_id"]})
    assert base64.b64decode(report["pdf_base64"]).startswith(b"%PDF") and report["runs"] == 1
