"""The JSON-RPC service and its stdio framing, against the real engine and the real fio."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import psutil
from conftest import requires_fio
from rpc_client import SHORT, Client

from ssdprof.app.rpc import handle_message
from ssdprof.model.pts import PtsProfile, PtsTest


def fio_children() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.name() == "fio"]


def test_engine_info_reports_fio_and_the_default_target(client: Client, disk_dir: Path) -> None:
    info = client.call("engine.info")
    assert info["default_target"] == str(disk_dir / "scratch")
    assert info["defaults"]["queue_depth"] == 1
    assert info["field_rules"]["queue_depth"]["flag"] == "--qd"
    if info["fio_path"]:
        assert info["fio_version"].startswith("fio-")


def test_engine_info_names_every_list_a_form_offers_and_when_a_field_counts(client: Client) -> None:
    rules = client.call("engine.info")["field_rules"]
    assert rules["read_pct"]["applies_with"] == {"pattern": ["rw", "randrw"]}
    assert rules["queue_depth"]["applies_with"] == {}
    assert [c["value"] for c in rules["test"]["choices"]] == [t.value for t in PtsTest]
    assert {c["value"] for c in rules["profile"]["choices"]} == {p.value for p in PtsProfile}
    assert [c["value"] for c in rules["precondition"]["choices"]] == ["auto", "none"]


def test_validate_returns_the_engines_own_field_problems(client: Client) -> None:
    result = client.call("workload.validate", {"workload": {"queue_depth": 0, "block_size_bytes": "4x"}})
    assert result["ok"] is False
    by_field = {p["field"]: p for p in result["problems"]}
    assert by_field["block_size_bytes"]["flag"] == "--bs"
    assert "unknown size unit" in by_field["block_size_bytes"]["message"]


def test_validate_accepts_units_and_returns_the_parsed_workload(client: Client, disk_dir: Path) -> None:
    result = client.call("workload.validate", {"workload": {"block_size_bytes": "128k", "queue_depth": "32",
                                                            "target": str(disk_dir)}})
    assert result["ok"] is True
    assert result["workload"]["block_size_bytes"] == 131072
    assert result["label"] == "randread 128KiB QD32 T1"


def test_validate_checks_that_the_target_exists(client: Client, disk_dir: Path) -> None:
    result = client.call("workload.validate", {"workload": {"target": str(disk_dir / "missing")}})
    assert [p["field"] for p in result["problems"]] == ["target"]


def test_unknown_workload_field_is_named(client: Client) -> None:
    response = client.request("workload.validate", {"workload": {"iodepth": 4}})
    assert response["error"]["code"] == -32602
    assert response["error"]["data"]["problems"][0]["field"] == "iodepth"


def test_bad_input_to_sweep_start_is_invalid_params_and_starts_nothing(client: Client) -> None:
    response = client.request("sweep.start", {"base": {**SHORT, "queue_depth": 0}, "preset": "student"})
    assert response["error"]["code"] == -32602
    assert response["error"]["data"]["problems"][0]["field"] == "queue_depth"
    assert client.call("sweeps.list")["sweeps"] == []
    assert client.notes.empty()


def test_unknown_method_is_method_not_found(client: Client) -> None:
    assert client.request("runs.explode")["error"]["code"] == -32601


def test_a_request_without_jsonrpc_version_is_invalid(client: Client) -> None:
    response = handle_message(client.service, {"id": 1, "method": "engine.info"})
    assert response["error"]["code"] == -32600


def test_a_notification_gets_no_response(client: Client) -> None:
    assert handle_message(client.service, {"jsonrpc": "2.0", "method": "presets.list"}) is None


def test_a_batch_gets_one_response_per_request(client: Client) -> None:
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "presets.list"}, {"jsonrpc": "2.0", "id": 2, "method": "nope"}]
    responses = handle_message(client.service, batch)
    assert [("result" in r, "error" in r) for r in responses] == [(True, False), (False, True)]


def test_presets_list_includes_the_student_sweep(client: Client) -> None:
    presets = {p["name"]: p for p in client.call("presets.list")["presets"]}
    assert presets["student"]["points"] == 10


def test_estimate_counts_points_repeats_and_duration(client: Client) -> None:
    estimate = client.call("sweep.estimate", {"base": SHORT, "preset": "student", "repeats": 2})
    assert estimate["total_points"] == 20
    assert len(estimate["points"]) == 10
    assert estimate["points"][0]["label"] == "randread 4KiB QD1 T1"
    assert 20 * 1.0 < estimate["estimated_s"] < 20 * 1.5 + 1


def test_grid_estimate_multiplies_the_factors(client: Client) -> None:
    estimate = client.call("sweep.estimate", {"base": SHORT, "factors": {"block_size_bytes": ["4k", "16k"],
                                                                         "queue_depth": [1, 8, 32]}, "mode": "grid"})
    assert estimate["total_points"] == 6


def test_missing_run_is_not_found(client: Client) -> None:
    assert client.request("runs.get", {"run_id": 999})["error"]["code"] == -32001


@requires_fio
def test_sweep_streams_events_and_stores_every_point(client: Client, disk_dir: Path) -> None:
    started = client.call("sweep.start", {"base": {**SHORT, "target": str(disk_dir)},
                                          "factors": {"queue_depth": [1, 4]}, "tags": {"interface": "test"}})
    assert started["count"]["total"] == 2 and started["count"]["bound"] == "exact"
    events = client.events_until("sweep_finished")
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "sweep_started"
    assert kinds.count("point_finished") == 2
    assert "point_progress" in kinds
    assert events[-1]["status"] == "done"
    runs = client.call("runs.list", {"tag": "interface=test"})["runs"]
    assert [r["workload"]["queue_depth"] for r in runs] == [1, 4]
    assert runs[0]["progress"] == [] and runs[0]["read"]["lat_bins_ns"] == {}
    full = client.call("runs.get", {"run_id": runs[0]["id"]})["run"]
    assert full["read"]["iops"] > 0 and full["read"]["lat_bins_ns"] and full["progress"]
    tagged = client.call("runs.tag", {"run_id": runs[0]["id"], "tags": {"nodes": "3"}})["run"]
    assert tagged["tags"] == {"interface": "test", "nodes": "3"}
    csv = client.call("export.csv", {"sweep_id": started["sweep_id"]})
    assert csv["csv"].splitlines()[0].startswith("run_id,") and csv["runs"] == 2
    assert client.call("runs.delete", {"run_id": runs[1]["id"]})["deleted"] is True
    assert len(client.call("runs.list")["runs"]) == 1
    assert not list(disk_dir.glob("ssdprof-testfile-*"))


@requires_fio
def test_cancel_mid_sweep_keeps_finished_points_and_stops_fio(client: Client, disk_dir: Path) -> None:
    started = client.call("sweep.start", {"base": {**SHORT, "runtime_s": 2, "target": str(disk_dir)},
                                          "factors": {"queue_depth": [1, 2, 4, 8]}})
    client.events_until("point_finished")
    assert client.request("sweep.start", {"base": SHORT})["error"]["code"] == -32002
    client.events_until("point_progress")
    assert client.call("sweep.cancel") == {"cancelled": True, "sweep_id": started["sweep_id"]}
    events = client.events_until("sweep_finished")
    assert events[-1]["status"] == "cancelled"
    runs = client.call("runs.list", {"sweep_id": started["sweep_id"]})["runs"]
    assert 1 <= len(runs) < 4
    assert all(r["status"] == "ok" for r in runs)
    assert fio_children() == []
    assert not client.call("sweep.status")["running"]
    assert not list(disk_dir.glob("ssdprof-testfile-*"))


def _engine(db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ssdprof", "rpc", "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)


def test_stdio_answers_one_line_per_request_and_exits_on_eof(disk_dir: Path) -> None:
    engine = _engine(disk_dir / "db.sqlite3")
    assert engine.stdin and engine.stdout
    engine.stdin.write("not json\n" + json.dumps({"jsonrpc": "2.0", "id": 7, "method": "presets.list"}) + "\n")
    engine.stdin.flush()
    assert json.loads(engine.stdout.readline())["error"]["code"] == -32700
    assert json.loads(engine.stdout.readline())["id"] == 7
    engine.stdin.close()
    assert engine.wait(timeout=20) == 0


@requires_fio
def test_sigterm_mid_sweep_cancels_it_and_leaves_no_fio(disk_dir: Path) -> None:
    engine = _engine(disk_dir / "db.sqlite3")
    assert engine.stdin and engine.stdout
    params = {"base": {**SHORT, "runtime_s": 30, "target": str(disk_dir)}}
    engine.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "sweep.start", "params": params}) + "\n")
    engine.stdin.flush()
    while "point_progress" not in engine.stdout.readline():
        pass
    children = [p for p in psutil.Process(engine.pid).children(recursive=True) if p.name() == "fio"]
    assert children
    engine.send_signal(signal.SIGTERM)
    assert engine.wait(timeout=30) == 0
    _gone, alive = psutil.wait_procs(children, timeout=10)
    assert alive == []
    assert not list(disk_dir.glob("ssdprof-testfile-*"))


def test_an_answer_as_text_is_the_answer_as_a_dict_for_results_errors_batches_and_notifications(client: Client) -> None:
    from ssdprof.app.rpc import answer_text

    service = client.service
    for message in ({"jsonrpc": "2.0", "id": 3, "method": "engine.info", "params": {}},
                    {"jsonrpc": "2.0", "id": "four", "method": "runs.get", "params": {"run_id": 404}},
                    [{"jsonrpc": "2.0", "id": 5, "method": "runs.list", "params": {}},
                     {"jsonrpc": "2.0", "method": "runs.list", "params": {}},
                     {"jsonrpc": "2.0", "id": 6, "method": "no.such", "params": {}}]):
        assert json.loads(answer_text(service, message) or "null") == handle_message(service, message)
    assert answer_text(service, {"jsonrpc": "2.0", "method": "runs.list", "params": {}}) is None
