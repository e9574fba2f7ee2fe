"""ssdprof predict --scale-up: figures typed in or from tagged runs, the text, --json and --pdf, and
bad flags refused by name.
"""

import argparse
import json
import shlex
from pathlib import Path

import pytest
from analysis_runs import make_run

from ssdprof.analysis.scale_up_space import ScaleUpResult
from ssdprof.cli import analysis as cli_analysis
from ssdprof.cli.scale_up import EXAMPLE, parse_point
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store


def run_cli(store: Store, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    root = argparse.ArgumentParser(prog="ssdprof")
    cli_analysis.register(root.add_subparsers(dest="command"))
    code = cli_analysis.handle(root.parse_args(list(argv)), store)
    return code, capsys.readouterr().out


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "r.sqlite3")


def test_the_help_example_runs_and_names_both_picks(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(store, capsys, *shlex.split(EXAMPLE)[1:])
    assert code == 0
    assert "chassis IOPS 174,000: mean of the highest" in out
    assert "Daisy chain (chassis + 9 enclosures, 1 PCIe slot): 26,273 IOPS" in out
    assert (
        "QoS-uniformity: chassis + 3 enclosures | 3 enclosures | 3 enclosures (3 PCIe slots): "
        "350,784 IOPS, 13.4×" in out
    )
    assert "42 architectures, 14 within the limits" in out
    marks = [line.split()[0] for line in out.splitlines() if line.startswith(("  ✓", "  ✗"))]
    assert marks == ["✓"] * 14 + ["✗"]  # those within the limits first, 15 listed


def test_json_is_the_apps_answer_and_pdf_is_written(
    store: Store, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pdf = tmp_path / "sizing.pdf"
    code, out = run_cli(store, capsys, *shlex.split(EXAMPLE)[1:], "--json", "--pdf", str(pdf))
    assert code == 0 and pdf.read_bytes().startswith(b"%PDF")
    result = ScaleUpResult.model_validate(json.loads(out))
    assert result.best is not None and result.best.key == "8-1-1"


def test_tagged_runs_are_the_profile(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    for arrays, iops in ((1, 45_000), (6, 193_000), (8, 155_000)):
        store.add_run(
            make_run(rw="randwrite", iops=iops, tags={"arrays": str(arrays), "study": "afa"})
        )
    code, out = run_cli(
        store,
        capsys,
        "predict",
        "--tag",
        "study=afa",
        "--scale-up",
        "write_iops",
        "--target-ssds",
        "48",
        "--json",
    )
    assert code == 0
    answer = json.loads(out)
    assert answer["label"] == "write IOPS of random write 4KiB" and answer["count"] == 2
    assert answer["daisy_chain"]["iops"] == pytest.approx(174_000 * 0.9)


def test_bad_flags_are_refused_by_name(store: Store, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(WorkloadError) as caught:
        run_cli(
            store,
            capsys,
            "predict",
            "--scale-up",
            "iops",
            "--point",
            "arrays=8 iops=155k",
            "--target-ssds",
            "240",
            "--max-pcie-slots",
            "0",
        )
    assert str(caught.value).startswith(
        "PCIe slots for SAS controllers (--max-pcie-slots): 0 is out of range"
    )
    with pytest.raises(
        WorkloadError, match=r"target SSDs \(--target-ssds\): is required with --scale-up"
    ):
        run_cli(store, capsys, "predict", "--scale-up", "iops", "--point", "arrays=8 iops=155k")


def test_a_typed_point_reads_k_and_m_and_names_what_it_cannot_read() -> None:
    point = parse_point("arrays=16 iops=1.2M cores=30 enclosures=1")
    assert (point.arrays, point.iops, point.cpu_cores, point.enclosures) == (16, 1.2e6, 30, 1)
    with pytest.raises(
        WorkloadError, match=r"profiling points \(--point\): 'speed=3' is not one of"
    ):
        parse_point("arrays=8 speed=3")
    with pytest.raises(WorkloadError, match="needs arrays= and iops="):
        parse_point("arrays=8")
    with pytest.raises(WorkloadError, match=r"'arrays=0 iops=5': 0 is out of range"):
        parse_point("arrays=0 iops=5")


def test_the_listing_says_one_slot_and_keeps_its_columns_under_long_keys(
    store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_cli(store, capsys, *shlex.split(EXAMPLE)[1:], "--all")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("  ✓", "  ✗"))]
    chain = next(line for line in rows if line.split()[1] == "10")
    assert " 1 slot " in chain and "1 slots" not in out
    # the slots and IOPS columns start where they do on every other row, long keys included
    assert len({line.index("slot") for line in rows}) == 1
    assert len({line.index(" IOPS") for line in rows}) == 1
    longest = next(i for i, line in enumerate(out.splitlines()) if "1-1-1-1-1-1-1-1-1-1" in line)
    assert out.splitlines()[longest + 1] == "      missed: needs 10 PCIe slots, 3 available"
