"""The pts.* methods of the RPC: estimate, start with pts.event progress, busy beside a test, list, get, report."""

from __future__ import annotations

import base64
from pathlib import Path

from conftest import requires_fio
from rpc_client import Client

SCALED_DOWN = {"profile": "laptop", "size_bytes": "16MiB", "round_time_s": "1s", "window": 2, "min_rounds": 2, "max_rounds": 2,
               "block_sizes": ["4k"], "mixes": [0], "precondition_passes": 0.5, "engine": "fio"}


def test_the_estimate_of_pts_defaults_says_hours_and_the_laptop_profile_says_not_compliant(client: Client, disk_dir: Path) -> None:
    pts = client.call("pts.estimate", {"test": "iops", "target": str(disk_dir), "size_bytes": "64MiB"})
    assert pts["points_per_round"] == 56 and pts["pts_compliant"]
    assert pts["duration_note"].startswith("PTS defaults run for hours") and pts["estimated_s"] > 20 * 3600
    assert pts["tracking"] == "4KiB random 0/100 IOPS"
    laptop = client.call("pts.estimate", {"test": "latency", "target": str(disk_dir), **SCALED_DOWN})
    assert not laptop["pts_compliant"] and "NOT PTS-compliant" in laptop["compliance_note"]
    assert laptop["parameters"]["queue_depth"] == 1 and laptop["points_per_round"] == 1


def test_bad_pts_params_are_invalid_params_naming_the_field(client: Client, disk_dir: Path) -> None:
    response = client.request("pts.estimate", {"test": "iops", "target": str(disk_dir), "round_time_s": "-1s",
                                               "data_limit_pct": 0, "saturation_multiple": 1000})
    problems = response["error"]["data"]["problems"]
    assert {p["field"] for p in problems} >= {"round_time_s", "data_limit_pct", "saturation_multiple"}
    assert client.request("pts.get", {"pts_id": 99})["error"]["message"] == "PTS test 99 does not exist"


@requires_fio
def test_a_started_test_sends_its_events_then_is_listed_fetched_and_reported(client: Client, disk_dir: Path) -> None:
    started = client.call("pts.start", {"test": "iops", "target": str(disk_dir), **SCALED_DOWN})
    assert started["kind"] == "pts_started" and started["points_per_round"] == 1
    busy = client.request("sweep.start", {"base": {"target": str(disk_dir), "runtime_s": 1}})
    assert busy["error"]["message"].startswith("a sweep, PTS or sustained-write test is already running")
    events = client.events_until("pts_finished", 90, "pts.event")
    kinds = [e["kind"] for e in events]
    assert "precondition_progress" in kinds and kinds.count("round_finished") == 2 and "point_finished" in kinds
    assert events[-1]["status"] == "done"
    listed = client.call("pts.list")["tests"]
    assert [t["id"] for t in listed] == [started["pts_id"]] and listed[0]["rounds"] == 2
    result = client.call("pts.get", {"pts_id": started["pts_id"]})
    assert result["steady_state"]["window"] == [1, 2] and len(result["rounds"]) == 2
    assert result["drive_state"]["preparation"] == "precondition"
    report = client.call("pts.report", {"pts_id": started["pts_id"]})
    assert base64.b64decode(report["pdf_base64"]).startswith(b"%PDF") and report["runs"] == 2
    assert client.call("pts.status")["running"] is False
