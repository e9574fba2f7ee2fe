"""The drive's own word on an SSH host: what its session's wrapper asked the disk beneath the target
before and after each point (``drive_word`` in ``drive_word.sh``, called by ``fio_wrapper.sh``), or
what ``ssdprof drive show --host`` asks now (``drive_show.sh``, one SSH command), read by the same
parsers as a local run's (:mod:`ssdprof.target.health`).

The wrapper asks the tools in the order :func:`ssdprof.target.health.snapshot` would (nvme-cli's
smart-log, id-ctrl and id-ns on an NVMe disk; smartctl where nvme-cli told nothing or the disk is not
NVMe) over the point's own session: no extra SSH connection, no extra round trip. Its lines::

    ssdprof-health WHEN device /dev/NAME
    ssdprof-health WHEN KEY STATUS ONE-LINE-STDOUT     (KEY: smart-log, id-ctrl, id-ns, smartctl)
    ssdprof-health WHEN KEY missing                    (the program is not installed on the host)
    ssdprof-health-err WHEN KEY FIRST-300-BYTES-OF-STDERR
    ssdprof-health WHEN hwmon MILLIDEGREES

are replayed here as the answers of a :data:`~ssdprof.target.health.Command`.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ssdprof.model.health import DriveHealth, HealthRecord
from ssdprof.model.problems import WorkloadError
from ssdprof.model.results import DirectionStats, ValidityWarning
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.heartbeat import host_program
from ssdprof.remote.ssh import Ssh
from ssdprof.target.health import snapshot
from ssdprof.target.health_run import health_delta, health_warnings

__all__ = ["DriveWord", "ask_drive", "ask_host_drive", "host_health_warnings"]

_MISSING = "missing"


@dataclass
class _Reading:
    device: str = ""
    answers: dict[str, tuple[int, str, str] | None] = field(default_factory=dict)
    hwmon_c: float | None = None


@dataclass
class DriveWord:
    """One point's lines from one host, and the record they make."""

    readings: dict[str, _Reading] = field(default_factory=dict)

    def feed(self, line: str) -> None:
        """One "ssdprof-health..." line (anything else is ignored)."""
        err = line.startswith("ssdprof-health-err ")
        words = line.removeprefix("ssdprof-health-err " if err else "ssdprof-health ").split(" ", 3)
        if len(words) < 3:
            return
        when, key = words[0], words[1]
        reading = self.readings.setdefault(when, _Reading())
        if err:
            answer = reading.answers.get(key)
            if answer is not None:
                reading.answers[key] = (answer[0], answer[1], " ".join(words[2:]))
        elif key == "device":
            reading.device = words[2]
        elif key == "hwmon":
            reading.hwmon_c = int(words[2]) / 1000.0 if words[2].lstrip("-").isdigit() else None
        elif words[2] == _MISSING:
            reading.answers[key] = None
        elif words[2].isdigit():
            reading.answers[key] = (int(words[2]), words[3] if len(words) > 3 else "", "")

    def snapshot(self, when: str, *, identity: bool) -> DriveHealth | None:
        """The reading taken ``when`` ("before", "after" or "now"), as a local snapshot would be."""
        reading = self.readings.get(when)
        if reading is None or not reading.device:
            return None

        def replay(argv: list[str]) -> tuple[int, str, str] | None:
            key = argv[0] if argv[0] == "smartctl" else argv[1]
            return reading.answers.get(key)

        try:
            return snapshot(reading.device, run=replay, identity=identity, sys_root=None,
                            hwmon=lambda: reading.hwmon_c)
        except (ValueError, OSError) as exc:  # a tool's odd answer must not cost the point
            return DriveHealth(device=reading.device, missing=[f"the drive's answer could not be read: {exc}"])

    def record(self, read: DirectionStats, write: DirectionStats) -> HealthRecord | None:
        """Before, after and the difference; None when the host was not asked (an RBD image)."""
        before = self.snapshot("before", identity=True)
        if before is None:
            return None
        after = self.snapshot("after", identity=False)
        if after is None or not before.sources:
            return HealthRecord(before=before)
        return HealthRecord(before=before, after=after, delta=health_delta(before, after, read, write, []))


def host_health_warnings(host: str, record: HealthRecord | None, duration_s: float) -> list[ValidityWarning]:
    """The local rule's warnings, named for the host whose drive spoke."""
    return [w.model_copy(update={"message": f"{host}: {w.message}", "concerns": [*w.concerns, f"hosts.{host}"]})
            for w in health_warnings(record, duration_s)]


def ask_host_drive(ssh: Ssh, host: HostAddress, device: str) -> DriveHealth:
    """The drive ``device`` (/dev/NAME or NAME; a partition: its disk) on ``host`` now, asked by one
    SSH command running ``drive_show.sh``; HostError when the host has no such block device."""
    done = ssh.run(host, ["sh", "-c", host_program("drive_show.sh"), "ssdprof-drive", device],
                   timeout_s=90)
    word = DriveWord()
    for line in done.stdout.splitlines():
        word.feed(line)
    health = word.snapshot("now", identity=True)
    if health is None:
        raise HostError(f"{host.name}: no block device {device} there (see lsblk on {host.name}); "
                        "name a disk, e.g. /dev/nvme0n1 or sda")
    return health


DEVICE_NAME = re.compile(r"(/dev/)?[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
"""A disk as people name it: /dev/nvme0n1, nvme0n1, sda, /dev/sdb1."""


def ask_drive(device: str, *, host: HostAddress | None = None,
              ssh: Ssh | None = None) -> DriveHealth:
    """The drive ``device`` now, on this machine or on ``host``: one snapshot, identity included.
    A partition is answered for by its disk. WorkloadError for a name that is no disk name,
    FileNotFoundError for a disk this machine does not have; HostError for the host's."""
    if DEVICE_NAME.fullmatch(device) is None:
        raise WorkloadError.single("device", "DEVICE", f"{device!r} is not a disk name: give the "
                                   "block device, e.g. /dev/nvme0n1 or sda")
    if host is not None:
        return ask_host_drive(ssh or Ssh(), host, device)
    return snapshot(_local_disk(device))


def _local_disk(device: str, sys_root: Path = Path("/sys")) -> str:
    """/dev/NAME of the disk holding ``device`` on this machine (a partition's parent)."""
    path = Path(device if device.startswith("/") else f"/dev/{device}")
    try:
        is_block = stat.S_ISBLK(path.stat().st_mode)
    except OSError:
        is_block = False
    if not is_block:
        raise FileNotFoundError(f"no block device {path} on this machine (see lsblk); name a disk, "
                                "e.g. /dev/nvme0n1 or sda")
    node = (sys_root / "class" / "block" / path.name).resolve()
    return f"/dev/{node.parent.name}" if (node / "partition").exists() else str(path)
