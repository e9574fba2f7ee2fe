"""Ceph targets and cluster facts: RBD images through fio's rbd engine, and what `ceph -s` and
`ceph osd tree` say about the cluster a run measured."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ssdprof.model.results import ClusterFacts
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.ssh import Ssh

__all__ = ["CEPH_STATUS_COMMANDS", "RbdTarget", "ask_cluster_facts", "cluster_facts", "parse_rbd"]

_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"
_RBD_RE = re.compile(rf"^(?P<pool>{_NAME})/(?P<image>[A-Za-z0-9._{{}}-]{{1,128}})$")

CEPH_STATUS_COMMANDS = (["ceph", "status", "--format", "json"], ["ceph", "osd", "tree", "--format", "json"],
                        ["ceph", "version", "--format", "json"])


@dataclass(frozen=True)
class RbdTarget:
    """``POOL/IMAGE``; ``{host}`` in the image name gives every host its own image."""

    pool: str
    image_pattern: str
    client_name: str = "admin"
    conf_path: str = ""
    """ceph.conf on the hosts (its keyring setting names the key); empty for the default search path."""

    def image_for(self, host: str) -> str:
        return self.image_pattern.replace("{host}", host)

    def fio_options(self, host: str) -> list[str]:
        return [f"clientname={self.client_name}", f"pool={self.pool}", f"rbdname={self.image_for(host)}"]

    def env(self) -> list[str]:
        return [f"CEPH_CONF={self.conf_path}"] if self.conf_path else []


def parse_rbd(text: str, client_name: str = "admin", conf_path: str = "") -> RbdTarget:
    from ssdprof.model.workload import WorkloadError

    match = _RBD_RE.fullmatch(text)
    if not match:
        raise WorkloadError.single("rbd", "--rbd", f"{text!r} is not POOL/IMAGE (letters, digits, '.', '-', '_'; "
                                   "{host} in the image name for one image per host)")
    if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", client_name):
        raise WorkloadError.single("rbd", "--ceph-user", f"{client_name!r} is not a Ceph client name")
    if conf_path and (conf_path.startswith("-") or "\n" in conf_path):
        raise WorkloadError.single("rbd", "--ceph-conf", f"{conf_path!r} is not a path")
    return RbdTarget(pool=match.group("pool"), image_pattern=match.group("image"), client_name=client_name, conf_path=conf_path)


def cluster_facts(status_json: str, tree_json: str, version_json: str = "") -> ClusterFacts:
    status = _load(status_json)
    tree = _load(tree_json)
    health = status.get("health", {})
    checks = sorted(health.get("checks", {}))
    nodes = [n for n in tree.get("nodes", []) if n.get("type") == "host"]
    osds = [n for n in tree.get("nodes", []) if n.get("type") == "osd"]
    pgs = {s["state_name"]: int(s["count"]) for s in status.get("pgmap", {}).get("pgs_by_state", []) if "state_name" in s}
    busy = any(word in state for state in pgs for word in ("recover", "backfill", "scrub", "peering", "degraded"))
    version = _load(version_json).get("version", "") if version_json else ""
    return ClusterFacts(
        fsid=str(status.get("fsid", "")), health=str(health.get("status", "")), health_checks=checks,
        ceph_version=str(version), storage_nodes=len(nodes), osd_count=len(osds),
        osds_up=sum(1 for n in osds if n.get("status") == "up"),
        device_classes=sorted({str(n["device_class"]) for n in osds if n.get("device_class")}),
        recovering_or_scrubbing=busy, pg_states=pgs,
    )


def _load(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def ask_cluster_facts(ssh: Ssh, admin: HostAddress, rbd: RbdTarget | None) -> ClusterFacts | None:
    """The cluster as its status, OSD tree and versions describe it, asked on ``admin`` (a host
    with the ceph CLI) as the run's RBD client; None without RBD or an answer."""
    if rbd is None:
        return None
    outputs = []
    for command in CEPH_STATUS_COMMANDS:
        try:
            done = ssh.run(admin, ["env", *rbd.env(), *command, "--name", f"client.{rbd.client_name}"], timeout_s=30)
        except HostError:
            return None
        outputs.append(done.stdout if done.returncode == 0 else "")
    return cluster_facts(*outputs) if outputs[0] else None
