"""fio as found on this machine: its path, version and I/O engines, and the asynchronous engine
that works here for a workload (psync, with the queue depth as jobs, where none does)."""

from __future__ import annotations

import functools
import platform
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ssdprof.fio.jobfile import FioPlan
from ssdprof.model.workload import Workload

__all__ = ["FioInstall", "detect_fio", "plan_fio"]


@dataclass(frozen=True)
class FioInstall:
    path: str
    version: str
    engines: frozenset[str]


@functools.lru_cache(maxsize=8)
def detect_fio(executable: str = "fio") -> FioInstall | None:
    """The fio on PATH (or at ``executable``) with its version and I/O engines, or None."""
    path = shutil.which(executable)
    if path is None:
        return None
    try:
        version = _output(path, "--version").strip()
        enghelp = _output(path, "--enghelp")
    except (OSError, subprocess.TimeoutExpired):
        return None
    engines = frozenset(line.strip() for line in enghelp.splitlines()[1:] if line.strip())
    return FioInstall(path=path, version=version, engines=engines)


def _output(path: str, flag: str) -> str:
    done = subprocess.run([path, flag], capture_output=True, text=True, timeout=20, check=False)
    return done.stdout


_ASYNC_PREFERENCE = {"Linux": ("io_uring", "libaio"), "Darwin": ("posixaio",),
                     "Windows": ("windowsaio",)}


@functools.lru_cache(maxsize=16)
def _engine_works(fio_path: str, ioengine: str) -> bool:
    """Listed is not usable: io_uring is often blocked by seccomp in containers. Try it."""
    with tempfile.TemporaryDirectory(prefix="ssdprof-probe-") as scratch:
        probe = Path(scratch) / "probe"
        probe.write_bytes(b"\0" * 8192)
        args = [fio_path, "--name=probe", f"--filename={probe}", "--size=8k", "--rw=read",
                "--bs=4k", f"--ioengine={ioengine}", "--output-format=json"]
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0 and '"error" : 0' in done.stdout


def plan_fio(fio: FioInstall, workload: Workload, system: str | None = None) -> FioPlan:
    """io_uring/libaio on Linux, posixaio on macOS, windowsaio on Windows, else psync.

    psync ignores iodepth, so there the queue depth is realised as more jobs (QD x jobs).
    """
    system = system or platform.system()
    for engine in _ASYNC_PREFERENCE.get(system, ()):
        if engine in fio.engines and _engine_works(fio.path, engine):
            return FioPlan(engine, workload.queue_depth, workload.numjobs,
                           f"{engine}: the asynchronous engine for {system}")
    if workload.queue_depth == 1:
        return FioPlan("psync", 1, workload.numjobs,
                       "psync: no asynchronous engine works here; QD1 needs none")
    return FioPlan(
        "psync", 1, workload.outstanding_ios,
        f"psync: no asynchronous engine works here, so queue depth {workload.queue_depth} x "
        f"{workload.numjobs} job(s) runs as {workload.outstanding_ios} synchronous jobs at QD1",
    )
