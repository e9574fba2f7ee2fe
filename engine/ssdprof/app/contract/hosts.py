"""The RPC's params and results for remote hosts: the list, adding one (its host key shown first),
testing, a host's role (a client runs the I/O; a monitor-only host, a storage node, is watched
during runs), and a Ceph cluster's OSD hosts offered to watch."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ssdprof.app.contract.base import Params, Result

HostRole = Literal["client", "monitor"]
"""client: runs the I/O when named in a run; monitor: runs none, its CPU, network and disks are
watched during every run on SSH hosts (a Ceph OSD or MON node, a server behind the target)."""


class HostProbeInfo(Result):
    reachable: bool
    os: str
    cpu_count: int
    fio_version: str
    fio_engines: list[str]
    ceph_tools: list[str]
    nics: dict[str, int] = Field(description="interface -> link speed in Mb/s (-1 when the OS does not say, or for a virtual interface)")
    placeholder_speed_nics: dict[str, str] = Field(default_factory=dict, description=(
        "interface -> kind, for virtual interfaces (veth, tun, ...) whose reported speed is a placeholder and no limit"))
    shaped_mbps: dict[str, float] = Field(default_factory=dict,
                                          description="interface -> its egress qdisc's rate limit in Mb/s (tbf or htb), when shaped")
    error: str


class HostInfo(Result):
    name: str
    added_at: str
    fingerprint: str
    probe: HostProbeInfo
    link_gbps: float | None = Field(default=None, description="the link speed the user set for this host, Gb/s")
    role: HostRole = Field(default="client",
                           description="client (runs the I/O) or monitor (watched during runs)")


class HostsListResult(Result):
    hosts: list[HostInfo]


class HostParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")


class HostAddParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")
    accept_fingerprint: str | None = Field(default=None, max_length=200,
                                           description="accept the host key with this fingerprint (as offered by a first call)")
    link_gbps: float | None = Field(default=None, gt=0, le=10_000, description="the host's network link in Gb/s, when its NIC misreports")
    role: HostRole = Field(default="client",
                           description="monitor: only watched during runs (a storage node), no I/O")


class HostLinkParams(Params):
    host: str = Field(min_length=1, max_length=300, description="a host in the list")
    link_gbps: float | None = Field(gt=0, le=10_000, description="the host's network link in Gb/s; null clears it")


class HostKeyInfo(Result):
    key_type: str
    fingerprint: str


class HostAddResult(Result):
    added: bool
    host: str
    offered: list[HostKeyInfo] = Field(description="unknown host keys: show them; add again with accept_fingerprint")
    probe: HostProbeInfo | None
    message: str


class HostTestResult(Result):
    host: str
    probe: HostProbeInfo


class HostRoleParams(Params):
    host: str = Field(min_length=1, max_length=300, description="a host in the list")
    role: HostRole


class CephOsdHostsParams(Params):
    via: str = Field(min_length=1, max_length=300,
                     description="a host in the list that reaches the Ceph cluster (its ceph "
                                 "CLI and ceph.conf), e.g. an RBD client")
    ceph_conf: str = Field(default="", max_length=4096,
                           description="ceph.conf on that host; empty for ceph's default")
    ceph_user: str = Field(default="admin", pattern=r"^[A-Za-z0-9._-]{1,64}$",
                           description="the Ceph client name")
    watch: bool = Field(default=False,
                        description="also mark every OSD host found in the list as monitor-only")


class CephOsdHost(Result):
    name: str = Field(description="the host bucket's name in the CRUSH map")
    osds: list[str]
    osds_up: int
    known_host: str = Field(description="the host in ssdprof's list it is (by name, address or the "
                                        "name it gave itself); empty when none is: it is not "
                                        "reachable as an SSH host yet")
    role: HostRole | None = Field(description="that host's role now; null when not in the list")


class CephOsdHostsResult(Result):
    via: str
    osd_hosts: list[CephOsdHost]
    message: str = Field(description="what was found and marked, and which OSD hosts are not SSH "
                                     "hosts yet (with the command that adds one)")


WATCH_METHODS: dict[str, tuple[type[BaseModel], type[BaseModel], str]] = {
    "hosts.set_role": (HostRoleParams, HostInfo,
                       "mark a host client (runs the I/O) or monitor-only (watched)"),
    "hosts.ceph_osd_hosts": (CephOsdHostsParams, CephOsdHostsResult,
                             "a Ceph cluster's OSD hosts from its map, matched to known hosts; "
                             "optionally watched"),
}
