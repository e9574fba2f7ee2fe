"""SSH test hosts: one network namespace per host on a private bridge, each running its own sshd with key-only auth.

Each host also has its own UTS namespace (so `hostname` over ssh answers its alias) and its own folders, because
network namespaces share the filesystem and the hostname. The client side is a generated key, known_hosts and
ssh_config with one `Host hN` alias per host.

PYTEST_DONT_REWRITE: loaded as a pytest plugin, often after a test module imported it; it has no asserts to rewrite.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from . import (
    FIRST_PORT,
    HOST_OCTET,
    InfraError,
    InfraUnavailable,
    Namespace,
    Network,
    child_setup,
    cpu_cgroup,
    in_netns,
    kill_namespace_processes,
    make_base_dir,
    namespace_pids,
    process_name,
    register_teardown,
    remove_cgroup,
    run,
    set_cpu_quota,
    spawn,
    stop_process,
    which,
)

PACKAGES = {"ip": "iproute2", "sshd": "openssh-server", "ssh": "openssh-client", "ssh-keygen": "openssh-client"}
HOST_KEY = "ssh_host_ed25519_key"


def hosts_unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "the SSH test hosts need root (network namespaces, a bridge, sshd)"
    missing = sorted({package for command, package in PACKAGES.items() if which(command) is None})
    if missing:
        return f"the SSH test hosts need {', '.join(missing)} (scripts/setup.sh installs them)"
    return None


@dataclass
class _Host:
    alias: str
    netns: Namespace
    port: int
    config_dir: Path  # sshd's own files
    scratch_dir: Path  # for the tests' files: disk-backed, one per host
    process: subprocess.Popen[bytes] | None = None

    @property
    def key_path(self) -> Path:
        return self.config_dir / HOST_KEY

    @property
    def log_path(self) -> Path:
        return self.config_dir / "sshd.log"

    @property
    def home(self) -> Path:
        """The host's own home for its sessions, as every lab node has: empty, so a session's shell reads no
        ~/.bashrc of this machine's (root's here runs pyenv's init: 0.09 s of CPU for every session on every host)."""
        return self.config_dir.parent / "home"


