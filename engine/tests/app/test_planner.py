"""One planner: the CLI's flags and the RPC's params become the same request, and the same SweepSpec
(or the same refusal) comes out of plan_sweep."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdprof.app.planner import SweepRequest, plan_sweep
from ssdprof.cli.main import build_parser
from ssdprof.cli.measure import request_from_args
from ssdprof.model.workload import WorkloadError


def from_cli(*argv: str) -> SweepRequest:
    return request_from_args(build_parser().parse_args(list(argv)))


def test_a_sweep_typed_on_the_command_line_plans_as_the_same_rpc_request(tmp_path: Path) -> None:
    cli = from_cli("sweep", "--target", str(tmp_path), "--size", "64MiB", "--vary", "bs=4k,16k", "--vary", "qd=1,8", "--grid",
                   "--repeat", "3", "--runtime", "2s", "--host", "h1", "--host", "h2", "--remote-dir", "/data",
                   "--remote-dir", "h2=/fast")
    rpc = SweepRequest.model_validate({
        "base": {"target": str(tmp_path), "size_bytes": "64MiB", "runtime_s": "2s"},
        "factors": {"block_size_bytes": ["4k", "16k"], "queue_depth": ["1", "8"]}, "mode": "grid", "repeats": 3,
        "hosts": ["h1", "h2"], "remote_dir": "/data", "remote_dirs": {"h2": "/fast"}})
    assert plan_sweep(cli) == plan_sweep(rpc)
    assert len(plan_sweep(cli).points) == 4 and plan_sweep(cli).remote is not None


def test_a_local_run_plans_alike_from_both_faces(tmp_path: Path) -> None:
    cli = from_cli("run", "--target", str(tmp_path), "--rw", "randrw", "--read-pct", "70", "--qd", "4", "--buffered")
    rpc = SweepRequest.model_validate({"base": {"target": str(tmp_path), "pattern": "randrw", "read_pct": "70",
                                                "queue_depth": "4", "direct": False}})
    assert plan_sweep(cli) == plan_sweep(rpc)


@pytest.mark.parametrize(("argv", "params", "field"), [
    (["--host", "h1", "--host", "h1"], {"hosts": ["h1", "h1"]}, "hosts"),
    (["--rbd", "rbd/img"], {"rbd": "rbd/img"}, "hosts"),
    (["--host", "h1", "--remote-dir", "h9=/x"], {"hosts": ["h1"], "remote_dirs": {"h9": "/x"}}, "remote_dirs"),
    (["--host", "h1", "--remote-dir", "relative"], {"hosts": ["h1"], "remote_dir": "relative"}, "remote_dir"),
    (["--host", "h1", "--remote-device", "/dev/sdb"], {"hosts": ["h1"], "remote_devices": {"h1": "/dev/sdb"}}, "size_bytes"),
])
def test_both_faces_get_the_same_refusal_naming_the_same_field(argv: list[str], params: dict[str, object], field: str) -> None:
    refusals = []
    for request in (lambda: from_cli("run", *argv), lambda: SweepRequest.model_validate(params)):
        with pytest.raises(WorkloadError) as caught:
            plan_sweep(request())
        refusals.append([(p.field, p.message) for p in caught.value.problems])
    assert refusals[0] == refusals[1] and refusals[0][0][0] == field


def test_the_rpc_service_plans_with_the_same_function() -> None:
    from ssdprof.app.service import sweeps

    assert sweeps.plan_sweep is plan_sweep
