"""The session's host methods: list, add (a host key is only ever accepted by fingerprint), test,
remove, a host's role (client or monitor-only), and a Ceph cluster's OSD hosts found from its map
and offered to watch.

``hosts.add`` never accepts a key on its own: for an unknown host the first call returns the
offered fingerprints and adds nothing; a second call naming one of them in
``accept_fingerprint`` stores that key (ssdprof's own known_hosts) and probes the host. A changed
key is refused with ssh's own explanation.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.hosts import (
    CephOsdHost,
    CephOsdHostsParams,
    CephOsdHostsResult,
    HostAddParams,
    HostAddResult,
    HostInfo,
    HostKeyInfo,
    HostLinkParams,
    HostParams,
    HostProbeInfo,
    HostRoleParams,
    HostsListResult,
    HostTestResult,
)
from ssdprof.app.contract.runs import DeleteResult
from ssdprof.app.service.registry import handles
from ssdprof.remote.addresses import HostError, parse_host
from ssdprof.remote.links import NOMINAL_SPEED_KINDS
from ssdprof.remote.probe import HostProbe
from ssdprof.remote.ssh import Ssh, SshSettings
from ssdprof.remote.watch_ceph import OsdHost, ask_osd_hosts, match_known
from ssdprof.store.db import Store

__all__ = ["Hosts"]


@dataclasses.dataclass
class Hosts:
    store: Store
    settings: SshSettings

    @handles("hosts.list")
    def list(self, _: Params) -> HostsListResult:
        return HostsListResult(hosts=[_host_info(row) for row in self.store.hosts()])

    @handles("hosts.set_link")
    def set_link(self, params: HostLinkParams) -> HostInfo:
        return self._changed(params.host, self.store.set_host_link(params.host, params.link_gbps))

    @handles("hosts.add")
    def add(self, params: HostAddParams) -> HostAddResult:
        host = parse_host(params.host)
        ssh = Ssh(self.settings)
        fingerprint = ""
        try:
            if not ssh.is_known(host):
                keys = ssh.scan_keys(host)
                offered = [HostKeyInfo(key_type=k.key_type, fingerprint=k.fingerprint) for k in keys]
                if not params.accept_fingerprint:
                    return HostAddResult(added=False, host=host.name, offered=offered, probe=None,
                                         message=f"{host.name} is not known yet: check its key fingerprint with the host's "
                                                 "administrator, then accept it")
                fingerprint = ssh.accept_key(host, params.accept_fingerprint).fingerprint
        except HostError as exc:
            return HostAddResult(added=False, host=host.name, offered=[], probe=None, message=str(exc))
        probe = ssh.probe(host)
        if not probe.reachable:
            return HostAddResult(added=False, host=host.name, offered=[], probe=_probe_info(dataclasses.asdict(probe)),
                                 message=probe.error or f"{host.name} cannot be reached")
        self.store.save_host(host.name, fingerprint or "known to ssh", dataclasses.asdict(probe),
                             link_gbps=params.link_gbps, role=params.role)
        watched = (" as monitor-only: watched during runs, it runs no I/O"
                   if params.role == "monitor" else "")
        return HostAddResult(added=True, host=host.name, offered=[], probe=_probe_info(dataclasses.asdict(probe)),
                             message=f"added {host.name}{watched}")

    @handles("hosts.test")
    def test(self, params: HostParams) -> HostTestResult:
        host = parse_host(params.host)
        try:
            probe = Ssh(self.settings).probe(host)
        except HostError as exc:
            probe = HostProbe(reachable=False, error=str(exc))
        return HostTestResult(host=host.name, probe=_probe_info(dataclasses.asdict(probe)))

    @handles("hosts.set_role")
    def set_role(self, params: HostRoleParams) -> HostInfo:
        return self._changed(params.host, self.store.set_host_role(params.host, params.role))

    def _changed(self, name: str, found: bool) -> HostInfo:
        """The host as it now stands, once the store has changed it (``found``: it is in the list)."""
        if not found:
            raise KeyError(f"host {name} is not in the list")
        return next(_host_info(row) for row in self.store.hosts() if row["name"] == name)

    @handles("hosts.ceph_osd_hosts")
    def ceph_osd_hosts(self, params: CephOsdHostsParams) -> CephOsdHostsResult:
        """The cluster's OSD hosts asked on ``via``; with ``watch``, those in the list marked
        monitor-only."""
        found = ask_osd_hosts(Ssh(self.settings), parse_host(params.via), params.ceph_conf,
                              params.ceph_user)
        rows = {row["name"]: row for row in self.store.hosts()}
        matched = match_known(found, {name: _names(row) for name, row in rows.items()})
        if params.watch:
            for name in {known for known in matched.values() if known}:
                self.store.set_host_role(name, "monitor")
                rows[name] = {**rows[name], "role": "monitor"}
        hosts = [CephOsdHost(name=h.name, osds=list(h.osds), osds_up=h.osds_up,
                             known_host=(known := matched[h.name]),
                             role=rows[known].get("role", "client") if known else None)
                 for h in found]
        return CephOsdHostsResult(via=params.via, osd_hosts=hosts,
                                  message=osd_hosts_message(found, matched, params.watch))

    @handles("hosts.remove")
    def remove(self, params: HostParams) -> DeleteResult:
        if not self.store.remove_host(params.host):
            raise KeyError(f"host {params.host} is not in the list")
        return DeleteResult(deleted=True)


def _host_info(row: dict[str, Any]) -> HostInfo:
    return HostInfo(name=row["name"], added_at=row["added_at"], fingerprint=row["fingerprint"], probe=_probe_info(row["probe"]),
                    link_gbps=row.get("link_gbps"), role=row.get("role") or "client")


def _names(row: dict[str, Any]) -> list[str]:
    """What a known host may be called in a Ceph map: its name in the list, its address, the name
    it gave itself."""
    return [row["name"], parse_host(row["name"]).host, str(row["probe"].get("hostname", ""))]


def osd_hosts_message(found: list[OsdHost], matched: dict[str, str], watched: bool) -> str:
    """What was found, what is (now) watched, and which OSD hosts are no SSH host yet, with the
    command that adds one."""
    if not found:
        return "the cluster's map names no OSD host"
    known = [f"{name} is {host}" if host != name else name
             for name, host in matched.items() if host]
    unknown = [name for name, host in matched.items() if not host]
    parts = [f"{len(found)} OSD host(s) in the cluster's map"]
    if known:
        parts.append(f"{'watched now' if watched else 'in the host list'}: {', '.join(known)}")
    if unknown:
        parts.append(f"not reachable as SSH hosts: {', '.join(unknown)} (add one with: ssdprof "
                     f"hosts add USER@{unknown[0]} --monitor-only, or in the Hosts view as "
                     "monitor-only)")
    return "; ".join(parts)


def _probe_info(raw: dict[str, Any]) -> HostProbeInfo:
    return HostProbeInfo(reachable=bool(raw.get("reachable")), os=str(raw.get("os", "")), cpu_count=int(raw.get("cpu_count", 0)),
                         fio_version=str(raw.get("fio_version", "")), fio_engines=list(raw.get("fio_engines", [])),
                         ceph_tools=list(raw.get("ceph_tools", [])), nics=dict(raw.get("nics", {})), error=str(raw.get("error", "")),
                         shaped_mbps={nic: float(rate) * 8 / 1e6 for nic, (_, rate) in dict(raw.get("shaping", {})).items()},
                         placeholder_speed_nics={nic: kind for nic, kind in dict(raw.get("nic_kinds", {})).items()
                                                 if kind in NOMINAL_SPEED_KINDS})