class TestHosts:
    """n SSH hosts `h1`..`hn` reachable from the root namespace with `ssh -F ssh_config_path hN`."""

    __test__ = False  # not a test class, despite the name

    def __init__(self, n: int) -> None:
        self.base_dir = make_base_dir("hosts")
        self.network = Network()
        self.aliases = [f"h{k}" for k in range(1, n + 1)]
        client_dir = self.base_dir / "client"
        self.identity_path = client_dir / "id_ed25519"
        self.known_hosts_path = client_dir / "known_hosts"
        self.ssh_config_path = client_dir / "ssh_config"
        self.startup_seconds = 0.0
        self._hosts: dict[str, _Host] = {}
        self._cpu_groups: dict[str, Path] = {}
        self._shaped: set[str] = set()
        self._shaped_outside: set[str] = set()  # namespace roles, not only hosts (the Ceph cluster's too)
        self._max_startups: set[str] = set()
        self._closed = False

    @property
    def host_dirs(self) -> dict[str, Path]:
        return {alias: host.scratch_dir for alias, host in self._hosts.items()}

    @property
    def addresses(self) -> dict[str, str]:
        return {alias: host.netns.address for alias, host in self._hosts.items()}

    @property
    def ports(self) -> dict[str, int]:
        return {alias: host.port for alias, host in self._hosts.items()}

    @property
    def netns_names(self) -> dict[str, str]:
        return {alias: host.netns.name for alias, host in self._hosts.items()}

    def start(self) -> None:
        began = time.monotonic()
        register_teardown(self.close)
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege-separation directory
        self.identity_path.parent.mkdir()
        _keygen(self.identity_path, "ssdprof-test-client")
        authorized_keys = self.base_dir / "authorized_keys"
        authorized_keys.write_text(self.identity_path.with_suffix(".pub").read_text())
        self.network.create()
        for k, alias in enumerate(self.aliases, start=1):
            netns = self.network.add_namespace(alias, HOST_OCTET + k)
            host = _Host(alias, netns, FIRST_PORT + k, self.base_dir / alias / "sshd", self.base_dir / alias / "scratch")
            self._hosts[alias] = host
            host.config_dir.mkdir(parents=True)
            host.scratch_dir.mkdir()
            host.home.mkdir()
            _keygen(host.key_path, f"ssdprof-test-{alias}")
            (host.config_dir / "sshd_config").write_text(_sshd_config(host, authorized_keys))
        self._write_known_hosts()
        self.ssh_config_path.write_text(self._ssh_config())
        offsets = {alias: self._spawn_sshd(host) for alias, host in self._hosts.items()}
        for alias, offset in offsets.items():
            self._wait_listening(self._hosts[alias], offset)
        self.startup_seconds = time.monotonic() - began

    def ssh_argv(self, alias: str, argv: Sequence[str]) -> list[str]:
        """`ssh -F ssh_config alias -- 'quoted argv'`: the remote shell sees exactly argv."""
        return ["ssh", "-F", str(self.ssh_config_path), alias, "--", shlex.join(argv)]

    def run_in(self, alias: str, argv: Sequence[str], *, timeout: float = 60.0,
               env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Runs argv locally inside the host's namespaces, without ssh: for setup and assertions."""
        return subprocess.run(in_netns(self._hosts[alias].netns.name, argv), capture_output=True, text=True, timeout=timeout,
                              env=None if env is None else {**os.environ, **env},
                              preexec_fn=child_setup(alias), check=False)

    def processes(self, alias: str) -> list[tuple[int, str]]:
        """(pid, name) of everything running in the host's network namespace, sshd included."""
        return [(pid, process_name(pid)) for pid in namespace_pids(self._hosts[alias].netns.name)]

    def settled_processes(self, alias: str, timeout_s: float = 10.0) -> set[str]:
        """Names of what runs in the host once only sshd is left, or at the timeout: a session's processes (its shell,
        a fio that has just written its output) take a moment to exit after the ssh client returns."""
        deadline = time.monotonic() + timeout_s
        while (names := {name for _pid, name in self.processes(alias)}) - {"sshd"} and time.monotonic() < deadline:
            time.sleep(0.05)
        return names

    def kill_processes(self, alias: str, name: str) -> list[str]:
        """SIGKILLs the processes called `name` (e.g. "fio") in this host only; returns 'name[pid]' of each."""
        return kill_namespace_processes(self._hosts[alias].netns.name, keep=lambda pid: process_name(pid) != name)

    def kill_sshd(self, alias: str) -> None:
        """A host lost mid-run: SIGKILLs its sshd listener and every session's sshd, so open connections drop and new
        ones are refused; what the sessions started (fio) keeps running, as on a host that fell off the network."""
        host = self._hosts[alias]
        if host.process is not None:
            host.process.kill()
            host.process.wait(10)
        self.kill_processes(alias, "sshd")

    def start_sshd(self, alias: str) -> None:
        host = self._hosts[alias]
        if host.process is None or host.process.poll() is not None:
            self._wait_listening(host, self._spawn_sshd(host))

    def max_startups(self, alias: str, setting: str) -> None:
        """sshd's MaxStartups on this host ("1:100:1": a second connection authenticating at once is dropped, as a
        slow host's sshd drops them); sshd restarts with it. reset() puts back the hosts' own (100)."""
        host = self._hosts[alias]
        config = host.config_dir / "sshd_config"
        config.write_text(re.sub(r"^MaxStartups .*$", f"MaxStartups {setting}", config.read_text(), flags=re.MULTILINE))
        self._restart_sshd(host)
        self._max_startups.add(alias)

    def reboot(self, alias: str, down_s: float = 1.0) -> None:
        """A host that restarts: every process in it is SIGKILLed (sshd, and whatever the sessions started), and after
        `down_s` its sshd is back. Files on disk stay, as on a real host's disk (its /tmp is the machine's, unlike a
        real reboot's)."""
        host = self._hosts[alias]
        if host.process is not None:
            host.process.kill()
            host.process.wait(10)
        kill_namespace_processes(host.netns.name)
        time.sleep(down_s)
        self.start_sshd(alias)

    def limit_cpu(self, alias: str, percent: int) -> None:
        """Starves the host of CPU: everything its sshd starts from now on (and what already runs) gets `percent` % of one
        core, through a cgroup (v1 `cpu` or v2). reset() lifts it. Raises InfraUnavailable without a cpu controller."""
        host = self._hosts[alias]
        group = cpu_cgroup(f"ssdprof-{os.getpid()}-{alias}")
        set_cpu_quota(group, percent)
        for pid in namespace_pids(host.netns.name):
            with suppress(OSError):  # a process that just ended
                (group / "cgroup.procs").write_text(str(pid))
        self._cpu_groups[alias] = group

    def shape_link(self, alias: str, rate_mbit: int) -> None:
        """Limits the host's link to `rate_mbit` both ways with tbf, as a slower switch port would: on the host's eth0
        (its egress, which the host itself sees with `tc qdisc`) and on the bridge side of its veth (what reaches it).
        reset() and the link's removal take both away."""
        tbf = ["root", "tbf", "rate", f"{rate_mbit}mbit", "burst", "256kb", "latency", "400ms"]
        run(["ip", "netns", "exec", self._hosts[alias].netns.name, "tc", "qdisc", "replace", "dev", "eth0", *tbf])
        run(["tc", "qdisc", "replace", "dev", self._hosts[alias].netns.veth, *tbf])
        self._shaped.add(alias)

    def shape_outside(self, role: str, rate_mbit: int, *, both_ways: bool = False) -> None:
        """Limits what reaches namespace `role` (a host alias, or "ceph") to `rate_mbit` with tbf on the root-namespace
        end of its veth, as a switch port or an uplink would: outside it, so its own `tc qdisc` shows nothing. With
        `both_ways`, what it sends too (tbf on its own eth0: a storage node's uplink, for reads from it).
        reset() and the link's removal take it away."""
        namespace = self.network.namespaces[role]
        tbf = ["root", "tbf", "rate", f"{rate_mbit}mbit", "burst", "256kb", "latency", "400ms"]
        run(["tc", "qdisc", "replace", "dev", namespace.veth, *tbf])
        if both_ways:
            run(["ip", "netns", "exec", namespace.name, "tc", "qdisc", "replace", "dev", "eth0", *tbf])
        self._shaped_outside.add(role)

    def unshape_link(self, alias: str) -> None:
        run(["ip", "netns", "exec", self._hosts[alias].netns.name, "tc", "qdisc", "del", "dev", "eth0", "root"], check=False)
        run(["tc", "qdisc", "del", "dev", self._hosts[alias].netns.veth, "root"], check=False)
        self._shaped.discard(alias)

    def disconnect(self, alias: str) -> None:
        """Takes the host's link down: packets vanish and connections hang (nothing is killed)."""
        self.network.set_link(alias, up=False)

    def reconnect(self, alias: str) -> None:
        self.network.set_link(alias, up=True)

    def host_public_key(self, alias: str) -> str:
        """The host's current public key as 'ssh-ed25519 AAAA…'."""
        return " ".join(self._hosts[alias].key_path.with_suffix(".pub").read_text().split()[:2])

    def change_host_key(self, alias: str) -> str:
        """Gives the host a new key and restarts its sshd: a client using known_hosts_path now sees a CHANGED key.
        Sessions already open stay up. Returns the new public key; reset() restores the original."""
        host = self._hosts[alias]
        for suffix in ("", ".pub"):
            original = Path(f"{host.key_path}{suffix}.orig")
            if not original.exists():
                shutil.copy2(f"{host.key_path}{suffix}", original)
            Path(f"{host.key_path}{suffix}").unlink()
        _keygen(host.key_path, f"ssdprof-test-{alias}-changed")
        self._restart_sshd(host)
        return self.host_public_key(alias)

    def reset(self) -> list[str]:
        """Undoes what a test may have done to the hosts: restores original host keys, reconnects links, restarts
        sshd, kills whatever but sshd is still running in them and empties their scratch folders.
        Returns what it killed ('fio[1234]')."""
        killed: list[str] = []
        self._lift_cpu_limits()
        for alias in list(self._shaped):
            self.unshape_link(alias)
        for role in self._shaped_outside & set(self.network.namespaces):
            namespace = self.network.namespaces[role]
            run(["tc", "qdisc", "del", "dev", namespace.veth, "root"], check=False)
            run(["ip", "netns", "exec", namespace.name, "tc", "qdisc", "del", "dev", "eth0", "root"], check=False)
        self._shaped_outside.clear()
        for alias, host in self._hosts.items():
            self.reconnect(alias)
            killed += kill_namespace_processes(host.netns.name, keep=lambda pid: process_name(pid) == "sshd")
            shutil.rmtree(host.scratch_dir)
            host.scratch_dir.mkdir()
            if Path(f"{host.key_path}.orig").exists():
                for suffix in ("", ".pub"):
                    os.replace(f"{host.key_path}{suffix}.orig", f"{host.key_path}{suffix}")
                self._restart_sshd(host)
            if alias in self._max_startups:
                self._max_startups.discard(alias)
                self.max_startups(alias, "100")
                self._max_startups.discard(alias)
            self.start_sshd(alias)
        return killed

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            for host in self._hosts.values():
                stop_process(host.process)
            self._lift_cpu_limits()
            self.network.close()
        finally:
            shutil.rmtree(self.base_dir, ignore_errors=True)

    def _lift_cpu_limits(self) -> None:
        groups, self._cpu_groups = self._cpu_groups, {}
        for alias, group in groups.items():
            for pid in namespace_pids(self._hosts[alias].netns.name):
                with suppress(OSError):
                    (group.parent / "cgroup.procs").write_text(str(pid))
            remove_cgroup(group)

    def _spawn_sshd(self, host: _Host) -> int:
        offset = host.log_path.stat().st_size if host.log_path.exists() else 0
        argv = [which("sshd") or "/usr/sbin/sshd", "-D", "-f", str(host.config_dir / "sshd_config"), "-E", str(host.log_path)]
        host.process = spawn(argv, log_path=host.log_path, netns=host.netns.name, hostname=host.alias)
        return offset

    def _restart_sshd(self, host: _Host) -> None:
        stop_process(host.process)  # the listener only: its sessions are separate processes and stay up
        self._wait_listening(host, self._spawn_sshd(host))

    @staticmethod
    def _wait_listening(host: _Host, offset: int, timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            with open(host.log_path, "rb") as log:
                log.seek(offset)
                text = log.read().decode(errors="replace")
            if "Server listening on" in text:
                return
            if host.process is None or host.process.poll() is not None or time.monotonic() > deadline:
                raise InfraError(f"sshd for {host.alias} did not start listening: {text.strip() or 'no log'}")
            time.sleep(0.01)

    def _write_known_hosts(self) -> None:
        lines = [f"[{host.netns.address}]:{host.port} {self.host_public_key(alias)}" for alias, host in self._hosts.items()]
        self.known_hosts_path.write_text("".join(line + "\n" for line in lines))

    def _ssh_config(self) -> str:
        blocks = [f"Host {alias}\n  HostName {host.netns.address}\n  Port {host.port}\n" for alias, host in self._hosts.items()]
        # The shared options also apply to user@address:port targets, so both ways of naming a host work with -F.
        shared = (f"Host {' '.join(self.aliases)} {self.network.subnet.network_address.exploded.rsplit('.', 1)[0]}.*\n"
                  f"  User root\n  IdentityFile {self.identity_path}\n  IdentitiesOnly yes\n"
                  f"  UserKnownHostsFile {self.known_hosts_path}\n  GlobalKnownHostsFile /dev/null\n"
                  "  StrictHostKeyChecking yes\n  UpdateHostKeys no\n  BatchMode yes\n  ConnectTimeout 5\n")
        return "# Written by ssdprof's test infrastructure (engine/tests/infra)\n" + "".join(blocks) + shared


def _keygen(path: Path, comment: str) -> None:
    run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)])


