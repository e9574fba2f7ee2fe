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
    nics: dict[str, int] = Field(description="interface -> link speed in Mb/s (-1 when the OS does not say)")
    error: str


class HostInfo(Result):
    name: str
    added_at: str
    fingerprint: str
    probe: HostProbeInfo


class HostsListResult(Result):
    hosts: list[HostInfo]


class HostParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")


class HostAddParams(Params):
    host: str = Field(min_length=1, max_length=300, description="an ssh alias or user@host:port")
    accept_fingerprint: str | None = Field(default=None, max_length=200,
                                           description="accept the host key with this fingerprint (as offered by a first call)")


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
