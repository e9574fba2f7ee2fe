"""The RPC's params and results for remote hosts: the list, adding one (its host key shown first), testing."""

from __future__ import annotations

from pydantic import Field

from ssdprof.app.contract.base import Params, Result


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


class HostsListResult(Result):
    hosts: list[HostInfo]


class HostParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")


class HostAddParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")
    accept_fingerprint: str | None = Field(default=None, max_length=200,
                                           description="accept the host key with this fingerprint (as offered by a first call)")
    link_gbps: float | None = Field(default=None, gt=0, le=10_000, description="the host's network link in Gb/s, when its NIC misreports")


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
