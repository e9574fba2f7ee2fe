"""Test infrastructure on real parts: SSH hosts in network namespaces (`infra.netns_hosts`) and a Ceph cluster
(`infra.ceph_cluster`). This module holds what both share: namespaces on a private bridge, child processes, and
the cleanup of what a crashed run left behind. Load the fixtures with
`pytest_plugins = ["infra.netns_hosts", "infra.ceph_cluster"]`; see README.md.

Everything created here carries its creator's PID so that `cleanup_stale()` removes what a crashed run left
behind without touching anyone else's: namespaces `ssdprof-<pid>-<token>-<role>`, the bridge `ssdprof-<tag>` and
root-side veths `ssdv<tag>-<role>` (tag = PID in base 36 + one counter digit, because link names stop at 15
characters), and folders `/var/tmp/ssdprof-infra-<pid>-*`.
"""

from __future__ import annotations

import atexit
import ctypes
import fcntl
import ipaddress
import itertools
import json
import os
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

NETNS_DIR = Path("/run/netns")
DISK_DIR = Path("/var/tmp")  # disk-backed on Debian; ssdprof refuses tmpfs targets
LOCK_PATH = Path("/run/lock/ssdprof-infra.lock") if Path("/run/lock").is_dir() else Path("/tmp/ssdprof-infra.lock")
SBIN_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])
FIRST_PORT = 2200  # host k listens on FIRST_PORT + k
HOST_OCTET = 10  # host k gets .HOST_OCTET+k; the root namespace has .1 on the bridge
STALE_NETNS = re.compile(r"^ssdprof-(\d+)-[0-9a-f]+-[a-z0-9]+$")
STALE_LINK = re.compile(r"^(?:ssdprof-|ssdv)([0-9a-z]+)[0-9a-z](?:-[a-z0-9]+)?$")
STALE_DIR = re.compile(r"^ssdprof-infra-(\d+)-")
STALE_CGROUP = re.compile(r"^ssdprof-(\d+)-")  # cgroups: ssdprof-<pid>-<alias>
_link_counter = itertools.count()
MTU = 9000  # jumbo frames, as storage networks (and Ceph clusters) use them
_libc = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1
_CLONE_NEWUTS = 0x04000000


class InfraUnavailable(RuntimeError):
    """This machine cannot host the infrastructure (not root, no network namespaces, packages missing): tests
    skip, or fail under CI=true."""


class InfraError(RuntimeError):
    """Bring-up or teardown failed on a machine that should support it: tests fail."""


def which(command: str) -> str | None:
    return shutil.which(command, path=SBIN_PATH)


def run(argv: Sequence[str], *, check: bool = True, timeout: float = 60.0, stdin: str | None = None,
        env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        result = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, input=stdin,
                                env=None if env is None else dict(env), check=False)
    except subprocess.TimeoutExpired as error:
        raise InfraError(f"{shlex.join(argv)} did not finish within {timeout:.0f} s") from error
    if check and result.returncode != 0:
        raise InfraError(f"{shlex.join(argv)} exited {result.returncode}: {(result.stderr or result.stdout).strip()}")
    return result


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if number == 0:
            return text


