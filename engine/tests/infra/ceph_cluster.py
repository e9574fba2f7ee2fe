"""A real Ceph cluster in its own network namespace on the SSH hosts' bridge: one mon, one mgr and three bluestore
OSDs on sparse files, a pool `rbd` and one 256 MiB RBD image per host (`img-h1`, `img-h2`, …).

The daemons run in the foreground as our children and are stopped by PID. All data lives in one folder under
/var/tmp; the admin keyring is named in ceph.conf rather than exported (CEPH_KEYRING would break daemon auth).

PYTEST_DONT_REWRITE: loaded as a pytest plugin, often after a test module imported it; it has no asserts to rewrite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from . import (
    DISK_DIR,
    InfraError,
    InfraUnavailable,
    Namespace,
    make_base_dir,
    register_teardown,
    run,
    spawn,
    stop_process,
    which,
)
from .netns_hosts import TestHosts, close_after_last_user, hosts_unavailable_reason

PACKAGES = {"ceph-mon": "ceph-mon", "ceph-mgr": "ceph-mgr", "ceph-osd": "ceph-osd", "ceph": "ceph-common",
            "rbd": "ceph-common", "ceph-authtool": "ceph-common", "monmaptool": "ceph-common"}
OSD_COUNT = 3
OSD_BLOCK_BYTES = 3 << 30  # sparse: only what is written takes disk space
IMAGE_SIZE_MIB = 256
CEPH_OCTET = 200
HEALTH_TIMEOUT_S = 120.0
CLEAN_ENV = {key: value for key, value in os.environ.items() if not key.startswith("CEPH_")}
pytest_plugins = ["infra.netns_hosts"]  # its fixtures and hooks, when only this plugin is named


def ceph_unavailable_reason() -> str | None:
    reason = hosts_unavailable_reason()
    if reason:
        return reason
    missing = sorted({package for command, package in PACKAGES.items() if which(command) is None})
    if missing:
        return f"the Ceph test cluster needs {', '.join(missing)} (scripts/setup.sh installs them)"
    free = shutil.disk_usage(DISK_DIR).free
    if free < 4 << 30:
        return f"the Ceph test cluster needs 4 GiB free in {DISK_DIR} ({free >> 20} MiB free)"
    return None


@dataclass(frozen=True)
class _Osd:
    id: int
    uuid: str
    secret: str


class TestCeph:
    """A running cluster; reach it as admin with `admin_argv()`, or from a host with `client_env()` and fio's rbd engine."""

    __test__ = False  # not a test class, despite the name

    def __init__(self, hosts: TestHosts) -> None:
        self.hosts = hosts
        self.base_dir = make_base_dir("ceph")
        self.conf_path = self.base_dir / "ceph.conf"
        self.keyring_path = self.base_dir / "keys" / "admin.keyring"
        self.client_name = "admin"
        self.pool = "rbd"
        self.images = {alias: f"img-{alias}" for alias in hosts.aliases}
        self.netns_name = ""
        self.mon_address = ""
        self.startup_seconds = 0.0
        self._netns: Namespace | None = None
        self._daemons: dict[str, subprocess.Popen[bytes]] = {}
        self._closed = False

    def admin_argv(self, tool: str = "ceph") -> list[str]:
        """argv prefix to run `ceph` or `rbd` as client.admin from the root namespace."""
        return [tool, "--conf", str(self.conf_path), "--name", f"client.{self.client_name}", "--keyring", str(self.keyring_path)]

    def client_env(self) -> dict[str, str]:
        """Environment for a librados client on a host (fio's rbd engine has no conf option; the conf names the keyring)."""
        return {"CEPH_CONF": str(self.conf_path)}

    def admin(self, tool: str, *args: str, timeout: float = 60.0) -> str:
        """Runs `ceph`/`rbd` as admin and returns its output; raises InfraError on failure."""
        wait = ["--connect-timeout", "30"] if tool == "ceph" else []
        return run([*self.admin_argv(tool), *wait, *args], timeout=timeout, env=CLEAN_ENV).stdout

    def status(self) -> dict[str, Any]:
        """`ceph status` as JSON."""
        result: dict[str, Any] = json.loads(self.admin("ceph", "status", "--format", "json"))
        return result

    def start(self) -> None:
        began = time.monotonic()
        register_teardown(self.close)
        self._netns = self.hosts.network.add_namespace("ceph", CEPH_OCTET)
        self.netns_name, self.mon_address = self._netns.name, self._netns.address
        for sub in ("keys", "run", "log", "crash", "mon", "mgr/ceph-x", "osd"):
            (self.base_dir / sub).mkdir(parents=True)
        self.conf_path.write_text(_ceph_conf(self.base_dir, self.mon_address, str(self.hosts.network.subnet), self.keyring_path))
        osds = [_Osd(i, str(uuid.uuid4()), _authtool("--gen-print-key").strip()) for i in range(OSD_COUNT)]
        self._make_keys_and_mon()
        self._start("mon.a", ["ceph-mon", "-f", "-i", "a"])
        self._start("mgr.x", ["ceph-mgr", "-f", "-i", "x"])
        # mkfs is local (--no-mon-config), so it runs alongside the registration of the same OSDs with the mon.
        _parallel([self._osd_mkfs_argv(osd) for osd in osds]
                  + [[*self.admin_argv(), "--connect-timeout", "30", "osd", "new", osd.uuid, str(osd.id), "-i",
                      str(self.base_dir / f"osd/secret-{osd.id}.json")] for osd in osds], "ceph-osd --mkfs, ceph osd new")
        for osd in osds:
            self._start(f"osd.{osd.id}", ["ceph-osd", "-f", "-i", str(osd.id)])
        self.admin("ceph", "osd", "pool", "create", self.pool, "8", "8", "replicated")
        self.admin("rbd", "pool", "init", self.pool, timeout=HEALTH_TIMEOUT_S)
        _parallel([[*self.admin_argv("rbd"), "create", "--size", f"{IMAGE_SIZE_MIB}M", f"{self.pool}/{image}"]
                   for image in self.images.values()], "rbd create")
        self._wait_healthy(began + HEALTH_TIMEOUT_S)
        self.startup_seconds = time.monotonic() - began

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            for process in self._daemons.values():
                if process.poll() is None:
                    process.terminate()
            for process in self._daemons.values():
                stop_process(process, grace_s=5.0)
            if self._netns is not None:
                self.hosts.network.remove_namespace("ceph")
        finally:
            shutil.rmtree(self.base_dir, ignore_errors=True)

    def _make_keys_and_mon(self) -> None:
        keys = self.base_dir / "keys"
        mon_keyring = str(keys / "mon.keyring")
        _authtool("--create-keyring", mon_keyring, "--gen-key", "-n", "mon.", "--cap", "mon", "allow *")
        _authtool("--create-keyring", str(self.keyring_path), "--gen-key", "-n", "client.admin",
                  "--cap", "mon", "allow *", "--cap", "osd", "allow *", "--cap", "mds", "allow *", "--cap", "mgr", "allow *")
        # The mgr's key goes into the mon's initial keyring, so the mgr can start right after the mon.
        mgr_keyring = str(self.base_dir / "mgr/ceph-x/keyring")
        _authtool("--create-keyring", mgr_keyring, "--gen-key", "-n", "mgr.x",
                  "--cap", "mon", "allow profile mgr", "--cap", "osd", "allow *", "--cap", "mds", "allow *")
        for keyring in (str(self.keyring_path), mgr_keyring):
            _authtool(mon_keyring, "--import-keyring", keyring)
        monmap = str(keys / "monmap")
        addresses = f"[v2:{self.mon_address}:3300,v1:{self.mon_address}:6789]"
        run(["monmaptool", "--create", "--fsid", _fsid(self.conf_path), "--addv", "a", addresses, monmap], env=CLEAN_ENV)
        run(["ceph-mon", "--conf", str(self.conf_path), "--mkfs", "-i", "a", "--monmap", monmap, "--keyring", mon_keyring],
            env=CLEAN_ENV)

    def _osd_mkfs_argv(self, osd: _Osd) -> list[str]:
        data = self.base_dir / f"osd/ceph-{osd.id}"
        data.mkdir()
        _authtool("--create-keyring", str(data / "keyring"), "--name", f"osd.{osd.id}", "--add-key", osd.secret)
        (self.base_dir / f"osd/secret-{osd.id}.json").write_text(json.dumps({"cephx_secret": osd.secret}))
        return ["ceph-osd", "--conf", str(self.conf_path), "-i", str(osd.id), "--mkfs", "--no-mon-config", "--osd-uuid", osd.uuid]

    def _start(self, name: str, argv: Sequence[str]) -> None:
        self._daemons[name] = spawn([*argv, "--conf", str(self.conf_path)], log_path=self.base_dir / f"log/{name}.stdout",
                                    netns=self.netns_name, env=CLEAN_ENV,
                                    death_signal=signal.SIGKILL)  # OSDs without their mon would hang on SIGTERM

    def _wait_healthy(self, deadline: float) -> None:
        """HEALTH_OK alone is not enough: the mgr's PG stats lag, so also wait until it reports every PG active+clean."""
        while time.monotonic() < deadline:
            dead = [name for name, process in self._daemons.items() if process.poll() is not None]
            if dead:
                raise InfraError(f"ceph daemons exited: {', '.join(dead)}\n{self._log_tails()}")
            status = self.status()
            pgs = status["pgmap"]
            clean = sum(state["count"] for state in pgs["pgs_by_state"] if state["state_name"] == "active+clean")
            if (status["health"]["status"] == "HEALTH_OK" and status["osdmap"]["num_up_osds"] == OSD_COUNT
                    and clean == pgs["num_pgs"] > 0):
                return
            time.sleep(0.5)
        report = [run([*self.admin_argv(), "--connect-timeout", "10", *what], check=False, env=CLEAN_ENV)
                  for what in (["status"], ["health", "detail"])]
        raise InfraError(f"the test cluster is not HEALTH_OK with all PGs active+clean after {HEALTH_TIMEOUT_S:.0f} s:\n"
                         + "".join(result.stdout + result.stderr for result in report) + self._log_tails())

    def _log_tails(self, lines: int = 15) -> str:
        """The end of every daemon log: the folder is deleted on teardown, so failures carry them in their message."""
        tails = []
        for log in sorted((self.base_dir / "log").iterdir()):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            tails.append(f"--- {log.name}\n" + "\n".join(text))
        return "\n".join(tails)


