"""What a run on SSH hosts was asked for: the hosts, how to reach them, and where on each its I/O goes."""

from __future__ import annotations

from dataclasses import dataclass, field

from ssdprof.remote import DEFAULT_REMOTE_DIR
from ssdprof.remote.addresses import HostAddress
from ssdprof.remote.ceph import RbdTarget
from ssdprof.remote.ssh import SshSettings

__all__ = ["RemoteOptions"]


@dataclass(frozen=True)
class RemoteOptions:
    hosts: list[HostAddress]
    ssh: SshSettings = field(default_factory=SshSettings)
    target_dir: str = DEFAULT_REMOTE_DIR
    """Directory on every host for the test file (ignored with ``rbd``)."""
    target_dirs: dict[str, str] = field(default_factory=dict)
    """Per-host directories, by host name, overriding ``target_dir``."""
    devices: dict[str, str] = field(default_factory=dict)
    """Per-host block devices, by host name: measured in place of a test file (no layout, nothing removed)."""
    rbd: RbdTarget | None = None
    link_gbps: dict[str, float] = field(default_factory=dict)
    """Per-host link speeds the user set, by host name (hosts add --link-gbps): one of the link limits."""
    watch: list[HostAddress] = field(default_factory=list)
    """Monitor-only hosts (storage nodes) watched during every point: they run no I/O
    (remote/watch.py)."""
