"""The RPC's params and result for a drive's own word now (``drive.show``): the drive on this
machine or on an SSH host, answered by one snapshot (DriveHealth: identity, temperature and its
thresholds, wear, bytes, flash writes, errors, thermal management, what is missing and why)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ssdprof.app.contract.base import Params
from ssdprof.model.health import DriveHealth

__all__ = ["DRIVE_METHODS", "DriveShowParams"]


class DriveShowParams(Params):
    device: str = Field(min_length=1, max_length=80,
                        description="the disk, e.g. /dev/nvme0n1 or sda (a partition: its disk)")
    host: str | None = Field(default=None, min_length=1, max_length=300,
                             description="an SSH host (ssh alias or user@host:port); null: here")


DRIVE_METHODS: dict[str, tuple[type[BaseModel], type[BaseModel], str]] = {
    "drive.show": (DriveShowParams, DriveHealth,
                   "a drive's own word now: identity, temperature, wear, errors, throttling"),
}
"""name -> (params, result, summary); ``methods.py`` adds them to the contract's table."""