def _authtool(*args: str) -> str:
    return run(["ceph-authtool", *args], env=CLEAN_ENV).stdout


def _parallel(commands: Sequence[Sequence[str]], what: str, timeout_s: float = 120.0) -> None:
    """Runs short-lived tools at once; kills those still running if one fails to finish."""
    processes = [subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  env=CLEAN_ENV) for argv in commands]
    failures = []
    try:
        for argv, process in zip(commands, processes, strict=True):
            output, _ = process.communicate(timeout=timeout_s)
            if process.returncode != 0:
                failures.append(f"{argv[0]} {' '.join(argv[-3:])}: {output.decode(errors='replace').strip()}")
    except subprocess.TimeoutExpired as error:
        raise InfraError(f"{what} did not finish within {timeout_s:.0f} s") from error
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    if failures:
        raise InfraError(f"{what} failed: {' | '.join(failures)}")


def _fsid(conf_path: Path) -> str:
    return next(line.split("=", 1)[1].strip() for line in conf_path.read_text().splitlines() if line.startswith("fsid"))


def _ceph_conf(base: Path, mon_address: str, subnet: str, admin_keyring: Path) -> str:
    return f"""[global]
fsid = {uuid.uuid4()}
mon host = [v2:{mon_address}:3300,v1:{mon_address}:6789]
public network = {subnet}
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
auth allow insecure global id reclaim = false
run dir = {base}/run
crash dir = {base}/crash
osd pool default size = 3
osd pool default min size = 2
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon data avail warn = 2
mon data avail crit = 1
mon allow pool delete = true
mon cluster log file = {base}/log/cluster.log
mgr initial modules = iostat
mgr stats period = 1
mon mgr digest period = 1

[mon]
mon data = {base}/mon/$cluster-$id
keyring = $mon_data/keyring
log file = {base}/log/$name.log

[mgr]
mgr data = {base}/mgr/$cluster-$id
keyring = $mgr_data/keyring
log file = {base}/log/$name.log

[osd]
osd data = {base}/osd/$cluster-$id
keyring = $osd_data/keyring
log file = {base}/log/$name.log
osd objectstore = bluestore
bluestore block create = true
bluestore block size = {OSD_BLOCK_BYTES}
bluestore fsck on mkfs = false
bluestore cache autotune = false
bluestore cache size = 134217728
osd memory target = 939524096

[client]
rbd cache = false

[client.admin]
keyring = {admin_keyring}
"""


@contextmanager
def ceph_cluster(hosts: TestHosts) -> Iterator[TestCeph]:
    """A HEALTH_OK cluster on `hosts`' bridge with one image per host; gone when the block ends. Raises InfraUnavailable."""
    reason = ceph_unavailable_reason()
    if reason:
        raise InfraUnavailable(reason)
    cluster = TestCeph(hosts)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="session")
def ceph_cluster_session(ssh_hosts_session: TestHosts) -> Iterator[TestCeph]:
    try:
        with ceph_cluster(ssh_hosts_session) as cluster:
            close_after_last_user("ceph_cluster_session", cluster.close)
            yield cluster
    except InfraUnavailable as reason:
        pytest.skip(str(reason))


@pytest.fixture(name="ceph_cluster")
def ceph_cluster_fixture(ceph_cluster_session: TestCeph, ssh_hosts: TestHosts) -> TestCeph:
    """The session's cluster; requesting it also gives the test freshly reset `ssh_hosts`."""
    return ceph_cluster_session
