"""Where each host's I/O goes: a test file in its folder (laid out by its keeper, removed after the sweep, or from a
lost host by the next run reaching it), an RBD image, or a block device the host itself describes."""

from __future__ import annotations

import os
import secrets
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import WorkloadError
from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.keeper import Keepers
from ssdprof.remote.leftovers import Leftovers
from ssdprof.remote.options import RemoteOptions
from ssdprof.remote.ssh import Ssh
from ssdprof.target.devices import BlockDevice, device_problems, parse_probe, probe_script
from ssdprof.target.plan import TEST_FILE_PREFIX, widest

__all__ = ["HostTargets"]

_DEVICE_PROBE_TIMEOUT_S = 90.0
"""The device probe starts dozens of small programs: an emulated host under load took over 30 s."""


@dataclass
class HostTargets:
    """Each host's target for the sweep, by host name, and the test files that may exist until removed."""

    options: RemoteOptions
    ssh: Ssh
    keepers: Keepers
    leftovers: Leftovers
    by_host: dict[str, str] = field(default_factory=dict)
    to_remove: dict[str, str] = field(default_factory=dict)
    """The test files that may exist, by host: set before the layout starts, each dropped once removed."""

    @property
    def laid_out(self) -> dict[str, str]:
        """What prepare wrote before the first point, by host: test files and RBD images, never a
        device."""
        devices = self.options.devices
        return {name: target for name, target in self.by_host.items() if name not in devices}

    def choose(self, host: HostAddress) -> str:
        """The host's test file (kept and removed by its keeper), or '' for an RBD image or a device (never removed)."""
        rbd = self.options.rbd
        if rbd is not None:
            self.by_host[host.name] = f"{rbd.pool}/{rbd.image_for(host.name)}"
            return ""
        if host.name in self.options.devices:
            self.by_host[host.name] = self.options.devices[host.name]
            return ""
        directory = self.options.target_dirs.get(host.name, self.options.target_dir)
        path = f"{directory.rstrip('/')}/{TEST_FILE_PREFIX}{os.getpid()}-{secrets.token_hex(4)}.dat"
        self.by_host[host.name] = path
        return path

    def layout_argv(self, host: HostAddress, size_bytes: int) -> list[str]:
        rbd = self.options.rbd
        if rbd is not None:
            return ["env", *rbd.env(), "fio", "--name=layout", "--ioengine=rbd", *(f"--{o}" for o in rbd.fio_options(host.name)),
                    f"--size={size_bytes}", "--rw=write", "--bs=4M", "--iodepth=8", "--output-format=json"]
        path = self.by_host[host.name]
        if host.name in self.options.devices:
            return ["true"]  # a device is measured as it is
        return ["fio", "--name=layout", f"--filename={path.replace(':', chr(92) + ':')}", f"--size={size_bytes}", "--rw=write",
                "--bs=1M", "--ioengine=psync", "--direct=1", "--refill_buffers=1", "--end_fsync=1", "--output-format=json"]

    def counted(self, host: HostAddress) -> str:
        """The file or device whose disk counts this host's I/O: '' for an RBD image (librbd: no block device)."""
        return "" if self.options.rbd is not None else self.by_host[host.name]

    def check_devices(self, spec: SweepSpec) -> list[BlockDevice]:
        """Each host's block device described by the host itself (device_probe.sh) and judged by the local rules."""
        hosts = [host for host in self.options.hosts if host.name in self.options.devices]
        with ThreadPoolExecutor(max_workers=min(len(hosts), 16) or 1) as pool:  # every host asked at once
            found = list(pool.map(self._device_of, hosts))
        region = widest(spec.points)
        problems = [problem.model_copy(update={"message": f"{host.name}: {problem.message}"})
                    for host, device in zip(hosts, found, strict=True) for problem in device_problems(device, region)]
        if problems:
            raise WorkloadError(problems)
        return found

    def _device_of(self, host: HostAddress) -> BlockDevice:
        path = self.options.devices[host.name]
        done = self.ssh.run(host, ["sh", "-c", probe_script(), "device_probe", path], timeout_s=_DEVICE_PROBE_TIMEOUT_S)
        return parse_probe(path, done.stdout or f"error={done.stderr.strip()[:300]}")

    def remove_all(self) -> list[str]:
        """Remove every test file we created, on all hosts at once; returns why that failed where it did."""
        names = list(self.to_remove)
        with ThreadPoolExecutor(max_workers=min(len(names), 16) or 1) as pool:
            problems = list(pool.map(self.remove, names))
        return [problem for problem in problems if problem]

    def remove(self, name: str) -> str | None:
        """The keeper removes the file; when it is gone, a plain rm; when the host is gone too, the next run does it."""
        path = self.to_remove.pop(name, None)
        if path is None:
            return None
        host = next(h for h in self.options.hosts if h.name == name)
        keeper = self.keepers.by_host.get(name)
        if keeper is not None and keeper.remove():
            return None
        try:
            done = self.ssh.run(host, ["rm", "-f", "--", path], timeout_s=20)
            if done.returncode == 0:
                return None
            reason = (done.stderr.strip().splitlines() or [f"rm exit status {done.returncode}"])[-1]
        except (HostError, OSError, subprocess.TimeoutExpired) as exc:
            reason = str(exc)
        self.leftovers.add(self.ssh.destination(host), path)
        return f"{name}: could not remove its test file {path} ({reason}); the next run that reaches {name} removes it"
