"""``ssdprof runs summary`` as a user types it, on the real student sweep: the same summary as the
app's, and a spec sheet given once remembered for the device."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ssdprof.cli.main import main
from ssdprof.model.results import RunResult
from ssdprof.store.db import Store

RUNS = Path(__file__).resolve().parents[3] / "src" / "test" / "student-runs.json"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "results.sqlite3"
    store = Store(path)
    for raw in json.loads(RUNS.read_text())["runs"]:
        store.add_run(RunResult.model_validate(raw).model_copy(update={"sweep_id": None}))
    store.close()
    return path


def summary(db: Path, *args: str) -> int:
    return main(["runs", "summary", *map(str, range(1, 11)), "--db", str(db), *args])


def test_the_summary_prints_the_glance_table_and_each_factors_sentence(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert summary(db) == 0
    out = capsys.readouterr().out
    assert out.startswith("Summary of 10 run(s) of disk vda on vm")
    row = next(line for line in out.splitlines() if line.startswith("RND 4KiB QD1 T1"))
    assert row.split()[4:] == ["76.3", "18,632", "52.8", "62.6", "15,280", "63.2"]
    assert "From 4KiB to 128KiB (randread QD1 T1), IOPS fell 5.2×" in out
    assert "choose a spec sheet" in out and "8 of 9 settings ran once (n = 1)" in out


def test_a_spec_given_once_is_remembered_for_the_device(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert summary(db, "--spec", "samsung-970-evo-plus-1tb") == 0
    assert "spec sheet for disk vda on vm: samsung-970-evo-plus-1tb" in capsys.readouterr().out
    assert summary(db, "--json") == 0
    pick = json.loads(capsys.readouterr().out)["spec"]["pick"]
    assert (pick["spec_id"], pick["how"]) == ("samsung-970-evo-plus-1tb", "remembered")
    assert summary(db, "--forget-spec", "--json") == 0
    assert json.loads(capsys.readouterr().out)["spec"]["pick"]["how"] == "none"


def test_an_unknown_sheet_is_refused_and_not_remembered(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert summary(db, "--spec", "no-such-sheet") == 1
    assert "no spec with id 'no-such-sheet'" in capsys.readouterr().err
    assert summary(db, "--json") == 0
    assert json.loads(capsys.readouterr().out)["spec"]["pick"]["how"] == "none"
