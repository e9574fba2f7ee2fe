"""The session's drive method: ``drive.show``, a drive's own word now, on this machine or on an
SSH host (the same rule as ``ssdprof drive show``: :func:`ssdprof.remote.drive_word.ask_drive`)."""

from __future__ import annotations

from dataclasses import dataclass

from ssdprof.app.contract.drive import DriveShowParams
from ssdprof.app.service.registry import RpcError, handles
from ssdprof.model.health import DriveHealth
from ssdprof.remote.addresses import HostError, parse_host
from ssdprof.remote.drive_word import ask_drive
from ssdprof.remote.ssh import Ssh, SshSettings

__all__ = ["Drives"]


@dataclass
class Drives:
    settings: SshSettings

    @handles("drive.show")
    def show(self, params: DriveShowParams) -> DriveHealth:
        """A device this machine lacks is not_found; a host that cannot be reached, its reason."""
        host = parse_host(params.host) if params.host else None
        try:
            return ask_drive(params.device, host=host, ssh=Ssh(self.settings) if host else None)
        except FileNotFoundError as exc:
            raise KeyError(str(exc)) from None
        except HostError as exc:
            raise RpcError("not_found", str(exc)) from None
