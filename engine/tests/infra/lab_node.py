"""A lab node: a separate Linux machine, booted by the tests as a QEMU guest and reached over SSH.

The guest runs Debian's full kernel (infra.lab_kernel) under TCG (KVM guests hang at boot on these
machines) with ``pci=nomsi`` (the emulated NVMe controller's MSI times out under TCG and the
controller resets). Its root is this machine's / shared read-only over 9p under a tmpfs overlay, so
it runs the same fio, sshd, nvme-cli and smartctl (lab_node_init.sh). It has its own kernel, block
devices and clock:

- ``/dev/nvme0n1``: an NVMe controller's namespace (serial ``SSDPROF-NVME-1``);
- ``/dev/sda``: a SATA disk on an AHCI controller (model ``SSDPROF LAB SATA``, serial
  ``SSDPROF-SATA-1``);
- four virtio disks for RAID and LVM stacks (serials ``SSDPROF-VD-1`` … ``-4``);
- a virtio disk QEMU throttles to ``throttle_iops`` (serial ``SSDPROF-THR``), changed at run time
  through QMP (:meth:`LabNode.set_throttle`, or its write bandwidth with
  :meth:`LabNode.set_write_limit`): a device whose true IOPS or write speed is known.

Networking is QEMU's user mode with ``restrict=on``: the guest reaches nothing, and its sshd is
forwarded to a port on 127.0.0.1 only. Disks are sparse files in the node's folder under /var/tmp.
PYTEST_DONT_REWRITE: loaded as a pytest plugin; it has no asserts.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from . import (
    InfraError,
    InfraUnavailable,
    make_base_dir,
    register_teardown,
    run,
    spawn,
    stop_process,
    which,
)
from .lab_kernel import GuestKernel, guest_kernel
from .netns_hosts import close_after_last_user

PACKAGES = {
    "qemu-system-x86_64": "qemu-system-x86",
    "busybox": "busybox-static",
    "cpio": "cpio",
    "depmod": "kmod",
    "sshd": "openssh-server",
    "ssh": "openssh-client",
    "apt-get": "apt",
    "dpkg-deb": "dpkg",
    "nvme": "nvme-cli",
    "smartctl": "smartmontools",
    "mdadm": "mdadm",
    "lvm": "lvm2",
}
BOOT_TIMEOUT_S = 300.0
"""Generous: TCG on two cores shared with other work boots in ~15 s alone, far slower under load."""


@dataclass(frozen=True)
class LabDisk:
    drive: str
    """QEMU's drive id (block_set_io_throttle's "device")."""
    serial: str
    size_bytes: int
    interface: str
    """NVMe, SATA or virtio."""


DISKS = (
    LabDisk("nvm0", "SSDPROF-NVME-1", 1 << 30, "NVMe"),
    LabDisk("sata0", "SSDPROF-SATA-1", 1 << 30, "SATA"),
    *(LabDisk(f"vd{k}", f"SSDPROF-VD-{k}", 256 << 20, "virtio") for k in range(1, 5)),
    LabDisk("thr0", "SSDPROF-THR", 256 << 20, "virtio"),
)
SATA_MODEL = "SSDPROF LAB SATA"


def lab_unavailable_reason() -> str | None:
    if os.geteuid() != 0:
        return "the lab node needs root (its kernel cache, and the block devices built in it)"
    missing = sorted({package for command, package in PACKAGES.items() if which(command) is None})
    if missing:
        return f"the lab node needs {', '.join(missing)} (scripts/setup.sh installs them)"
    return None


class LabNode:
    """One guest, `lab1`, reachable with `ssh -F ssh_config_path lab1` (root, key only)."""

    __test__ = False
    alias = "lab1"

    def __init__(self, throttle_iops: int = 1000, memory_mib: int = 1536, cpus: int = 2) -> None:
        self.base_dir = make_base_dir("lab")
        self.throttle_iops = throttle_iops
        self.memory_mib = memory_mib
        self.cpus = cpus
        self.identity_path = self.base_dir / "client" / "id_ed25519"
        self.known_hosts_path = self.base_dir / "client" / "known_hosts"
        self.ssh_config_path = self.base_dir / "client" / "ssh_config"
        self.qmp_path = self.base_dir / "qmp.sock"
        self.console_path = self.base_dir / "console.log"
        self.port = 0
        self.boot_seconds = 0.0
        self.clock_shifted_s = 0.0
        """How far shift_clock moved the guest's clock since it was last set to ours."""
        self.kernel: GuestKernel | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._closed = False

    @property
    def destination(self) -> str:
        """How ssdprof names the node as a host (with --ssh-config ssh_config_path)."""
        return self.alias

    def start(self) -> None:
        register_teardown(self.close)
        self.kernel = guest_kernel()
        self.port = _free_port()
        self._write_ssh_files()
        for disk in DISKS:
            with open(self.base_dir / f"{disk.drive}.img", "wb") as image:
                image.truncate(disk.size_bytes)  # sparse: nothing is written until the guest writes
        began = time.monotonic()
        self.process = spawn(self._qemu_argv(), log_path=self.base_dir / "qemu.log")
        self._wait_for_ssh(began + BOOT_TIMEOUT_S)
        self.boot_seconds = time.monotonic() - began
        self.sync_clock()

    # ---- using the guest ------------------------------------------------------------------------

    def ssh_argv(self, argv: Sequence[str]) -> list[str]:
        return ["ssh", "-F", str(self.ssh_config_path), self.alias, "--", shlex.join(argv)]

    def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float = 120.0,
        check: bool = True,
        stdin: str | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """argv in the guest, over SSH; raises InfraError when it fails and `check`."""
        done = subprocess.run(
            self.ssh_argv(argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            input=stdin,
            check=False,
        )
        if check and done.returncode != 0:
            raise InfraError(
                f"lab1: {shlex.join(argv)} exited {done.returncode}: "
                f"{(done.stderr or done.stdout).strip()[-500:]}"
            )
        return done

    def disk_path(self, serial: str) -> str:
        """The guest's /dev node of the disk with this serial (virtio names follow probe order)."""
        script = (
            'for s in /sys/block/*/serial /sys/block/*/device/serial; do [ -r "$s" ] || continue; '
            'v=$(tr -d " \\n" < "$s"); d=${s#/sys/block/}; '
            '[ "$v" = "$1" ] && echo "/dev/${d%%/*}"; done; '
            'for d in /sys/block/sd*; do [ -r "$d/device/vpd_pg80" ] && '
            'tail -c +5 "$d/device/vpd_pg80" '
            '| tr -d " \\000" | grep -qx "$1" && echo "/dev/${d##*/}"; done; true'
        )
        found = self.run(["sh", "-c", script, "find", serial]).stdout.split()
        if not found:
            raise InfraError(f"lab1 has no disk with serial {serial}")
        return found[0]

    def qmp(self, command: str, **arguments: Any) -> Any:
        """One QMP command's answer ("return"); raises InfraError on QMP's "error"."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(30)
            sock.connect(str(self.qmp_path))
            stream = sock.makefile("rw")
            _qmp_answer(stream)  # the greeting
            for request in (
                {"execute": "qmp_capabilities"},
                {"execute": command, "arguments": arguments},
            ):
                stream.write(json.dumps(request) + "\n")
                stream.flush()
                answer = _qmp_answer(stream)
            return answer

    def set_throttle(self, iops: int) -> None:
        """The throttled disk's limit, now (QMP block_set_io_throttle; 0 lifts it)."""
        limits = {key: 0 for key in ("bps", "bps_rd", "bps_wr", "iops_rd", "iops_wr")}
        self.qmp("block_set_io_throttle", device="thr0", iops=iops, **limits)
        self.throttle_iops = iops

    def set_write_limit(self, bytes_per_s: int) -> None:
        """The throttled disk's write bandwidth limit, now, with no IOPS limit (0 lifts it)."""
        limits = {key: 0 for key in ("bps", "bps_rd", "iops", "iops_rd", "iops_wr")}
        self.qmp("block_set_io_throttle", device="thr0", bps_wr=bytes_per_s, **limits)
        self.throttle_iops = 0

    def written_bytes(self, drive: str = "thr0") -> int:
        """Bytes the guest has written to a disk, as QEMU counts them (no work in the guest)."""
        stats = self.qmp("query-blockstats")
        return int(next(s["stats"]["wr_bytes"] for s in stats if s.get("device") == drive))

    def clock_offset_s(self, exchanges: int = 5) -> tuple[float, float]:
        """The guest's clock minus ours and its bound (half the best exchange's round trip)."""
        program = "import sys,time\nfor _ in sys.stdin:\n print(repr(time.time()), flush=True)\n"
        argv = self.ssh_argv(["python3", "-c", program])
        best = (0.0, float("inf"))
        with subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        ) as process:
            if process.stdin is None or process.stdout is None:
                raise InfraError("no pipes to the guest's clock")
            for _ in range(exchanges + 1):  # the first answer pays for python's start
                sent = time.time()
                process.stdin.write("t\n")
                process.stdin.flush()
                guest = float(process.stdout.readline())
                received = time.time()
                if received - sent < 2 * best[1]:
                    best = (guest - (sent + received) / 2, (received - sent) / 2)
            process.stdin.close()
        return best

    def shift_clock(self, seconds: float) -> None:
        """Moves the guest's clock by `seconds` from its own reading (transit time aside)."""
        program = (
            "import sys,time\n"
            "time.clock_settime(time.CLOCK_REALTIME, time.time() + float(sys.argv[1]))\n"
        )
        self.run(["python3", "-c", program, repr(seconds)])
        self.clock_shifted_s += seconds

    def sync_clock(self) -> float:
        """Sets the guest's clock to ours (within a round trip): its RTC has whole seconds."""
        offset, _bound = self.clock_offset_s()
        self.shift_clock(-offset)
        self.clock_shifted_s = 0.0
        return offset

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            stop_process(self.process, grace_s=2.0)
        finally:
            shutil.rmtree(self.base_dir, ignore_errors=True)

    # ---- bring-up -------------------------------------------------------------------------------

    def _qemu_argv(self) -> list[str]:
        kernel = self.kernel
        if kernel is None:
            raise InfraError("the lab node's kernel is not ready")
        append = f"console=ttyS0 pci=nomsi panic=-1 quiet loglevel=4 ssdprof.lab={self.base_dir}"
        argv = [
            which("qemu-system-x86_64") or "qemu-system-x86_64",
            "-machine",
            "q35,accel=tcg",
            "-cpu",
            "max",
            "-smp",
            str(self.cpus),
            "-m",
            str(self.memory_mib),
            "-display",
            "none",
            "-no-reboot",
            "-serial",
            f"file:{self.console_path}",
            "-monitor",
            "none",
            "-qmp",
            f"unix:{self.qmp_path},server=on,wait=off",
            "-kernel",
            str(kernel.vmlinuz),
            "-initrd",
            str(kernel.initramfs),
            "-append",
            append,
            "-virtfs",
            "local,path=/,mount_tag=root,security_model=none,readonly=on,id=rootfs",
            "-virtfs",
            f"local,path={kernel.modules_dir},mount_tag=modules,security_model=none,"
            "readonly=on,id=modfs",
            "-netdev",
            f"user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:{self.port}-:22",
            "-device",
            "virtio-net-pci,netdev=net0,romfile=",
            # The NVMe controller sits behind a PCIe root port, as on a real board: on the root
            # complex
            # itself its link reads "Unknown"; here QEMU's NVMe reports 2.5 GT/s x1.
            "-device",
            "pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1",
        ]
        for disk in (
            DISKS
        ):  # QEMU's default cache (the host's page cache): reads of the sparse files' holes stay
            # fast; with cache=none a first pass over a hole ran at a few hundred IOPS, below the
            # throttle
            drive = f"file={self.base_dir / disk.drive}.img,if=none,id={disk.drive},format=raw"
            if disk.drive == "thr0":
                drive += f",throttling.iops-total={self.throttle_iops}"
            argv += ["-drive", drive, "-device", _device(disk)]
        return argv

    def _write_ssh_files(self) -> None:
        client = self.identity_path.parent
        client.mkdir()
        host_key = self.base_dir / "ssh_host_ed25519_key"
        for path, comment in (
            (self.identity_path, "ssdprof-lab-client"),
            (host_key, "ssdprof-lab1"),
        ):
            run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)])
        (self.base_dir / "authorized_keys").write_text(
            self.identity_path.with_suffix(".pub").read_text()
        )
        (self.base_dir / "hostname").write_text(self.alias + "\n")
        (self.base_dir / "sshd_config").write_text(
            "".join(
                f"{line}\n"
                for line in (
                    "Port 22",
                    f"HostKey {host_key}",
                    "PidFile /run/sshd.pid",
                    f"AuthorizedKeysFile {self.base_dir / 'authorized_keys'}",
                    "PermitRootLogin prohibit-password",
                    "PasswordAuthentication no",
                    "KbdInteractiveAuthentication no",
                    "UsePAM no",
                    "StrictModes no",
                    "UseDNS no",
                    "PrintMotd no",
                    "PrintLastLog no",
                    "MaxStartups 100",
                    "MaxSessions 100",
                    "Subsystem sftp internal-sftp",
                )
            )
        )
        public = " ".join(host_key.with_suffix(".pub").read_text().split()[:2])
        self.known_hosts_path.write_text(f"[127.0.0.1]:{self.port} {public}\n")
        self.ssh_config_path.write_text(
            "# Written by ssdprof's test infrastructure (engine/tests/infra/lab_node.py)\n"
            f"Host {self.alias}\n  HostName 127.0.0.1\n  Port {self.port}\n  User root\n"
            f"  IdentityFile {self.identity_path}\n  IdentitiesOnly yes\n"
            f"  UserKnownHostsFile {self.known_hosts_path}\n  GlobalKnownHostsFile /dev/null\n"
            "  StrictHostKeyChecking yes\n  UpdateHostKeys no\n  BatchMode yes\n"
            "  ConnectTimeout 20\n"
        )

    def _wait_for_ssh(self, deadline: float) -> None:
        while True:
            if self.process is None or self.process.poll() is not None:
                raise InfraError(f"the lab node's QEMU ended: {self._log_tail()}")
            done = subprocess.run(
                self.ssh_argv(["true"]), capture_output=True, text=True, timeout=60, check=False
            )
            if done.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise InfraError(
                    f"the lab node did not answer ssh within {BOOT_TIMEOUT_S:.0f} s: "
                    f"{done.stderr.strip()[-200:]}; console: {self._log_tail()}"
                )
            time.sleep(1.0)

    def _log_tail(self) -> str:
        texts = [
            path.read_text(errors="replace")[-1500:]
            for path in (self.base_dir / "qemu.log", self.console_path)
            if path.exists()
        ]
        return " | ".join(text.strip() for text in texts if text.strip()) or "no output"