def _sshd_config(host: _Host, authorized_keys: Path) -> str:
    options = [
        f"Port {host.port}", f"ListenAddress {host.netns.address}", f"HostKey {host.key_path}",
        f"PidFile {host.config_dir / 'sshd.pid'}", f"AuthorizedKeysFile {authorized_keys}",
        "PermitRootLogin prohibit-password", "PubkeyAuthentication yes", "PasswordAuthentication no",
        "KbdInteractiveAuthentication no", "UsePAM no",
        "StrictModes no",  # the keys live under /var/tmp, which is world-writable
        "UseDNS no", "PrintMotd no", "PrintLastLog no", "AllowTcpForwarding yes", "X11Forwarding no",
        "MaxStartups 100", "MaxSessions 100", "LogLevel INFO", "Subsystem sftp internal-sftp",
        f"SetEnv HOME={host.home}",
    ]
    return "".join(option + "\n" for option in options)


@contextmanager
def ssh_hosts(n: int = 2) -> Iterator[TestHosts]:
    """n SSH hosts in network namespaces; everything is gone when the block ends. Raises InfraUnavailable."""
    reason = hosts_unavailable_reason()
    if reason:
        raise InfraUnavailable(reason)
    hosts = TestHosts(n)
    try:
        hosts.start()
        yield hosts
    finally:
        hosts.close()


