"""The RPC's spec, compare, report and host methods, on runs imported from real fio output."""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.results import RunResult
from ssdprof.model.sweep import SweepSpec
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.interchange import import_fio_output

DATA = Path(__file__).parents[1] / "data" / "fio"
EVO_PLUS = "Samsung SSD 970 EVO Plus 1TB"


class Rpc:
    def __init__(self, service: EngineService):
        self.service = service

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return dict(handle_message(self.service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}))

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        response = self.request(method, params)
        assert "error" not in response, response["error"]
        return response["result"]


@pytest.fixture
def rpc(tmp_path: Path) -> Iterator[Rpc]:
    def ignore(method: str, payload: BaseModel) -> None:
        pass

    service = EngineService(tmp_path / "results.sqlite3", ignore, default_dir=tmp_path,
                            ssh=SshSettings(known_hosts=tmp_path / "known_hosts", connect_timeout_s=2),
                            spec_folders=(bundled_spec_dir(), tmp_path / "specs"))
    yield Rpc(service)
    service.close()


def add_runs(rpc: Rpc, iops: list[float], device_model: str = "") -> list[int]:
    """Copies of a real fio 4 KiB random-read QD1 run with the given IOPS, stored as the repeats of
    one point of a sweep of their own (a sweep that asked for len(iops) repeats)."""
    [real] = import_fio_output(DATA / "fio-3.33_randread_qd1.jsonplus.json")
    sweep_id = rpc.service.store.create_sweep(SweepSpec(name="repeats", points=[real.workload],
                                                        repeats=len(iops)))
    environment = real.environment.model_copy(update={"device_model": device_model})
    ids = []
    for repeat, value in enumerate(iops):
        read = real.read.model_copy(update={"iops": value})
        run = real.model_copy(update={"read": read, "environment": environment,
                                      "sweep_id": sweep_id, "repeat": repeat})
        stored: RunResult = rpc.service.store.add_run(run, point_index=0)
        assert stored.id is not None
        ids.append(stored.id)
    return ids


def test_specs_list_has_the_bundled_library(rpc: Rpc) -> None:
    ids = {s["id"] for s in rpc.call("specs.list")["specs"]}
    assert {"intel-d7-p5600", "samsung-830-256gb", "samsung-970-evo-plus-1tb"} <= ids


def test_specs_match_finds_the_drive_by_its_reported_model(rpc: Rpc) -> None:
    found = rpc.call("specs.match", {"device_model": EVO_PLUS})
    assert found["spec"]["id"] == "samsung-970-evo-plus-1tb"
    assert rpc.call("specs.match", {"device_model": "QEMU HARDDISK"})["spec"] is None


def test_specs_compare_gives_percent_of_spec_for_the_matched_drive(rpc: Rpc) -> None:
    [run_id] = add_runs(rpc, [9500.0], EVO_PLUS)
    result = rpc.call("specs.compare", {"run_ids": [run_id]})
    qd1 = [c for c in result["comparisons"] if c["comparison"]["figure"]["queue_depth"] == 1
           and c["comparison"]["figure"]["unit"] == "IOPS"]
    assert qd1[0]["comparison"]["pct_of_spec"] == pytest.approx(50.0)  # rated 19,000 IOPS at 4 KiB QD1
    assert "matched" in qd1[0]["how"]
    deep = [c for c in result["comparisons"] if (c["comparison"]["figure"]["queue_depth"] or 0) >= 16]
    assert deep and all(c["comparison"]["pct_of_spec"] is None and c["comparison"]["notes"] for c in deep)


def test_specs_compare_gives_repeats_one_row_on_the_mean_like_the_report_and_the_cli(rpc: Rpc) -> None:
    ids = add_runs(rpc, [9500.0, 11400.0, 7600.0], EVO_PLUS)  # mean 9,500 IOPS: 50 % of the rated 19,000
    result = rpc.call("specs.compare", {"run_ids": ids})
    qd1 = [c for c in result["comparisons"] if c["comparison"]["figure"]["queue_depth"] == 1
           and c["comparison"]["figure"]["unit"] == "IOPS"]
    assert len(qd1) == 1
    assert qd1[0]["run_ids"] == ids and qd1[0]["run_id"] == ids[0]
    assert qd1[0]["comparison"]["pct_of_spec"] == pytest.approx(50.0)
    assert "mean of 3 repeats" in qd1[0]["comparison"]["notes"]