def _device(disk: LabDisk) -> str:
    if disk.interface == "NVMe":
        return f"nvme,drive={disk.drive},serial={disk.serial},id={disk.drive}-dev,bus=rp1"
    if disk.interface == "SATA":  # q35's own AHCI controller (ich9-ahci), port 0
        return (
            f"ide-hd,drive={disk.drive},bus=ide.0,model={SATA_MODEL},serial={disk.serial},"
            "rotation_rate=1,"
            f"id={disk.drive}-dev"
        )  # rotation rate 1: a solid-state disk
    return f"virtio-blk-pci,drive={disk.drive},serial={disk.serial},id={disk.drive}-dev"


def _qmp_answer(stream: Any) -> Any:
    """The next answer on a QMP stream, past any events."""
    while True:
        line = stream.readline()
        if not line:
            raise InfraError("QMP closed the connection")
        message = json.loads(line)
        if "error" in message:
            raise InfraError(f"QMP: {message['error'].get('desc', message['error'])}")
        if "return" in message or "QMP" in message:
            return message.get("return", message)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def lab_node(throttle_iops: int = 1000) -> Iterator[LabNode]:
    """A booted lab node, gone (QEMU stopped, disks deleted) when the block ends.

    Raises InfraUnavailable."""
    reason = lab_unavailable_reason()
    if reason:
        raise InfraUnavailable(reason)
    node = LabNode(throttle_iops=throttle_iops)
    try:
        node.start()
        yield node
    finally:
        node.close()


