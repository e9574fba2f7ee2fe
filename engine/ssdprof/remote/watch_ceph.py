"""A Ceph cluster's storage nodes, from its own map (``ceph osd tree -f json`` run on a host that
reaches the cluster, as the RBD target is reached), offered as hosts to watch: each OSD host matched
to a known SSH host by name, by address or by the name the host gave itself (its probe's ``uname
-n``), and the rest named as not reachable as SSH hosts yet."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.ssh import Ssh

__all__ = ["OsdHost", "ask_osd_hosts", "match_known", "osd_hosts", "osd_tree_argv"]


@dataclass(frozen=True)
class OsdHost:
    """A host bucket of the CRUSH map and the OSDs under it."""

    name: str
    osds: tuple[str, ...]
    osds_up: int


def osd_hosts(tree_json: str) -> list[OsdHost]:
    """The host buckets of ``ceph osd tree -f json``, each with its OSDs, in the map's order. Raises
    ValueError when the text is not such a map (its first characters named)."""
    try:
        tree = json.loads(tree_json)
        nodes = tree["nodes"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise ValueError(f"not the JSON of ceph osd tree: {tree_json.strip()[:120]!r}") from None
    by_id = {node.get("id"): node for node in nodes if isinstance(node, dict)}
    found = []
    for node in by_id.values():
        if node.get("type") != "host" or not isinstance(node.get("name"), str):
            continue
        osds = [
            by_id[child]
            for child in node.get("children", [])
            if by_id.get(child, {}).get("type") == "osd"
        ]
        osds.sort(key=lambda osd: osd.get("id", 0))
        found.append(
            OsdHost(
                name=node["name"],
                osds=tuple(str(osd.get("name", "")) for osd in osds),
                osds_up=sum(1 for osd in osds if osd.get("status") == "up"),
            )
        )
    return found


def osd_tree_argv(ceph_conf: str = "", ceph_user: str = "admin") -> list[str]:
    """The command run on the host that reaches the cluster (its ceph.conf names the key, as for the
    RBD target)."""
    env = ["env", f"CEPH_CONF={ceph_conf}"] if ceph_conf else []
    return [
        *env,
        "ceph",
        "osd",
        "tree",
        "-f",
        "json",
        "--name",
        f"client.{ceph_user}",
        "--connect-timeout",
        "20",
    ]


def ask_osd_hosts(
    ssh: Ssh, via: HostAddress, ceph_conf: str = "", ceph_user: str = "admin"
) -> list[OsdHost]:
    """The cluster's OSD hosts, asked on ``via``; raises HostError with ceph's or ssh's own words.
    """
    done = ssh.run(via, osd_tree_argv(ceph_conf, ceph_user), timeout_s=60)
    if done.returncode != 0:
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1][:300]
        raise HostError(
            f"{via.name}: ceph osd tree failed ({said}); is the ceph CLI there, with "
            "--ceph-conf naming a ceph.conf whose keyring the user can read?"
        )
    try:
        return osd_hosts(done.stdout)
    except ValueError as exc:
        raise HostError(f"{via.name}: {exc}") from None


def match_known(found: Sequence[OsdHost], known: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """OSD host name -> the known host (by its name in ssdprof's list) it is, or '' when none is.
    ``known``: each known host's names: its name in the list, its address, the name it gave itself.
    Names match whole, without case, or by their first label (``osd1`` is ``osd1.lab.example``)."""

    def short(name: str) -> str:
        return (
            name.lower() if name.replace(".", "").isdigit() else name.lower().split(".", 1)[0]
        )  # an IPv4 address whole

    matched = {}
    for osd_host in found:
        target = osd_host.name.lower()
        exact = [name for name, names in known.items() if target in {n.lower() for n in names if n}]
        loose = [
            name for name, names in known.items() if short(target) in {short(n) for n in names if n}
        ]
        matched[osd_host.name] = (exact or loose or [""])[0]
    return matched
