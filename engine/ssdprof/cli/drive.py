"""``ssdprof drive show [--host H] DEVICE [--json]``: what a drive says of itself now (identity,
temperature and its thresholds, wear, spare, bytes read and written, flash writes, errors, critical
warnings, thermal management, power-on hours), and what could not be read with how to get it.

On an SSH host the same tools run in one SSH command (``remote/drive_show.sh``); their answers are
read by the parsers a local run uses."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.cli.flags import command, command_actions

if TYPE_CHECKING:
    from ssdprof.model.health import DriveHealth

__all__ = ["format_drive", "handle", "register"]


def register(sub: Any) -> None:
    actions = command_actions(sub, "drive", "what a drive says of itself: health, temperature, wear, errors",
                              "ssdprof drive show /dev/nvme0n1\n"
                              "  ssdprof drive show --host lab-node-3 sda --json")
    show = command(actions, "show", "one reading of a drive's own word (nvme-cli, smartctl, hwmon)",
                   "ssdprof drive show nvme0n1")
    show.add_argument("device", metavar="DEVICE", help="the disk, e.g. /dev/nvme0n1 or sda (a "
                      "partition: its disk)")
    show.add_argument("--host", help="ask the drive on this SSH host (ssh alias or user@host:port)")
    show.add_argument("--ssh-config", type=Path, help="an ssh_config instead of ~/.ssh/config")
    show.add_argument("--json", action="store_true", help="the reading as drive.show answers it")


def handle(args: argparse.Namespace) -> int:
    """Exit 0 with the reading, also when no tool answered (what is missing says why)."""
    from ssdprof.remote.addresses import parse_host
    from ssdprof.remote.drive_word import ask_drive
    from ssdprof.remote.ssh import Ssh, SshSettings

    settings = SshSettings(config=args.ssh_config) if args.ssh_config else SshSettings()
    host = parse_host(args.host) if args.host else None
    health = ask_drive(args.device, host=host, ssh=Ssh(settings) if host else None)
    print(health.model_dump_json(indent=2) if args.json else format_drive(health, args.host))
    return 0


def format_drive(health: DriveHealth, host: str | None = None) -> str:
    """The reading as text: the drive's identity, then one line per field."""
    from ssdprof.model.health import HealthRecord
    from ssdprof.model.health_words import drive_rows, health_title

    title = health_title(HealthRecord(before=health))
    rows = drive_rows(health)
    width = max(len(label) for label, _ in rows)
    lines = [f"{host}: {title}" if host else title]
    lines += [f"  {label:<{width}}  {value}" for label, value in rows]
    return "\n".join(lines)