def test_specs_compare_says_why_when_no_spec_matches_and_accepts_a_chosen_one(rpc: Rpc) -> None:
    [run_id] = add_runs(rpc, [9500.0])
    assert "unknown" in rpc.call("specs.compare", {"run_ids": [run_id]})["unmatched"][str(run_id)]
    chosen = rpc.call("specs.compare", {"run_ids": [run_id], "spec_id": "samsung-970-evo-plus-1tb"})
    assert any(c["comparison"]["pct_of_spec"] for c in chosen["comparisons"])


def test_specs_compare_of_an_unknown_spec_is_not_found(rpc: Rpc) -> None:
    [run_id] = add_runs(rpc, [1.0])
    assert rpc.request("specs.compare", {"run_ids": [run_id], "spec_id": "nope"})["error"]["code"] == -32001


def test_runs_compare_says_a_clear_difference_is_significant(rpc: Rpc) -> None:
    a = add_runs(rpc, [10000.0, 10100.0, 9900.0])
    b = add_runs(rpc, [15000.0, 15200.0, 14800.0])
    [found] = rpc.call("runs.compare", {"a": a, "b": b})["comparisons"]
    assert found["significant"] is True
    assert found["diff_pct"] == pytest.approx(50.0)
    assert found["a"]["mean"] == pytest.approx(10000.0)
    assert found["a"]["half_width"] == pytest.approx(248.4, rel=1e-3)  # t(0.975, 2) = 4.303 x 100 / sqrt 3
    assert "significant at 5%" in found["verdict"]


def test_runs_compare_says_noise_is_not_significant(rpc: Rpc) -> None:
    a = add_runs(rpc, [10000.0, 12000.0, 8000.0])
    b = add_runs(rpc, [10500.0, 8500.0, 12500.0])
    [found] = rpc.call("runs.compare", {"a": a, "b": b})["comparisons"]
    assert found["significant"] is False
    assert "not significant" in found["verdict"]


def test_runs_compare_with_a_bad_metric_names_the_field(rpc: Rpc) -> None:
    error = rpc.request("runs.compare", {"a": [1], "b": [2], "metric": "speed"})["error"]
    assert error["code"] == -32602
    assert error["data"]["problems"][0]["field"] == "metric"


def test_report_pdf_is_a_real_pdf_naming_the_workload(rpc: Rpc, tmp_path: Path) -> None:
    ids = add_runs(rpc, [9500.0], EVO_PLUS)
    result = rpc.call("report.pdf", {"run_ids": ids})
    pdf = base64.b64decode(result["pdf_base64"])
    assert pdf.startswith(b"%PDF") and result["bytes"] == len(pdf)
    (tmp_path / "r.pdf").write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(tmp_path / "r.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    assert "randread" in text and "970 EVO Plus" in text


def test_report_pdf_without_runs_is_invalid_params(rpc: Rpc) -> None:
    error = rpc.request("report.pdf", {})["error"]
    assert error["code"] == -32602
    assert error["data"]["problems"][0]["field"] == "run_ids"


def test_sweep_start_refuses_a_host_name_with_shell_syntax(rpc: Rpc) -> None:
    error = rpc.request("sweep.start", {"hosts": ["h1;rm -rf /"], "base": {"runtime_s": 1}})["error"]
    assert error["code"] == -32602
    assert error["data"]["problems"][0]["field"] == "host"
    assert rpc.call("sweeps.list")["sweeps"] == []


def test_sweep_start_refuses_remote_options_without_hosts(rpc: Rpc) -> None:
    error = rpc.request("sweep.start", {"rbd": "rbd/img"})["error"]
    assert error["data"]["problems"][0]["field"] == "hosts"


def test_hosts_add_of_an_unreachable_host_adds_nothing(rpc: Rpc) -> None:
    result = rpc.call("hosts.add", {"host": "root@127.0.0.1:1"})
    assert result["added"] is False and result["message"]
    assert rpc.call("hosts.list")["hosts"] == []


def test_hosts_test_of_an_unreachable_host_says_why(rpc: Rpc) -> None:
    probe = rpc.call("hosts.test", {"host": "root@127.0.0.1:1"})["probe"]
    assert probe["reachable"] is False and probe["error"]


def test_hosts_remove_of_an_unknown_host_is_not_found(rpc: Rpc) -> None:
    assert rpc.request("hosts.remove", {"host": "h9"})["error"]["code"] == -32001
