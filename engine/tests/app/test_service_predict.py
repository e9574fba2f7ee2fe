"""The RPC's model methods and the user's own spec sheets: analysis.predict, analysis.scaling,
analysis.correlation, specs.save and specs.delete, on runs whose every number the test chose."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from analysis_runs import make_run
from pydantic import BaseModel

from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.specs import Interface
from ssdprof.app.rpc import EngineService, handle_message
from ssdprof.model.results import RunResult


class Rpc:
    def __init__(self, service: EngineService):
        self.service = service

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return dict(handle_message(self.service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}))

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        response = self.request(method, params)
        assert "error" not in response, response["error"]
        return response["result"]

    def problem(self, method: str, params: dict[str, Any]) -> tuple[str, str]:
        error = self.request(method, params)["error"]
        assert error["code"] == -32602, error
        first = error["data"]["problems"][0]
        return first["field"], first["message"]

    def add(self, runs: list[RunResult]) -> list[int]:
        return [i for r in runs if (i := self.service.store.add_run(r).id) is not None]


def ignore(method: str, payload: BaseModel) -> None:
    pass


@pytest.fixture
def rpc(tmp_path: Path) -> Iterator[Rpc]:
    service = EngineService(tmp_path / "results.sqlite3", ignore, default_dir=tmp_path,
                            spec_folders=(bundled_spec_dir(), tmp_path / "specs"))
    yield Rpc(service)
    service.close()


SIZES = [4096, 16384, 65536, 262144, 4 << 20]


def bandwidth_at(bs: int) -> float:
    """A drive whose bandwidth grows as bs^0.6 (bytes/s): smooth in log size, like a real sequential sweep."""
    return 2e6 * bs ** 0.6


def size_sweep(noise: tuple[float, ...] = (0.98, 1.02)) -> list[RunResult]:
    return [make_run(rw="read", bs=bs, iops=bandwidth_at(bs) * f / bs) for bs in SIZES for f in noise]


def test_predict_an_untested_access_size_with_an_interval_and_leave_one_out(rpc: Rpc) -> None:
    ids = rpc.add(size_sweep())
    result = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s", "at": [1 << 20]})
    [series] = result["series"]
    assert series["run_ids"] == ids and len(series["measured"]) == len(ids)
    # bs^0.6 is a power law: degree 1 predicts best; five sizes leave three beyond its parameters
    assert series["model"].startswith("polynomial of degree 1")
    assert series["fit"]["r2"] > 0.99 and series["fit"]["check"] == "ok"
    [at_1m] = series["predictions"]
    assert at_1m["value"] == pytest.approx(bandwidth_at(1 << 20), rel=0.03)
    assert at_1m["low"] < bandwidth_at(1 << 20) < at_1m["high"]
    assert [p["x"] for p in series["loo"]] == SIZES
    assert series["loo_r2"] is not None and series["loo_mean_abs_error_pct"] < 10
    curve = series["curve"]
    assert len(curve) == 48 and curve[0]["x"] == pytest.approx(4096) and curve[-1]["x"] == pytest.approx(4 << 20)
    assert all(p["low"] <= p["value"] <= p["high"] for p in curve)


def saturating(sizes_and_bandwidth: tuple[tuple[int, float], ...]) -> list[RunResult]:
    return [make_run(rw="read", bs=bs, iops=bw / bs) for bs, bw in sizes_and_bandwidth]


def test_three_sizes_asked_for_degree_2_get_a_checkable_model_and_loo_first(rpc: Rpc) -> None:
    ids = rpc.add(saturating(((4096, 40e6), (131072, 900e6), (4 << 20, 1e9))))
    params = {"run_ids": ids, "metric": "bw_bytes_per_s", "degree": 2}
    [series] = rpc.call("analysis.predict", params)["series"]
    assert series["model"].startswith("polynomial of degree 1")
    assert "degree 1 at most" in series["model_choice"]
    assert series["fit"]["check"] == "weak" and series["fit"]["r2"] < 1
    assert series["loo_mean_abs_error_pct"] is not None
    assert list(series).index("loo_mean_abs_error_pct") < list(series).index("fit")


def test_two_sizes_are_an_exact_fit_with_no_r2_and_a_reason(rpc: Rpc) -> None:
    ids = rpc.add(saturating(((4096, 40e6), (131072, 900e6))))
    [series] = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s"})["series"]
    assert series["fit"] == {"check": "none",
                             "note": "exact fit: no check possible (2 parameters for 2 settings)",
                             "runs": 2, "settings": 2, "parameters": 2,
                             "r2": None, "adjusted_r2": None, "rmse": None}


def test_every_metric_the_contract_accepts_has_a_display_name() -> None:
    from typing import get_args

    from ssdprof.analysis.metrics import METRIC_NAMES, METRICS
    from ssdprof.app.contract.analysis import Metric
    from ssdprof.app.contract.methods import schema

    assert set(get_args(Metric)) == set(METRICS) == set(METRIC_NAMES)
    shown = schema()["metric_names"]["bw_bytes_per_s"]
    assert shown == {"label": "bandwidth", "unit": "MB/s", "scale": 1e6,
                     "title": "bandwidth (MB/s)"}


def test_settings_arrive_as_typed_and_the_engine_reads_them_or_names_the_field(rpc: Rpc) -> None:
    ids = rpc.add(size_sweep())
    typed = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s", "at": ["1m", "2MiB"]})
    assert [p["x"] for p in typed["series"][0]["predictions"]] == [1 << 20, 2 << 20]
    field, message = rpc.problem("analysis.predict", {"run_ids": ids, "at": ["1 parsec"]})
    # the renderer shows this message as it stands (src/views/PredictPanel.test.tsx)
    assert field == "at" and message.startswith("'1 parsec' has an unknown size unit; use k, KiB")
    field, message = rpc.problem("analysis.predict", {"run_ids": ids, "at": ["zz", "1m", "-4"]})
    # every bad size at once, the advice they share once
    assert field == "at" and message == ("'zz' is not a size; '-4' is not a size; "
                                         "use a number with an optional unit like 4k, 128KiB, 1MiB, 1GiB")
    field, message = rpc.problem("analysis.scaling", {"run_ids": ids, "at": ["8.5"]})
    assert field == "at.0" and "8.5 is not a whole number" in message  # in ssdprof's words, not pydantic's


def test_a_run_far_below_the_model_of_earlier_runs_is_flagged_anomalous(rpc: Rpc) -> None:
    ids = rpc.add(size_sweep((0.99, 1.0, 1.01)))
    [slow] = rpc.add([make_run(rw="read", bs=65536, iops=bandwidth_at(65536) * 0.5 / 65536)])
    [fine] = rpc.add([make_run(rw="read", bs=65536, iops=bandwidth_at(65536) / 65536)])
    flagged = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s", "check_run_id": slow})["series"][0]["check"]
    assert flagged["run_id"] == slow and flagged["anomalous"] is True and "outside" in flagged["message"]
    ok = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s", "check_run_id": fine})["series"][0]["check"]
    assert ok["anomalous"] is False


def test_predict_needs_two_settings_and_says_so_naming_the_runs(rpc: Rpc) -> None:
    ids = rpc.add([make_run(rw="read", bs=4096), make_run(rw="read", bs=4096)])
    field, message = rpc.problem("analysis.predict", {"run_ids": ids})
    assert field == "run_ids" and "two or more settings" in message


@pytest.mark.parametrize(("params", "field"), [({"run_ids": []}, "run_ids"), ({"run_ids": [1], "metric": "speed"}, "metric"),
                                               ({"run_ids": [1], "at": [-4096]}, "at"), ({"run_ids": [1], "degree": 9}, "degree")])
def test_bad_predict_params_name_the_field(rpc: Rpc, params: dict[str, Any], field: str) -> None:
    rpc.add([make_run()])
    assert rpc.problem("analysis.predict", params)[0] == field


def test_a_missing_run_is_not_found(rpc: Rpc) -> None:
    error = rpc.request("analysis.predict", {"run_ids": [999]})["error"]
    assert error["code"] == -32001 and "999" in error["message"]


def test_scaling_fits_the_usl_and_names_the_network_when_it_binds(rpc: Rpc) -> None:
    # lambda 1 GB/s per node, sigma 0.1, no coherency cost; two clients on 10 Gb/s links carry at most 2.5 GB/s
    def usl(n: int) -> float:
        return 1e9 * n / (1 + 0.1 * (n - 1))

    runs = [make_run(rw="read", bs=1 << 20, iops=usl(n) / (1 << 20), tags={"nodes": str(n)}) for n in (1, 2, 3, 4)]
    result = rpc.call("analysis.scaling", {"run_ids": rpc.add(runs), "metric": "bw_bytes_per_s", "at": [8],
                                           "client_link_gbps": 10, "clients": 2})
    [fit] = result["fits"]
    # four node counts for three parameters: one to spare
    assert fit["fit"]["check"] == "weak" and fit["fit"]["parameters"] == 3
    assert fit["sigma"] == pytest.approx(0.1, abs=0.01) and fit["lam"] == pytest.approx(1e9, rel=0.02)
    assert [p["x"] for p in fit["observed"]] == [1, 2, 3, 4]
    assert fit["curve"][0]["x"] == 1 and fit["curve"][-1]["x"] == 8
    [at_8] = fit["projections"]
    assert at_8["usl"] == pytest.approx(usl(8), rel=0.02)
    assert at_8["binding"] == "client network" and at_8["predicted"] == pytest.approx(2.5e9)


def two_interfaces(nodes: tuple[int, ...] = (1,)) -> list[RunResult]:
    """A size sweep on SATA and PCIe nodes, five repeats each: PCIe's bandwidth three times SATA's."""
    return [make_run(rw="read", bs=bs, iops=bandwidth_at(bs) * (3 if interface == "PCIe" else 1) * f / bs,
                     tags={"interface": interface, "nodes": str(n)})
            for interface in ("SATA", "PCIe") for n in nodes for bs in SIZES for f in (0.97, 0.99, 1.0, 1.01, 1.03)]


def test_predict_says_when_a_tag_splits_the_series_into_groups_that_differ_and_fits_them_apart(rpc: Rpc) -> None:
    ids = rpc.add(two_interfaces())
    mixed = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s"})
    assert len(mixed["series"]) == 1 and mixed["split_by"] == ""
    [split] = mixed["splits"]
    assert (split["key"], split["groups"], split["settings"], split["differing"]) == ("tag interface", ["PCIe", "SATA"], 5, 5)
    assert split["sentence"].startswith("interface splits these runs into groups that differ: SATA against PCIe differs at "
                                        "5 of the 5 settings both measured (Welch's t-test at 95 %); typically SATA is 67 % lower")
    apart = rpc.call("analysis.predict", {"run_ids": ids, "metric": "bw_bytes_per_s", "split_by": "tag interface"})
    assert [s["label"] for s in apart["series"]] == ["read jobs=1 QD1 nodes=1 interface=SATA", "read jobs=1 QD1 nodes=1 interface=PCIe"]
    assert apart["splits"] == [] and all(s["fit"]["r2"] > 0.99 for s in apart["series"])
    assert mixed["series"][0]["fit"]["r2"] < 0.9


def test_scaling_fits_each_group_of_a_split_apart_and_refuses_a_split_the_runs_lack(rpc: Rpc) -> None:
    ids = rpc.add(two_interfaces(nodes=(1, 2, 3)))
    mixed = rpc.call("analysis.scaling", {"run_ids": ids, "metric": "bw_bytes_per_s"})
    assert [s["key"] for s in mixed["splits"]] == ["tag interface"]
    apart = rpc.call("analysis.scaling", {"run_ids": ids, "metric": "bw_bytes_per_s", "split_by": "tag interface"})
    assert len(apart["fits"]) == 2 * len(mixed["fits"]) and apart["fits"][0]["setting"].endswith(" interface=SATA")
    field, message = rpc.problem("analysis.scaling", {"run_ids": ids, "split_by": "tag colour"})
    assert field == "split_by" and "tag interface" in message


def test_scaling_without_node_tags_says_how_to_tag(rpc: Rpc) -> None:
    field, message = rpc.problem("analysis.scaling", {"run_ids": rpc.add([make_run(), make_run(bs=8192)])})
    assert field == "run_ids" and "nodes=3" in message


def test_correlation_gives_one_matrix_per_node_count(rpc: Rpc) -> None:
    runs = [make_run(rw="read", bs=bs, qd=qd, iops=bandwidth_at(bs) / bs * (1 + qd / 100), tags={"nodes": str(nodes)})
            for nodes in (2, 3) for bs in (4096, 65536, 1 << 20) for qd in (1, 8)]
    groups = rpc.call("analysis.correlation", {"run_ids": rpc.add(runs)})["groups"]
    assert [g["nodes"] for g in groups] == [2, 3]
    for g in groups:
        size, bw = g["factors"].index("log2_block_size"), g["metrics"].index("bw_bytes_per_s")
        assert g["runs"] == 6 and g["values"][size][bw] == pytest.approx(1.0, abs=0.2)
        assert "nodes" not in g["factors"]  # constant within a group


MY_DRIVE = {"id": "my-lab-drive", "vendor": "Lab", "model": "Drive 1TB", "interface": "NVMe", "match_patterns": ["LAB DRIVE*"],
            "figures": [{"metric": "rand_read", "value": 500000, "unit": "IOPS", "block_size_bytes": 4096, "queue_depth": 32}],
            "sources": [{"title": "our own measurement, 2026-11"}]}


def test_the_users_own_spec_is_saved_listed_matched_edited_and_deleted(rpc: Rpc, tmp_path: Path) -> None:
    saved = rpc.call("specs.save", {"spec": MY_DRIVE})
    assert Path(saved["path"]) == tmp_path / "specs" / "my-lab-drive.json" and saved["overrides_bundled"] is False
    assert json.loads(Path(saved["path"]).read_text())["model"] == "Drive 1TB"
    listed = rpc.call("specs.list")
    assert listed["user_spec_ids"] == ["my-lab-drive"] and listed["user_spec_dir"] == str(tmp_path / "specs")
    assert rpc.call("specs.match", {"device_model": "LAB DRIVE X"})["spec"]["id"] == "my-lab-drive"

    field, message = rpc.problem("specs.save", {"spec": {**MY_DRIVE, "model": "Drive 2TB"}})
    assert field == "spec.id" and "replace" in message
    rpc.call("specs.save", {"spec": {**MY_DRIVE, "model": "Drive 2TB"}, "replace": True})
    assert any(s["model"] == "Drive 2TB" for s in rpc.call("specs.list")["specs"])

    assert rpc.call("specs.delete", {"spec_id": "my-lab-drive"})["deleted"] is True
    assert not (tmp_path / "specs" / "my-lab-drive.json").exists()
    assert rpc.request("specs.delete", {"spec_id": "my-lab-drive"})["error"]["code"] == -32001


def test_a_bundled_spec_is_overridden_by_a_copy_and_never_deleted(rpc: Rpc) -> None:
    bundled = next(s for s in rpc.call("specs.list")["specs"] if s["id"] == "samsung-970-evo-plus-1tb")
    assert rpc.call("specs.save", {"spec": {**bundled, "notes": "our unit"}})["overrides_bundled"] is True
    assert rpc.call("specs.delete", {"spec_id": "samsung-970-evo-plus-1tb"})["deleted"] is True  # the user's copy
    field, message = rpc.problem("specs.delete", {"spec_id": "samsung-970-evo-plus-1tb"})
    assert field == "spec_id" and "bundled" in message
    assert (bundled_spec_dir() or Path()).joinpath("samsung-970-evo-plus-1tb.json").is_file()


def test_a_spec_form_sends_numbers_and_sizes_as_typed_and_the_engine_reads_them(rpc: Rpc) -> None:
    typed = {**MY_DRIVE, "capacity_bytes": "1TB", "figures": [
        {"metric": "rand_read", "value": "500000", "unit": "IOPS", "block_size_bytes": "4k", "queue_depth": "32"}]}
    saved = rpc.call("specs.save", {"spec": typed})["spec"]
    assert saved["capacity_bytes"] == 10**12
    assert saved["figures"][0] | {"note": ""} == {**saved["figures"][0], "value": 500000, "queue_depth": 32,
                                                  "block_size_bytes": 4096}
    bad = {**typed, "figures": [{**typed["figures"][0], "queue_depth": "deep"}]}
    field, message = rpc.problem("specs.save", {"spec": bad, "replace": True})
    assert field.endswith("queue_depth") and "'deep'" in message


def test_the_spec_form_lists_are_the_engines(rpc: Rpc) -> None:
    choices = rpc.call("specs.list")["choices"]
    assert [c["value"] for c in choices["interfaces"]] == [i.value for i in Interface]
    assert {c["value"]: c["label"] for c in choices["units"]}["us"] == "µs"
    assert [c["value"] for c in choices["accesses"]][:2] == ["seq_read", "seq_write"]


NEGATIVE = {"figures": [{"metric": "rand_read", "value": -1, "unit": "IOPS"}]}


@pytest.mark.parametrize(("change", "field"), [({"interface": "floppy"}, "spec.interface"), ({"id": "Bad Id!"}, "spec.id"),
                                               (NEGATIVE, "spec.figures.0.value")])
def test_an_invalid_spec_names_the_field_and_writes_nothing(rpc: Rpc, tmp_path: Path, change: dict[str, Any], field: str) -> None:
    assert rpc.problem("specs.save", {"spec": {**MY_DRIVE, **change}})[0] == field
    assert not (tmp_path / "specs").exists()


def test_without_a_user_folder_nothing_is_saved(tmp_path: Path) -> None:
    service = EngineService(tmp_path / "r.sqlite3", ignore, default_dir=tmp_path, spec_folders=(bundled_spec_dir(),))
    try:
        field, message = Rpc(service).problem("specs.save", {"spec": MY_DRIVE})
        assert field == "spec.id" and "no folder" in message
    finally:
        service.close()


def test_observe_finds_the_queue_depth_knee_in_plain_words(rpc: Rpc) -> None:
    # IOPS rises to a plateau while latency keeps climbing: the knee is where more queue buys no more IOPS
    levels = {1: (10_000, 100e3), 4: (38_000, 105e3), 16: (60_000, 270e3), 64: (61_000, 1050e3)}
    ids = rpc.add([make_run(qd=qd, iops=iops, lat_ns=lat) for qd, (iops, lat) in levels.items()])
    found = rpc.call("analysis.observe", {"run_ids": ids})["observations"]
    knee = [o for o in found if o["code"] == "qd_knee"]
    assert knee and knee[0]["severity"] == "info" and "stops rising at 16 outstanding I/Os" in knee[0]["message"], found
    assert set(knee[0]["run_ids"]) <= set(ids)


def test_observe_flags_network_bound_runs_against_the_given_link(rpc: Rpc) -> None:
    ids = rpc.add([make_run(rw="read", bs=1 << 20, iops=1150, hosts=1)])  # 1.2 GB/s on a 10 Gb/s (1.25 GB/s) link
    found = rpc.call("analysis.observe", {"run_ids": ids, "link_gbps": 10})["observations"]
    assert any(o["code"] == "network_bound" for o in found), found
    assert rpc.problem("analysis.observe", {"run_ids": ids, "link_gbps": -1})[0] == "link_gbps"
