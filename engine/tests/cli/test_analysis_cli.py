"""ssdprof compare / predict / specs, run in-process on a small store of known runs."""

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from analysis_runs import make_run

from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.app.contract.analysis import PredictParams
from ssdprof.app.contract.specs import CompareReport
from ssdprof.app.service.predict import Models
from ssdprof.cli import analysis as cli_analysis
from ssdprof.cli import specs as cli_specs
from ssdprof.model.results import RunResult
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="ssdprof")
    sub = root.add_subparsers(dest="command")
    cli_analysis.register(sub)
    cli_specs.register(sub)
    return root


def handle(args: argparse.Namespace, store: Store) -> int:
    return (cli_specs.handle if args.command == "specs" else cli_analysis.handle)(args, store)


def run_cli(store: Store, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = handle(parser().parse_args(list(argv)), store)
    return code, capsys.readouterr().out


def subcommands(p: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    action = next((a for a in p._actions if isinstance(a, argparse._SubParsersAction)), None)
    found = []
    for name, sub in (action.choices.items() if action else []):
        found += [(name, sub), *[(f"{name} {n}", s) for n, s in subcommands(sub)]]
    return found


def test_every_analysis_command_has_help_with_a_runnable_example() -> None:
    commands = dict(subcommands(parser()))
    assert {"compare", "predict", "specs", "specs list", "specs show", "specs match"} <= commands.keys()
    for name, sub in commands.items():
        text = sub.format_help()
        assert "example:" in text and "ssdprof " in text.split("example:")[1], name


def test_specs_match_names_the_spec_for_a_reported_model(fresh_store: Store, capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    code, out = run_cli(fresh_store, capsys, "specs", "match", "Samsung SSD 870 EVO 1TB", "--spec-dir", str(tmp_path))
    assert code == 0 and "samsung-870-evo-1tb" in out
    code, out = run_cli(fresh_store, capsys, "specs", "match", "QEMU HARDDISK", "--spec-dir", str(tmp_path))
    assert code == 1 and "no spec sheet matches" in out


def test_specs_list_and_show_include_sources(fresh_store: Store, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out = run_cli(fresh_store, capsys, "specs", "list", "--json", "--spec-dir", str(tmp_path))
    assert code == 0 and len(json.loads(out)["specs"]) >= 20
    code, out = run_cli(fresh_store, capsys, "specs", "show", "intel-dc-s4500", "--spec-dir", str(tmp_path))
    assert "QD32" in out and "source 1: Intel Solid State Drive Data Center S4500" in out


def test_compare_gives_mean_ci_and_percent_of_the_matched_spec(fresh_store: Store, capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    ids = [fresh_store.add_run(make_run(qd=32, iops=v, device_model="Samsung SSD 870 EVO 1TB")).id
           for v in (40e3, 41e3, 42e3)]  # stored outside any sweep: not repeats unless pooled
    code, out = run_cli(fresh_store, capsys, "compare", *map(str, ids), "--spec-dir", str(tmp_path))
    assert code == 0 and f"run {ids[0]}\n" in out and "n=3" not in out
    code, out = run_cli(fresh_store, capsys, "compare", *map(str, ids), "--pool", "--json",
                        "--spec-dir", str(tmp_path))
    report = json.loads(out)
    assert code == 0 and report["groups"][0]["n"] == 3 and report["groups"][0]["mean"] == 41e3
    pooled_from = ", ".join(map(str, ids))
    assert report["groups"][0]["source"] == f"n = 3 runs pooled from runs {pooled_from}"
    qd32 = next(c["comparison"] for c in report["spec"] if c["comparison"]["figure"]["queue_depth"] == 32)
    assert qd32["pct_of_spec"] == pytest.approx(41.84, abs=0.01)  # the student's "41 % of rated 4K random read"


def test_compare_two_groups_says_whether_the_difference_is_significant(fresh_store: Store,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    for v in (90e3, 92e3, 91e3):
        fresh_store.add_run(make_run(qd=32, iops=v, tags={"interface": "SATA"}))
    for v in (400e3, 410e3, 395e3):
        fresh_store.add_run(make_run(qd=32, iops=v, tags={"interface": "PCIe"}))
    code, out = run_cli(fresh_store, capsys, "compare", "--tag", "interface=SATA", "--with-tag", "interface=PCIe", "--spec", "none")
    assert code == 0 and "B is 341.4 % higher than A" in out and "significant at 5%" in out


def test_compare_two_groups_as_json_is_the_contracts_verdict(fresh_store: Store,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    for v, interface in ((90e3, "SATA"), (92e3, "SATA"), (400e3, "PCIe"), (410e3, "PCIe")):
        fresh_store.add_run(make_run(qd=32, iops=v, tags={"interface": interface}))
    code, out = run_cli(fresh_store, capsys, "compare", "--tag", "interface=SATA", "--with-tag",
                        "interface=PCIe", "--spec", "none", "--json")
    report = CompareReport.model_validate_json(out)
    assert code == 0 and report.groups == [] and len(report.comparisons) == 1
    assert report.comparisons[0].a.n == 2 and report.comparisons[0].significant


def test_predict_as_json_is_the_apps_own_answer(fresh_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    ids = [fresh_store.add_run(make_run(rw="read", bs=bs, iops=2e8 * (bs / 4096) ** 0.5 / bs * f)).id
           for bs in (4096, 131072, 1 << 20, 4 << 20) for f in (0.97, 1.0, 1.03)]
    code, out = run_cli(fresh_store, capsys, "predict", *map(str, ids), "--at", "2MiB", "--json")
    def stored(wanted: Sequence[int]) -> list[RunResult]:
        return [r for r in map(fresh_store.run, wanted) if r]

    models = Models(stored, lambda: SpecLibrary.load([]), None)
    asked = PredictParams(run_ids=[i for i in ids if i], metric="bw_bytes_per_s", at=[2 << 20])
    assert code == 0 and json.loads(out) == models.predict(asked).model_dump(mode="json")


def test_predict_an_untested_access_size_with_leave_one_out_validation(fresh_store: Store,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for bs in (4096, 131072, 1 << 20, 4 << 20):
        for f in (0.97, 1.0, 1.03):
            fresh_store.add_run(make_run(rw="read", bs=bs, iops=2e8 * (bs / 4096) ** 0.5 / bs * f, tags={"study": "x"}))
    code, out = run_cli(fresh_store, capsys, "predict", "--tag", "study=x", "--at", "2MiB")
    assert code == 0
    assert "predict 2MiB:" in out and "95% prediction interval" in out
    lines = out.splitlines()
    # the metric as people name it, not bw_bytes_per_s; then the leave-one-out error before the fit
    assert lines[0].startswith("read jobs=1 QD1, bandwidth: polynomial of degree")
    assert lines[1].startswith("leaving each setting out (on setting means): mean |error| ")
    fit = "fit over 12 runs at 4 settings: R² "
    assert next(i for i, line in enumerate(lines) if line.startswith(fit)) > 1


def two_loads(store: Store) -> None:
    """A study at 2-4 nodes and three access sizes, each setting measured idle and busy (30 % of idle)."""
    for nodes in (2, 3, 4):
        for bs in (4096, 131072, 1 << 20):
            for load, f in (("idle", 1.0), ("busy", 0.3)):
                for jitter in (0.98, 1.0, 1.02):
                    store.add_run(make_run(rw="read", bs=bs, iops=5e4 * nodes * f * jitter / (bs / 4096) ** 0.5,
                                           tags={"study": "s", "load": load, "nodes": str(nodes)}))


def test_predict_and_scale_out_say_when_a_tag_splits_the_runs_into_groups_that_differ(
        fresh_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    """As the app's Predict and Scale-out panels do (and --json's splits): the sentence before the fits."""
    two_loads(fresh_store)
    said = "load splits these runs into groups that differ: "
    code, out = run_cli(fresh_store, capsys, "predict", "--tag", "study=s", "--tag", "nodes=2")
    assert code == 0 and out.startswith(said) and "Fitted together they mix two populations." in out
    code, out = run_cli(fresh_store, capsys, "predict", "--tag", "study=s", "--scale", "nodes")
    assert code == 0 and out.startswith(said)
    code, out = run_cli(fresh_store, capsys, "predict", "--tag", "load=idle", "--tag", "nodes=2")
    assert code == 0 and said not in out  # one load: nothing splits
    assert "Fit each group apart: --split-by 'load'." in out_of(fresh_store, capsys, "--tag", "nodes=2")


def out_of(store: Store, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out = run_cli(store, capsys, "predict", "--tag", "study=s", *argv)
    assert code == 0
    return out


def test_predict_and_scale_out_fit_each_group_of_a_split_apart_as_the_app_does(
        fresh_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    two_loads(fresh_store)
    together = out_of(fresh_store, capsys, "--tag", "nodes=2")
    apart = out_of(fresh_store, capsys, "--tag", "nodes=2", "--split-by", "tag load")
    assert apart.startswith("Each load group fitted apart (--split-by 'load').")
    assert out_of(fresh_store, capsys, "--tag", "nodes=2", "--split-by", "load") == apart  # the tag's name alone
    assert "splits these runs into groups that differ" not in apart  # the split fitted apart is not offered again
    assert "nodes=2 load=idle," in apart and "nodes=2 load=busy," in apart  # a fit of each group, named by it
    assert "load=" not in together
    answer = json.loads(out_of(fresh_store, capsys, "--tag", "nodes=2", "--split-by", "tag load", "--json"))
    assert answer["split_by"] == "tag load" and answer["splits"] == [] and len(answer["series"]) == 2
    scaled = out_of(fresh_store, capsys, "--scale", "nodes", "--split-by", "tag load")
    assert scaled.startswith("Each load group fitted apart") and "load=idle" in scaled and "load=busy" in scaled
    with pytest.raises(WorkloadError) as refused:
        out_of(fresh_store, capsys, "--split-by", "tag colour")
    assert refused.value.problems[0].flag == "--split-by" and "'tag load'" in str(refused.value)


def test_predict_scale_out_names_the_binding_limit(fresh_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for n in (2, 3, 4, 5):
        fresh_store.add_run(make_run(rw="read", bs=4 << 20, iops=150 * n, hosts=4, tags={"nodes": str(n), "study": "c"}))
    code, out = run_cli(fresh_store, capsys, "predict", "--tag", "study=c", "--scale", "nodes", "--at", "10",
                        "--metric", "bw_bytes_per_s", "--link-gbps", "10")
    assert code == 0 and "10 nodes:" in out and "limited by client network" in out


def test_predict_without_runs_is_bad_input(fresh_store: Store) -> None:
    from ssdprof.model.workload import WorkloadError

    with pytest.raises(WorkloadError, match="name the runs"):
        handle(parser().parse_args(["predict"]), fresh_store)


@pytest.mark.parametrize("argv", [["compare", "1", "--confidence", "95"], ["predict", "1", "--degree", "0"]])
def test_out_of_range_levels_are_bad_input_naming_the_flag(fresh_store: Store, argv: list[str]) -> None:
    from ssdprof.model.workload import WorkloadError

    with pytest.raises(WorkloadError, match=argv[-2]):
        handle(parser().parse_args(argv), fresh_store)


def test_specs_add_and_delete_your_own_sheet_but_never_a_bundled_one(fresh_store: Store, capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    mine = tmp_path / "specs"
    code, out = run_cli(fresh_store, capsys, "specs", "show", "samsung-870-evo-1tb", "--json", "--spec-dir", str(mine))
    edited = {**json.loads(out), "id": "my-870", "notes": "our lab's unit"}
    (tmp_path / "mine.json").write_text(json.dumps(edited))
    code, out = run_cli(fresh_store, capsys, "specs", "add", str(tmp_path / "mine.json"), "--spec-dir", str(mine))
    assert code == 0 and (mine / "my-870.json").is_file() and "saved" in out
    with pytest.raises(WorkloadError, match="replace"):
        run_cli(fresh_store, capsys, "specs", "add", str(tmp_path / "mine.json"), "--spec-dir", str(mine))
    assert run_cli(fresh_store, capsys, "specs", "add", str(tmp_path / "mine.json"), "--replace", "--spec-dir", str(mine))[0] == 0
    assert run_cli(fresh_store, capsys, "specs", "delete", "my-870", "--spec-dir", str(mine))[0] == 0
    assert not (mine / "my-870.json").exists()
    with pytest.raises(WorkloadError, match="bundled"):
        run_cli(fresh_store, capsys, "specs", "delete", "samsung-870-evo-1tb", "--spec-dir", str(mine))
    (tmp_path / "bad.json").write_text(json.dumps({**edited, "interface": "floppy"}))
    assert handle(parser().parse_args(["specs", "add", str(tmp_path / "bad.json"), "--spec-dir", str(mine)]), fresh_store) == 2
    assert "bad.json: interface" in capsys.readouterr().err


def test_correlate_prints_a_matrix_per_node_count(fresh_store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for nodes in (2, 3):
        for bs in (4096, 65536, 1 << 20):
            fresh_store.add_run(make_run(rw="read", bs=bs, iops=1e9 / bs ** 0.5, tags={"nodes": str(nodes), "cluster": "lab"}))
    code, out = run_cli(fresh_store, capsys, "correlate", "--tag", "cluster=lab", "--json")
    groups = json.loads(out)["groups"]
    assert code == 0 and [g["nodes"] for g in groups] == [2, 3]
    size = groups[0]["factors"].index("log2_block_size")
    assert groups[0]["values"][size][groups[0]["metrics"].index("bw_bytes_per_s")] == pytest.approx(1.0)
    assert groups[0]["values"][size][groups[0]["metrics"].index("iops")] == pytest.approx(-1.0)
    code, out = run_cli(fresh_store, capsys, "correlate", "--tag", "cluster=lab")
    assert "3 storage nodes (3 runs, spearman" in out and "log2_block_size" in out


def test_compare_the_p99_of_mixed_runs_is_that_of_all_their_ios_in_words_and_json(fresh_store: Store,
                                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import FIO_DATA

    from ssdprof.model.histogram import merge, percentile
    from ssdprof.store.interchange import import_fio_output

    run = import_fio_output(FIO_DATA / "fio-3.33_randrw_psync_lat.jsonplus.json")[0]
    fresh_store.add_run(run.model_copy(update={"tags": {"side": "a"}}))
    b = [fresh_store.add_run(run.model_copy(update={"tags": {"side": "b"}})) for _ in range(2)]
    code, out = run_cli(fresh_store, capsys, "compare", "--tag", "side=a", "--with-tag", "side=b",
                        "--metric", "lat_ns_p99", "--spec", "none", "--json")
    verdict = CompareReport.model_validate_json(out).comparisons[0]
    p99 = run.mixed.lat_ns.p99
    assert code == 0 and p99 == percentile(merge([run.read.lat_bins_ns, run.write.lat_bins_ns]), 99)
    assert verdict.a.mean == verdict.a_pooled == p99 / 1e3  # µs, as the means
    assert p99 != max(run.read.lat_ns.p99 or 0, run.write.lat_ns.p99 or 0)
    every = merge([r.read.lat_bins_ns for r in b] + [r.write.lat_bins_ns for r in b])
    assert verdict.b_pooled == (percentile(every, 99) or 0) / 1e3
    code, out = run_cli(fresh_store, capsys, "compare", "--tag", "side=a", "--with-tag", "side=b",
                        "--metric", "lat_ns_p99", "--spec", "none")
    assert f"p99 latency, all I/Os: A {p99 / 1e3:.1f} µs" in out
    code, out = run_cli(fresh_store, capsys, "compare", "--tag", "side=b", "--metric", "lat_ns_p99", "--spec", "none",
                        "--pool", "--json")
    (group,) = CompareReport.model_validate_json(out).groups
    assert group.pooled and group.n == 2 and group.half_width is None and group.mean == percentile(every, 99)
