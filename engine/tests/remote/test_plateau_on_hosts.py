"""Plateaus named on the real Ceph cluster: a client capped outside itself (tbf on the root-
namespace end of its veth, invisible from the client), and a sweep whose aggregate stops growing
at the storage namespace's shaped link."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from infra.netns_hosts import ssdprof_on_hosts

from ssdprof.analysis.observations import observe
from ssdprof.store.db import Store

SHAPED_MBIT = 200
STORAGE_LINK_MBIT = 1000


def _rbd(ceph_cluster: Any, ssh_hosts: Any, db: Path, *args: str) -> Any:
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (npm test installs it)")
    done = ssdprof_on_hosts(
        ssh_hosts,
        *args,
        "--host",
        "h1",
        "--host",
        "h2",
        "--rbd",
        f"{ceph_cluster.pool}/img-{{host}}",
        "--ceph-conf",
        str(ceph_cluster.conf_path),
        "--rw",
        "read",
        "--size",
        "48MiB",
        "--ramp",
        "1",
        "--json",
        db=db,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _seconds(db: Path) -> dict[str, object]:
    """Each host's MB/s and CPU % each second, for a failure's message."""
    store = Store(str(db))
    run = store.run(store.runs()[0].id)  # type: ignore[arg-type]
    assert run is not None
    return {
        h.host: (
            [round(p.read_bw_bytes_per_s / 1e6, 1) for p in run.progress if p.host == h.host],
            [round(m.cpu_busy_pct) for m in run.monitor if m.host == h.host],
        )
        for h in run.hosts
    }


def test_a_client_shaped_outside_itself_is_named_capped_there(
    ceph_cluster: Any, ssh_hosts: Any, tmp_path: Path
) -> None:
    """h1's reads reach it through a 200 Mb/s tbf on the bridge side of its veth, as through a slow
    switch port: h1's own tc and NIC show no limit, its line holds flat near 25 MB/s, and it is
    named capped outside the host. h2, unshaped, reads far more and wanders with the cluster's
    answers: not named."""
    ssh_hosts.shape_outside("h1", SHAPED_MBIT)
    run = _rbd(
        ceph_cluster,
        ssh_hosts,
        tmp_path / "r.db",
        "run",
        "--bs",
        "4M",
        "--qd",
        "4",
        "--runtime",
        "8",
    )
    h1 = next(h for h in run["hosts"] if h["host"] == "h1")
    assert h1["link_limit_bytes_per_s"] is None  # the shaping is outside h1: nothing h1 can see
    capped = [w for w in run["warnings"] if w["code"] == "capped_outside_host"]
    seconds = _seconds(tmp_path / "r.db")
    assert [w["concerns"] for w in capped] == [["hosts.h1"]], (seconds["h1"], seconds["h2"], run["warnings"])
    message = capped[0]["message"]
    assert message.startswith(
        "h1: capped by something outside this host (network path or QoS) at "
    ), message
    at_mb_s = float(re.search(r" at ([\d.]+) MB/s", message)[1])  # type: ignore[index]
    assert at_mb_s == pytest.approx(SHAPED_MBIT / 8, rel=0.15), message
    assert "every second for" in message and "with no limit ssdprof can see on this host" in message


def test_a_sweep_held_by_the_storage_link_is_a_shared_limit_beyond_the_clients(
    ceph_cluster: Any, ssh_hosts: Any, tmp_path: Path
) -> None:
    """The storage namespace's link shaped to 1 Gb/s both ways: two clients' aggregate stops growing
    from 1 to 4 jobs at about 118 MB/s with neither client's CPU or NIC the limit, named as one 1
    GbE link beyond the clients."""
    ssh_hosts.shape_outside("ceph", STORAGE_LINK_MBIT, both_ways=True)
    sweep = _rbd(
        ceph_cluster,
        ssh_hosts,
        tmp_path / "s.db",
        "sweep",
        "--bs",
        "4M",
        "--qd",
        "2",
        "--vary",
        "jobs=1,2,4",
        "--runtime",
        "6",
    )
    store = Store(str(tmp_path / "s.db"))
    runs = [store.run(r["id"]) for r in sweep["runs"]]
    aggregate = {r.workload.numjobs: r.read.bw_bytes_per_s for r in runs if r is not None}
    assert not [
        w
        for r in sweep["runs"]
        for w in r["warnings"]
        if w["code"] in ("cpu_bound", "network_bound")
    ], aggregate
    found = [o for o in observe([r for r in runs if r is not None]) if o.code == "shared_limit"]
    assert len(found) == 1, (
        aggregate,
        [o.message for o in observe([r for r in runs if r is not None])],
    )
    assert (
        "Shared limit beyond the clients: read 4MiB on h1, h2 stopped growing from"
        in found[0].message
    )
    assert " to 4 jobs at " in found[0].message and "one 1 GbE link" in found[0].message, found[
        0
    ].message
    assert found[0].data["bw_bytes_per_s"] == pytest.approx(
        STORAGE_LINK_MBIT * 1e6 / 8 * 0.95, rel=0.1
    ), aggregate