@contextmanager
def infra_lock() -> Iterator[None]:
    """Serialises creation and stale cleanup across test processes (subnet choice, /run/netns mount). Not re-entrant."""
    with open(LOCK_PATH, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def creator_alive(pid: int, created_epoch: float) -> bool:
    """True when `pid` runs and started before the resource was made (PIDs are reused: pid_max may be 32768)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines() if line.startswith("btime"))
    except (OSError, StopIteration):
        return False
    start_ticks = int(stat.rsplit(")", 1)[1].split()[19])
    return boot + start_ticks / os.sysconf("SC_CLK_TCK") <= created_epoch + 2.0


def child_setup(hostname: str | None, death_signal: int = signal.SIGTERM) -> Callable[[], None]:
    def setup() -> None:
        # Daemons die with the test process even when it is SIGKILLed; teardown still stops them by PID first.
        _libc.prctl(_PR_SET_PDEATHSIG, death_signal, 0, 0, 0)
        if hostname is not None:
            if _libc.unshare(_CLONE_NEWUTS) != 0:
                raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUTS)")
            socket.sethostname(hostname)
    return setup


def in_netns(netns: str | None, argv: Sequence[str]) -> list[str]:
    return [which("ip") or "ip", "netns", "exec", netns, *argv] if netns else list(argv)


_SPAWNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="infra-spawner")


def spawn(argv: Sequence[str], *, log_path: Path, netns: str | None = None, hostname: str | None = None,
          env: Mapping[str, str] | None = None, death_signal: int = signal.SIGTERM) -> subprocess.Popen[bytes]:
    """Starts a long-running child in `netns` (ip netns exec execs, so the PID is the daemon's own).

    The death signal comes when the *thread* that forked the child ends, so a test's helper thread that restarts a
    daemon would take it along when it finishes: children are forked from the main thread or one that lives as long."""
    if threading.current_thread() is not threading.main_thread() and not threading.current_thread().name.startswith("infra-spawner"):
        return _SPAWNER.submit(spawn, argv, log_path=log_path, netns=netns, hostname=hostname, env=env,
                               death_signal=death_signal).result()
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            in_netns(netns, argv), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=child_setup(hostname, death_signal),  # noqa: PLW1509 -- only prctl/unshare/sethostname, before exec
            env=None if env is None else dict(env))


def stop_process(process: subprocess.Popen[bytes] | None, grace_s: float = 3.0) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def namespace_pids(netns: str) -> list[int]:
    return [int(pid) for pid in run(["ip", "netns", "pids", netns], check=False).stdout.split()]


def process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def kill_namespace_processes(netns: str, keep: Callable[[int], bool] = lambda _pid: False) -> list[str]:
    """SIGKILLs what runs in one of our namespaces (all of it descends from processes we started); returns 'name[pid]'."""
    killed: list[str] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        pids = [pid for pid in namespace_pids(netns) if pid != os.getpid() and not keep(pid)]
        if not pids:
            break
        for pid in pids:
            killed.append(f"{process_name(pid)}[{pid}]")
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)
    return sorted(set(killed))


CGROUP_ROOT = Path("/sys/fs/cgroup")
CPU_PERIOD_US = 100_000


def cpu_cgroup(name: str) -> Path:
    """A new cgroup for the cpu controller (v1 `cpu` hierarchy, or v2 with cpu enabled); raises InfraUnavailable."""
    v2_controllers = CGROUP_ROOT / "cgroup.subtree_control"
    if (CGROUP_ROOT / "cpu" / "cpu.cfs_quota_us").exists():
        parent = CGROUP_ROOT / "cpu"
    elif v2_controllers.exists() and "cpu" in v2_controllers.read_text().split():
        parent = CGROUP_ROOT
    else:
        raise InfraUnavailable("no cgroup cpu controller to starve a host of CPU")
    group = parent / name
    group.mkdir(exist_ok=True)
    return group


def set_cpu_quota(group: Path, percent: int) -> None:
    quota = CPU_PERIOD_US * percent // 100
    if (group / "cpu.max").exists():
        (group / "cpu.max").write_text(f"{quota} {CPU_PERIOD_US}")
    else:
        (group / "cpu.cfs_period_us").write_text(str(CPU_PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(quota))


def remove_cgroup(group: Path) -> None:
    """Removes an empty cgroup (its processes moved out or ended); retries while the kernel lets the last ones go."""
    deadline = time.monotonic() + 5
    while group.exists():
        try:
            group.rmdir()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@dataclass(frozen=True)
class Namespace:
    name: str
    address: str
    veth: str  # the root-side end, on the bridge


class Network:
    """A bridge in the root namespace on a private /24 (the root namespace has .1) and namespaces plugged into it.

    No namespace has a default route, so nothing in them can reach any address outside this /24.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.token = secrets.token_hex(3)
        self.tag = base36(self.pid) + base36(next(_link_counter) % 36)
        self.bridge = f"ssdprof-{self.tag}"
        self.subnet = ipaddress.IPv4Network("10.213.0.0/24")
        self.namespaces: dict[str, Namespace] = {}
        self._bridge_made = False

    def create(self) -> None:
        with infra_lock():
            cleanup_stale_locked()
            self.subnet = _free_subnet()
            try:
                run(["ip", "link", "add", self.bridge, "type", "bridge"])
            except InfraError as error:
                raise InfraUnavailable(f"cannot create a bridge: {error}") from error
            self._bridge_made = True
            self._label(self.bridge)
            run(["ip", "addr", "add", f"{self.address(1)}/24", "dev", self.bridge])
            run(["ip", "link", "set", self.bridge, "up"])

    def address(self, octet: int) -> str:
        return str(self.subnet.network_address + octet)

    def add_namespace(self, role: str, octet: int) -> Namespace:
        ns = Namespace(f"ssdprof-{self.pid}-{self.token}-{role}", self.address(octet), f"ssdv{self.tag}-{role}")
        with infra_lock():
            try:
                run(["ip", "netns", "add", ns.name])
            except InfraError as error:
                raise InfraUnavailable(f"ip netns add failed: {error}") from error
            self.namespaces[role] = ns
            run(["ip", "link", "add", ns.veth, "mtu", str(MTU), "type", "veth", "peer", "name", "eth0", "mtu", str(MTU), "netns", ns.name])
            self._label(ns.veth)
            run(["ip", "link", "set", ns.veth, "master", self.bridge, "up"])
        for argv in (["link", "set", "lo", "up"], ["link", "set", "eth0", "addrgenmode", "none"],
                     ["addr", "add", f"{ns.address}/24", "dev", "eth0"], ["link", "set", "eth0", "up"]):
            run(["ip", "-n", ns.name, *argv])
        return ns

    def set_link(self, role: str, up: bool) -> None:
        run(["ip", "link", "set", self.namespaces[role].veth, "up" if up else "down"])

    def remove_namespace(self, role: str) -> None:
        ns = self.namespaces.pop(role, None)
        if ns is not None:
            kill_namespace_processes(ns.name)
            # Deleting the namespace would take its veth pair along, but asynchronously (a kernel work queue).
            run(["ip", "link", "del", ns.veth], check=False)
            _delete_netns(ns.name)

    def close(self) -> None:
        """Best effort to the end: every namespace, then the bridge; raises the first failure afterwards."""
        errors: list[Exception] = []
        for role in list(self.namespaces):
            try:
                self.remove_namespace(role)
            except (InfraError, OSError, subprocess.SubprocessError) as error:
                errors.append(error)
        with infra_lock():
            if self._bridge_made:
                run(["ip", "link", "del", self.bridge], check=False)
                self._bridge_made = False
            _unmount_netns_dir_if_unused()
        if errors:
            raise InfraError(f"teardown left something behind: {errors[0]}") from errors[0]

    @staticmethod
    def _label(link: str) -> None:
        # The creation time tells a reused PID from the creator (see creator_alive); no IPv6 chatter on our links.
        run(["ip", "link", "set", link, "alias", f"ssdprof created={time.time():.0f}", "addrgenmode", "none"])


def _delete_netns(name: str) -> None:
    """`ip netns del`, retried: it can fail while the processes just killed in the namespace are still exiting."""
    for _attempt in range(50):
        result = run(["ip", "netns", "del", name], check=False)
        if result.returncode == 0 or not (NETNS_DIR / name).exists():
            return
        time.sleep(0.1)
    raise InfraError(f"ip netns del {name}: {result.stderr.strip()}")


def _free_subnet() -> ipaddress.IPv4Network:
    used = [ipaddress.IPv4Network(f"{a['local']}/{a['prefixlen']}", strict=False)
            for link in json.loads(run(["ip", "-j", "-4", "addr"]).stdout) for a in link.get("addr_info", [])]
    used += [ipaddress.IPv4Network(r["dst"]) for r in json.loads(run(["ip", "-j", "-4", "route"]).stdout) if r["dst"] != "default"]
    for third in random.sample(range(1, 255), 254):
        candidate = ipaddress.IPv4Network(f"10.213.{third}.0/24")
        if not any(candidate.overlaps(net) for net in used):
            return candidate
    raise InfraError("no free 10.213.x.0/24 subnet")


def _netns_dir_mounted() -> bool:
    return any(line.split()[4] == str(NETNS_DIR) for line in Path("/proc/self/mountinfo").read_text().splitlines())


def _unmount_netns_dir_if_unused() -> None:
    """`ip netns add` bind-mounts /run/netns onto itself; undo that once no namespace is left (caller holds the lock)."""
    with suppress(OSError):
        if NETNS_DIR.is_dir() and not any(NETNS_DIR.iterdir()) and _netns_dir_mounted():
            run(["umount", str(NETNS_DIR)], check=False)


def cleanup_stale() -> list[str]:
    """Removes namespaces, links and folders of earlier runs whose creator is dead; returns what it removed."""
    with infra_lock():
        removed = cleanup_stale_locked()
        _unmount_netns_dir_if_unused()
        return removed


def cleanup_stale_locked() -> list[str]:
    removed: list[str] = []
    # Links first: deleting a veth takes its namespace end along at once, deleting a namespace does so only later.
    for link in json.loads(run(["ip", "-j", "link"]).stdout):
        match = STALE_LINK.match(link["ifname"])
        created = re.search(r"created=(\d+)", link.get("ifalias", ""))
        if match and not creator_alive(int(match[1], 36), float(created[1]) if created else time.time()):
            run(["ip", "link", "del", link["ifname"]], check=False)
            removed.append(f"link {link['ifname']}")
    for path in sorted(NETNS_DIR.iterdir()) if NETNS_DIR.is_dir() else []:
        match = STALE_NETNS.match(path.name)
        if match and not creator_alive(int(match[1]), path.stat().st_mtime):
            kill_namespace_processes(path.name)
            _delete_netns(path.name)
            removed.append(f"netns {path.name}")
    for path in sorted([*CGROUP_ROOT.glob("ssdprof-*"), *CGROUP_ROOT.glob("cpu/ssdprof-*")]):
        match = STALE_CGROUP.match(path.name)
        if match and path.is_dir() and not creator_alive(int(match[1]), path.stat().st_mtime):
            with suppress(OSError):  # still holds processes: they go with their namespaces, the folder next time
                path.rmdir()
                removed.append(f"cgroup {path}")
    for path in sorted(DISK_DIR.glob("ssdprof-infra-*")):
        match = STALE_DIR.match(path.name)
        if match and path.is_dir() and not creator_alive(int(match[1]), path.stat().st_mtime):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(f"folder {path}")
    return removed


def make_base_dir(kind: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"ssdprof-infra-{os.getpid()}-{kind}-", dir=DISK_DIR))


def _interrupt_on_sigterm(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt  # pytest then stops the session and still runs every fixture's teardown


def register_teardown(close: Callable[[], None]) -> None:
    """atexit as the last resort; and a SIGTERMed pytest would otherwise die without finally blocks or atexit."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt_on_sigterm)
    atexit.register(close)

