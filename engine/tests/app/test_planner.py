"""One planner: the CLI's flags and the RPC's params become the same request, and the same SweepSpec
(or the same refusal) comes out of plan_sweep."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from ssdprof.app.engines import choose_engine
from ssdprof.app.planner import SweepRequest, plan_sweep, preflight, rbd_target
from ssdprof.app.sites import LocalSite
from ssdprof.cli.measure import request_from_args
from ssdprof.cli.parser import build_parser
from ssdprof.model.problems import from_validation
from ssdprof.model.workload import EngineChoice, WorkloadError
from ssdprof.remote.ceph import RbdTarget


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


def test_a_read_share_given_while_the_pattern_is_varied_is_the_mixed_points_and_each_pure_pattern_keeps_its_own(
        tmp_path: Path) -> None:
    common = ("sweep", "--target", str(tmp_path), "--vary", "rw=randread,randrw,write", "--read-pct", "70")
    points = plan_sweep(from_cli(*common)).points
    assert [(p.pattern.value, p.read_pct) for p in points] == [("randread", 100), ("randrw", 70), ("write", 0)]
    grid = plan_sweep(from_cli(*common, "--vary", "bs=4k,8k", "--grid")).points
    assert {(p.pattern.value, p.read_pct) for p in grid} == {("randread", 100), ("randrw", 70), ("write", 0)}
    with pytest.raises(WorkloadError, match="70 % reads conflicts with random read"):  # the bs points take the base's
        plan_sweep(from_cli(*common, "--vary", "bs=4k,8k"))


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


def test_the_sweep_kind_every_face_plans_through_plans_with_the_same_function() -> None:
    from ssdprof.app.kinds import sweep

    assert sweep.plan_sweep is plan_sweep


BAD = {"block_size_bytes": "4kk", "queue_depth": 0, "target": "/nonexistent/ssdprof-dir"}
BAD_FLAGS = ["--bs", "4kk", "--qd", "0", "--target", "/nonexistent/ssdprof-dir"]


def planner_problems(request: SweepRequest) -> list[str]:
    with pytest.raises(WorkloadError) as caught:
        plan_sweep(request, check_target=True)
    return [str(p) for p in caught.value.problems]


def rpc_problems(tmp_path: Path, method: str, params: dict[str, object]) -> list[str]:
    from ssdprof.app.rpc import handle_message
    from ssdprof.app.service.engine import EngineService

    service = EngineService(tmp_path / "rpc.db", lambda method, payload: None, default_dir=tmp_path)
    try:
        response = handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    finally:
        service.close()
    return [_as_cli(p) for p in response["error"]["data"]["problems"]]


def _as_cli(problem: dict[str, str]) -> str:
    return f"{problem['label']} ({problem['flag']}): {problem['message']}"


def cli_problems(tmp_path: Path, *argv: str) -> list[str]:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ssdprof", *argv, "--db", str(tmp_path / "cli.db")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return [line.removeprefix("ssdprof: ") for line in done.stderr.splitlines()]


def test_three_bad_fields_are_reported_together_in_the_same_words_by_planner_cli_and_rpc(tmp_path: Path) -> None:
    planned = planner_problems(SweepRequest.model_validate({"base": BAD}))
    assert planned == [
        "access size (--bs): '4kk' has an unknown size unit; use k, KiB, M, MiB, G, GiB (1024-based) or KB, MB, GB "
        "(1000-based); allowed 512B to 64MiB in multiples of 512 bytes, e.g. 4k",
        "queue depth (--qd): 0 is out of range; allowed 1–4096, e.g. 32",
        "target (--target): '/nonexistent/ssdprof-dir' does not exist; give an existing directory, file or block device",
    ]
    assert cli_problems(tmp_path, "run", *BAD_FLAGS) == planned
    assert rpc_problems(tmp_path, "sweep.start", {"base": BAD}) == planned


def test_an_unknown_engine_is_refused_with_the_list_of_choices_by_every_face(tmp_path: Path) -> None:
    expected = ["engine (--engine): 'fiio' is not one of the choices; allowed auto, fio or portable, e.g. auto"]
    assert planner_problems(SweepRequest.model_validate({"base": {"engine": "fiio", "target": str(tmp_path)}})) == expected
    assert cli_problems(tmp_path, "run", "--engine", "fiio", "--target", str(tmp_path)) == expected
    assert rpc_problems(tmp_path, "sweep.estimate", {"base": {"engine": "fiio"}}) == expected


@pytest.mark.parametrize("typed", ["=SATA", ["=SATA"], {"": "SATA"}])
def test_a_bad_tag_gets_the_same_message_however_it_is_typed(typed: object) -> None:
    with pytest.raises(ValidationError) as caught:
        SweepRequest.model_validate({"tags": typed})
    assert [str(p) for p in from_validation(caught.value, SweepRequest)] == [TAG_PROBLEM]


TAG_PROBLEM = ("tags (--tag): '=SATA' has no key; allowed key=value, the key of letters, digits, _ . : or -, "
               "at most 200 characters each, e.g. interface=SATA")


def test_the_same_bad_tag_gets_the_same_message_from_cli_and_rpc(tmp_path: Path) -> None:
    assert cli_problems(tmp_path, "run", "--tag", "=SATA", "--target", str(tmp_path)) == [TAG_PROBLEM]
    assert rpc_problems(tmp_path, "sweep.estimate", {"tags": "=SATA"}) == [TAG_PROBLEM]


def test_tags_typed_in_a_form_split_on_commas_and_spaces_and_flags_keep_their_spaces() -> None:
    assert SweepRequest.model_validate({"tags": "interface=NVMe, nodes=3 site=lab"}).tags == {
        "interface": "NVMe", "nodes": "3", "site": "lab"}
    assert SweepRequest.model_validate({"tags": ["note=two words"]}).tags == {"note": "two words"}


def test_repeats_and_a_preset_with_factors_are_refused_by_the_planners_rules(tmp_path: Path) -> None:
    assert cli_problems(tmp_path, "run", "--repeat", "1001") == ["repeats (--repeat): 1001 is out of range; allowed 1–1000, e.g. 3"]
    both = planner_problems(SweepRequest.model_validate({"preset": "student", "factors": {"queue_depth": [1, 2]},
                                                         "base": {"queue_depth": 0, "target": str(tmp_path)}}))
    assert both == ["queue depth (--qd): 0 is out of range; allowed 1–4096, e.g. 32",
                    "preset (--preset): give either a preset or factors to vary, not both"]


def test_a_start_keeps_the_target_its_check_resolved_for_the_run(tmp_path: Path) -> None:
    planned = preflight(SweepRequest.model_validate({"base": {"target": str(tmp_path), "size_bytes": "1MiB"}}))
    assert planned.spec == plan_sweep(SweepRequest.model_validate(
        {"base": {"target": str(tmp_path), "size_bytes": "1MiB"}}))
    assert planned.target is not None and planned.target.path.parent == tmp_path
    site = LocalSite(planned.spec, choose_engine(EngineChoice.PORTABLE), None, plan=planned.target)
    assert site.plan is planned.target
    site.tear_down(keep=False)


def test_a_remote_sweep_is_checked_and_run_with_one_rbd_rule() -> None:
    spec = plan_sweep(SweepRequest.model_validate({"hosts": ["h1"], "rbd": "rbd/img-{host}"}))
    assert spec.remote is not None
    found = rbd_target(spec.remote)
    assert found is not None and (found.pool, found.image_for("h1")) == ("rbd", "img-h1")
    with pytest.raises(WorkloadError) as refused:
        plan_sweep(SweepRequest.model_validate({"hosts": ["h1"], "rbd": "no pool"}))
    assert refused.value.problems[0].field == "rbd"


def test_a_start_reads_the_rbd_image_once_and_hands_it_on_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    from ssdprof.app import planner

    read: list[str] = []
    parse = planner.parse_rbd
    monkeypatch.setattr(planner, "parse_rbd", lambda *given: read.append(given[0]) or parse(*given))
    planned = preflight(SweepRequest.model_validate(
        {"hosts": ["h1", "h2"], "rbd": "rbd/img-{host}", "ceph_user": "lab", "ceph_conf": "/etc/ceph/lab.conf"}))
    assert read == ["rbd/img-{host}"]
    assert planned.rbd == RbdTarget(pool="rbd", image_pattern="img-{host}", client_name="lab",
                                    conf_path="/etc/ceph/lab.conf")
    assert planned.target is None  # the hosts check their own targets
    assert preflight(SweepRequest.model_validate({"hosts": ["h1"]})).rbd is None
