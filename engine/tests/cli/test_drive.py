"""``ssdprof drive show``: one reading of a drive in words or as JSON (the RPC's DriveHealth)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ssdprof.cli import drive as cli_drive
from ssdprof.model.health import DriveHealth
from ssdprof.model.problems import WorkloadError
from ssdprof.target.health import snapshot

DATA = Path(__file__).parent.parent / "data" / "health"
HERE_DISK = next((p.name for p in sorted(Path("/sys/block").iterdir())
                  if not p.name.startswith(("loop", "ram", "zram", "dm-", "md"))), None)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ssdprof")
    cli_drive.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def firecuda() -> DriveHealth:
    answer = (0, (DATA / "netdata_nvmecli211_firecuda530_smart_log.json").read_text(), "")
    return snapshot("/dev/nvme0n1", run=lambda argv: answer if argv[1] == "smart-log" else None,
                    sys_root=None)


def test_the_text_names_every_field_in_ssdprofs_units_and_the_throttling() -> None:
    text = cli_drive.format_drive(firecuda())
    assert text.startswith("/dev/nvme0n1")
    assert "50.9 °C (nvme-cli)" in text
    assert "987,485,941,760,000 B (987.49 TB)" in text  # 1,928,683,480 data units
    assert "level 1: 3 transition(s), 1,474 s throttled" in text
    assert "percentage used" in text and "30 %" in text and "power-on hours" in text
    assert "not exposed by the drive" in text  # no flash counter: no write amplification


def test_a_missing_tool_is_named_with_how_to_get_it() -> None:
    health = snapshot("/dev/sda", run=lambda argv: None, sys_root=None)
    assert "install smartmontools" in cli_drive.format_drive(health, "lab-node-3")


@pytest.mark.skipif(HERE_DISK is None, reason="this machine shows no disk in /sys/block")
def test_show_json_is_the_rpcs_drive_health(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_drive.handle(parse(["drive", "show", HERE_DISK, "--json"])) == 0
    shown = DriveHealth.model_validate(json.loads(capsys.readouterr().out))
    assert shown.device == f"/dev/{HERE_DISK}" and (shown.sources or shown.missing)


def test_a_disk_this_machine_lacks_is_named() -> None:
    with pytest.raises(FileNotFoundError, match="no block device /dev/nosuchdisk on this machine"):
        cli_drive.handle(parse(["drive", "show", "nosuchdisk"]))


def test_a_name_that_is_no_disk_name_is_refused_with_an_example() -> None:
    with pytest.raises(WorkloadError, match=r"e\.g\. /dev/nvme0n1"):
        cli_drive.handle(parse(["drive", "show", "../etc/passwd"]))
