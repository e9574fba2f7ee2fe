"""``ssdprof runs``: a stored run's tags as the terminal says them."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIO_DATA

from ssdprof.cli.main import main


def test_runs_tag_says_the_runs_tags_as_they_are_typed_and_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(tmp_path / "r.db")]
    assert main(["import", str(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json"), *db]) == 0
    capsys.readouterr()
    assert main(["runs", "tag", "1", "interface=SATA", "nodes=3", *db]) == 0
    assert capsys.readouterr().out.strip() == "run 1: interface=SATA, nodes=3"  # as runs show lists them
    assert main(["runs", "show", "1", *db]) == 0
    assert "tags:     interface=SATA, nodes=3" in capsys.readouterr().out
