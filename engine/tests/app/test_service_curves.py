"""Curves and latency target searches over the RPC: bad input named by field, a short curve on real fio read back."""

from __future__ import annotations

import base64
import subprocess
from pathlib import Path

import pytest
from conftest import requires_fio
from rpc_client import SHORT, Client

from ssdprof.model.workload import WorkloadError
from ssdprof.portable.engine import PortableEngine


@pytest.mark.parametrize(("method", "params", "field"), [
    ("curve.start", {"points_pct": "0,50"}, "points_pct"),
    ("curve.start", {"points_pct": "50,101"}, "points_pct"),
    ("curve.start", {"stop_latency": "0.2us"}, "stop_latency_ns"),
    ("curve.start", {"sweep": {"base": {"rate_iops": 500}}}, "rate_iops"),
    ("slo.start", {"latency": "500ns"}, "latency_ns"),
    ("slo.start", {"percentile": 100}, "percentile"),
])
def test_bad_curve_and_target_input_names_the_field(client: Client, method: str, params: dict[str, object], field: str) -> None:
    response = client.request(method, params)
    assert response["error"]["code"] == -32602, response
    assert response["error"]["data"]["problems"][0]["field"] == field


def test_a_rate_on_the_portable_engines_synchronous_path_is_refused_by_field() -> None:
    with pytest.raises(WorkloadError) as caught:
        PortableEngine("chosen", backend="sync").backend_for(1, paced=True)
    problem = caught.value.problems[0]
    assert problem.field == "rate_iops" and problem.flag == "--rate" and "asynchronous queue" in problem.message


def test_a_sweep_that_is_not_a_curve_is_not_found_as_one(client: Client) -> None:
    assert client.request("curve.get", {"sweep_id": 99})["error"]["code"] == -32001


@requires_fio
def test_a_curve_started_over_rpc_is_listed_and_read_back(client: Client, disk_dir: Path) -> None:
    started = client.call("curve.start", {"sweep": {"base": {"target": str(disk_dir), "queue_depth": 4, **SHORT}},
                                          "points_pct": "50"})
    assert client.events_until("sweep_finished")[-1]["status"] == "done"
    curve = client.call("curve.get", {"sweep_id": started["sweep_id"]})
    assert [p["pct"] for p in curve["points"]] == [None, 50] and curve["points"][1]["offered_iops"] > 0
    assert curve["latency_from"] == "submission" and curve["knee"] is None  # one fixed-rate point names no knee
    listed = client.call("curves.list")["curves"]
    assert [(c["sweep_id"], c["kind"]) for c in listed] == [(started["sweep_id"], "curve")]
    # the spec sheet's rated figures come with the curve when asked for, judged by the engine; an unknown sheet is not found
    chosen = client.call("curve.get", {"sweep_id": started["sweep_id"], "spec_id": "samsung-980-1tb"})["spec"]
    assert chosen["how"] == "chosen" and chosen["references"] == []  # rated at QD1 and QD32; this curve ran at QD4
    assert {r["value"] for r in chosen["left_out"]} == {17_000, 500_000} and all(r["status"] == "mismatch" for r in chosen["left_out"])
    assert client.request("curve.get", {"sweep_id": started["sweep_id"], "spec_id": "nope"})["error"]["code"] == -32001
    report = client.call("curve.report", {"sweep_id": started["sweep_id"], "spec_id": "samsung-980-1tb"})
    pdf = base64.b64decode(report["pdf_base64"])
    assert pdf.startswith(b"%PDF-") and report["filename"] == f"ssdprof-curve-{started['sweep_id']}.pdf"
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    assert f"Curve {started['sweep_id']}: randread 4KiB QD4 T1" in text and "Samsung" in text
    # the sweep's report carries the curve's page beside its runs
    runs_report = base64.b64decode(client.call("report.pdf", {"sweep_id": started["sweep_id"]})["pdf_base64"])
    text = subprocess.run(["pdftotext", "-", "-"], input=runs_report, capture_output=True, check=True).stdout.decode()
    assert f"Curve {started['sweep_id']}: randread 4KiB QD4 T1" in text


@requires_fio
def test_a_search_started_over_rpc_is_read_back_and_reported(client: Client, disk_dir: Path) -> None:
    started = client.call("slo.start", {"sweep": {"base": {"target": str(disk_dir), **SHORT}}, "latency": "1s", "max_qd": 2})
    assert client.events_until("sweep_finished")[-1]["status"] == "done"
    search = client.call("slo.get", {"sweep_id": started["sweep_id"]})
    assert [p["queue_depth"] for p in search["points"]] == [1, 2] and search["best"]["queue_depth"] == 2
    assert client.request("slo.report", {"sweep_id": started["sweep_id"], "title": "x" * 201})["error"]["code"] == -32602
    report = client.call("slo.report", {"sweep_id": started["sweep_id"]})
    assert report["filename"] == f"ssdprof-slo-{started['sweep_id']}.pdf" and report["runs"] == 2
    text = subprocess.run(["pdftotext", "-", "-"], input=base64.b64decode(report["pdf_base64"]), capture_output=True,
                          check=True).stdout.decode()
    assert f"Latency target {started['sweep_id']}: p99 within 1,000,000 µs" in " ".join(text.split())