@pytest.fixture(scope="session")
def lab_node_session() -> Iterator[LabNode]:
    """One guest for the session, made on first use and stopped after the last test that uses it."""
    try:
        with lab_node() as node:
            close_after_last_user("lab_node_session", node.close)
            yield node
    except InfraUnavailable as reason:
        pytest.skip(str(reason))


LAB_ENV = "SSDPROF_LAB"
"""Set to 1 to run every lab-node test (``npm run test:lab``). A guest under TCG on 2 cores takes
tens of minutes for the whole set (boot ~20 s, then whole-device sweeps, RAID and LVM stacks,
calibration and clocks), beyond what ``npm test`` may take. ``npm test`` boots the node and runs
the tests marked ``lab_quick`` (a point or two each: every controller measured and named, the
throttled disk's known rate, a guest clock ahead, the drive's own word over SSH; a sustained
write's cliff and recovery, about 100 s); every run says how many it left out and how to run
them."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get(LAB_ENV) == "1":
        return
    lab = [item for item in items
           if "lab_node_session" in getattr(item, "fixturenames", ()) and item.get_closest_marker("lab_quick") is None]
    if lab:
        config.hook.pytest_deselected(items=lab)
        items[:] = [item for item in items if item not in lab]
        config.stash[_LEFT_OUT] = len(lab)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    left_out = config.stash.get(_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(
            f"lab node: {left_out} test(s) on a QEMU guest not run here; run them with "
            f"`npm run test:lab` ({LAB_ENV}=1)")


_LEFT_OUT = pytest.StashKey[int]()


__all__ = [
    "DISKS",
    "LAB_ENV",
    "SATA_MODEL",
    "LabDisk",
    "LabNode",
    "lab_node",
    "lab_node_session",
    "lab_unavailable_reason",
]
