"""The lab node's kernel and initramfs (infra.lab_node): Debian's full ``linux-image-<ver>-amd64``,
fetched with ``apt-get download`` and unpacked with ``dpkg-deb -x`` (not installed), its modules
indexed with ``depmod -b``, and a busybox-static initramfs holding ``lab_node_init.sh`` and the
modules stage 1 loads. Both are kept in a cache folder keyed by the kernel's version (and the
initramfs by its init's text), so only the first test session on a machine pays for them (~5 s).

The full flavour, not ``cloud``: the cloud kernel has no AHCI. PYTEST_DONT_REWRITE: no asserts.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import InfraError, InfraUnavailable, run, which

CACHE_DIR = Path(os.environ.get("SSDPROF_LAB_CACHE", "/var/cache/ssdprof-lab"))
"""Where kernels and initramfs images are kept between sessions (SSDPROF_LAB_CACHE overrides)."""
INIT_SCRIPT = Path(__file__).with_name("lab_node_init.sh")
STAGE1_MODULES = (
    "virtio_ring",
    "virtio",
    "virtio_pci_legacy_dev",
    "virtio_pci_modern_dev",
    "virtio_pci",
    "netfs",
    "fscache",
    "9pnet",
    "9pnet_virtio",
    "9p",
    "overlay",
)
"""What stage 1 loads, in this order (each after what it needs), from the initramfs's /modules."""


@dataclass(frozen=True)
class GuestKernel:
    version: str
    vmlinuz: Path
    modules_dir: Path
    """lib/modules/VERSION, indexed by depmod: shared with the guest over 9p."""
    initramfs: Path


def guest_kernel(cache_dir: Path = CACHE_DIR) -> GuestKernel:
    """The newest linux-image-<ver>-amd64 the package sources offer, unpacked and ready (cached)."""
    package = _kernel_package()
    version = package.removeprefix("linux-image-")
    folder = cache_dir / version
    with _locked(cache_dir):
        if not (folder / "unpacked.ok").exists():
            _unpack(package, folder)
        kernel = GuestKernel(
            version=version,
            vmlinuz=folder / "root" / "boot" / f"vmlinuz-{version}",
            modules_dir=folder / "root" / "lib" / "modules" / version,
            initramfs=folder / f"initramfs-{_init_digest()}.cpio.gz",
        )
        if not kernel.initramfs.exists():
            _build_initramfs(kernel)
    return kernel


def _kernel_package() -> str:
    done = run(["apt-cache", "depends", "linux-image-amd64"], check=False)
    names = [
        line.split(":", 1)[1].strip()
        for line in done.stdout.splitlines()
        if line.strip().startswith("Depends:")
    ]
    image = next((n for n in names if n.startswith("linux-image-") and n.endswith("-amd64")), None)
    if image is None:
        raise InfraUnavailable(
            "the lab node needs Debian's kernel package linux-image-amd64 in the package sources "
            "(apt-cache depends linux-image-amd64 said: "
            f"{(done.stdout or done.stderr).strip()[:200]}); "
            "run apt-get update"
        )
    return image


def _unpack(package: str, folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    download = folder / "download"
    download.mkdir(parents=True)
    os.chmod(download, 0o777)  # apt's sandbox user _apt writes there
    fetched = subprocess.run(
        ["apt-get", "download", package],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=download,
        check=False,
    )
    debs = sorted(download.glob("*.deb"))
    if fetched.returncode != 0 or not debs:
        raise InfraUnavailable(
            f"the lab node's kernel: apt-get download {package} failed "
            f"({fetched.stderr.strip()[-300:]}); it needs the Debian package sources"
        )
    run(["dpkg-deb", "-x", str(debs[0]), str(folder / "root")], timeout=300)
    version = package.removeprefix("linux-image-")
    run(["depmod", "-b", str(folder / "root"), version], timeout=300)
    for deb in debs:
        deb.unlink()
    (folder / "unpacked.ok").write_text(package + "\n")


def _init_digest() -> str:
    return hashlib.sha256(INIT_SCRIPT.read_bytes()).hexdigest()[:12]


def _build_initramfs(kernel: GuestKernel) -> None:
    busybox = which("busybox")
    if busybox is None or "not a dynamic executable" not in _ldd(busybox):
        raise InfraUnavailable("the lab node needs busybox-static (scripts/setup.sh installs it)")
    with tempfile.TemporaryDirectory(dir=kernel.initramfs.parent) as staging:
        root = Path(staging)
        (root / "bin").mkdir()
        (root / "modules").mkdir()
        shutil.copy2(busybox, root / "bin" / "busybox")
        os.symlink("busybox", root / "bin" / "sh")
        shutil.copy2(INIT_SCRIPT, root / "init")
        os.chmod(root / "init", 0o755)
        found = {path.name.removesuffix(".ko"): path for path in kernel.modules_dir.rglob("*.ko")}
        for module in STAGE1_MODULES:
            if module in found:  # some are built in, depending on the kernel's configuration
                shutil.copy2(found[module], root / "modules" / f"{module}.ko")
        names = subprocess.run(
            ["find", ".", "-print0"], cwd=root, capture_output=True, check=True
        ).stdout
        archive = subprocess.run(
            ["cpio", "--null", "-o", "-H", "newc", "--quiet"],
            cwd=root,
            input=names,
            capture_output=True,
            check=True,
        ).stdout
        partial = kernel.initramfs.with_suffix(".partial")
        partial.write_bytes(
            subprocess.run(["gzip", "-1"], input=archive, capture_output=True, check=True).stdout
        )
        partial.rename(kernel.initramfs)


def _ldd(binary: str) -> str:
    try:
        done = subprocess.run(["ldd", binary], capture_output=True, text=True, check=False)
        return done.stdout + done.stderr
    except OSError:
        return ""


@contextmanager
def _locked(cache_dir: Path) -> Iterator[None]:
    """One test session at a time fills the cache (CI runs may overlap on a machine)."""
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InfraUnavailable(
            f"the lab node's kernel cache {cache_dir} cannot be made: {error}; "
            "set SSDPROF_LAB_CACHE to a writable folder"
        ) from error
    with open(cache_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


__all__ = ["CACHE_DIR", "GuestKernel", "InfraError", "guest_kernel"]
