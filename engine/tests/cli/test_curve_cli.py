"""``ssdprof curve``'s table as printed: each point's offered and achieved rate and its latency."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import requires_fio

from ssdprof.cli.main import main


@requires_fio
def test_the_full_speed_point_offers_no_rate_and_its_row_says_none_rather_than_zero(
        disk_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["curve", "--target", str(disk_dir), "--qd", "4", "--runtime", "0.5", "--ramp", "0", "--size", "32MiB",
            "--points", "50", "--db", str(disk_dir.parent / f"{disk_dir.name}.db")]
    assert main(argv) == 0, capsys.readouterr().err
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert rows["max"][1] == "-"  # fio ran it as fast as the queue allowed: no offered rate to print
    assert rows["50"][2] != "0" and rows["50"][2].replace(",", "").isdigit()  # '50 %': the paced point offers one