# Session fixtures are made on first use and closed right after the last test that uses them, not at the end of
# the session, so that later tests (benchmarks) do not share the machine with an idle cluster.
_last_user: dict[str, str] = {}  # session fixture -> nodeid of the last test that uses it
_closers: dict[str, Callable[[], None]] = {}


def close_after_last_user(fixture: str, close: Callable[[], None]) -> None:
    _closers[fixture] = close


@pytest.hookimpl(trylast=True)  # after any plugin that reorders or deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    _last_user.clear()
    for item in items:
        for fixture in getattr(item, "fixturenames", ()):
            _last_user[fixture] = item.nodeid


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    yield  # function-scoped fixtures (the resets) are finalised first
    for fixture in ("ceph_cluster_session", "ssh_hosts_session", "lab_node_session"):
        if _last_user.get(fixture) == item.nodeid and fixture in _closers:
            _closers.pop(fixture)()


@pytest.fixture(scope="session")
def ssh_hosts_session() -> Iterator[TestHosts]:
    """Two hosts, made on first use. Prefer `ssh_hosts`, which also resets them after each test."""
    try:
        with ssh_hosts(2) as hosts:
            close_after_last_user("ssh_hosts_session", hosts.close)
            yield hosts
    except InfraUnavailable as reason:
        pytest.skip(str(reason))


@pytest.fixture(name="ssh_hosts")
def ssh_hosts_fixture(ssh_hosts_session: TestHosts) -> Iterator[TestHosts]:
    yield ssh_hosts_session
    leftovers = ssh_hosts_session.reset()
    if leftovers:
        warnings.warn(f"still running on the SSH test hosts after the test, killed: {', '.join(leftovers)}", stacklevel=1)


def ssdprof_on_hosts(hosts: TestHosts, *args: str, db: Path, env: dict[str, str] | None = None,
            **kwargs: Any) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ssdprof", *args, "--ssh-config", str(hosts.ssh_config_path), "--db", str(db)]
    isolated = {"XDG_DATA_HOME": str(db.parent / "data")}  # the record of leftovers on hosts is this test's own
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False, env={**os.environ, **isolated, **(env or {})},
                          **kwargs)
