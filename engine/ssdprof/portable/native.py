"""Where the compiled I/O loop (``ssdprof-io``, built from ``engine/native/``) is, and whether it runs here.

Looked for, in order: ``$SSDPROF_NATIVE_IO`` (a path); beside the frozen engine's modules (the bundle
carries it, scripts/freeze-engine.sh); ``engine/native/build/`` in a checkout (scripts/setup.sh builds it
there with this machine's compiler). A program built for another OS or processor is named as such
(read from its header: ELF, PE or Mach-O) rather than started, so the run says why it fell back.
"""

from __future__ import annotations

import os
import platform
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LOOP_NATIVE", "LOOP_PYTHON", "NATIVE_ENV", "NativeBinary", "NativeUnavailable", "binary_machine", "choose_loop",
           "find_native", "this_machine"]

NATIVE_ENV = "SSDPROF_NATIVE_IO"
LOOP_NATIVE = "native"
LOOP_PYTHON = "python"
_FROZEN_FOLDER = "ssdprof_native"
_ELF_MACHINES = {0x3E: "x86-64", 0xB7: "arm64", 0x03: "x86", 0x28: "arm"}
_PE_MACHINES = {0x8664: "x86-64", 0xAA64: "arm64", 0x014C: "x86"}
_MACHO_CPUS = {0x01000007: "x86-64", 0x0100000C: "arm64"}
_OS_NAMES = {"Linux": "Linux", "Darwin": "macOS", "Windows": "Windows"}


class NativeUnavailable(RuntimeError):
    """No compiled loop runs here; the message says why (and the engine falls back, saying so)."""


@dataclass(frozen=True)
class NativeBinary:
    path: Path
    machine: tuple[str, str]
    """(OS, processor) it was built for, e.g. ("Linux", "x86-64")."""


def this_machine() -> tuple[str, str]:
    processor = platform.machine().lower()
    arch = {"x86_64": "x86-64", "amd64": "x86-64", "aarch64": "arm64", "arm64": "arm64"}.get(processor, processor)
    return _OS_NAMES.get(platform.system(), platform.system()), arch


def binary_machine(path: Path) -> tuple[str, str] | None:
    """(OS, processor) from an executable's header, or None when it is none of ELF, PE, Mach-O."""
    with path.open("rb") as file:
        head = file.read(4096)
    if head[:4] == b"\x7fELF" and len(head) >= 20:
        order = "<" if head[5] == 1 else ">"
        (machine,) = struct.unpack_from(order + "H", head, 18)
        return "Linux", _ELF_MACHINES.get(machine, f"machine {machine:#x}")
    if head[:2] == b"MZ" and len(head) >= 64:
        (pe_at,) = struct.unpack_from("<I", head, 0x3C)
        if head[pe_at : pe_at + 4] == b"PE\0\0":
            (machine,) = struct.unpack_from("<H", head, pe_at + 4)
            return "Windows", _PE_MACHINES.get(machine, f"machine {machine:#x}")
    if head[:4] in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe") and len(head) >= 8:
        (cpu,) = struct.unpack_from("<I", head, 4)
        return "macOS", _MACHO_CPUS.get(cpu, f"cpu {cpu:#x}")
    if head[:4] == b"\xca\xfe\xba\xbe":
        return "macOS", this_machine()[1] if this_machine()[0] == "macOS" else "universal"
    return None


def _candidates() -> list[Path]:
    name = "ssdprof-io.exe" if platform.system() == "Windows" else "ssdprof-io"
    if os.environ.get(NATIVE_ENV):
        return [Path(os.environ[NATIVE_ENV])]
    places = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        places.append(Path(bundle) / _FROZEN_FOLDER / name)
    places.append(Path(__file__).resolve().parents[2] / "native" / "build" / name)
    return places


def find_native() -> NativeBinary:
    """The compiled loop for this machine; NativeUnavailable says why there is none."""
    candidates = _candidates()
    for path in candidates:
        if not path.is_file():
            continue
        machine = binary_machine(path)
        here = this_machine()
        if machine is None:
            raise NativeUnavailable(f"{path} is not a program this engine can start (no ELF, PE or Mach-O header)")
        if machine != here:
            raise NativeUnavailable(f"{path} is built for {machine[0]} {machine[1]}, not this {here[0]} {here[1]} machine; "
                                    "rebuild it here: python engine/native/build.py (scripts/setup.sh does)")
        if platform.system() != "Windows" and not os.access(path, os.X_OK):
            raise NativeUnavailable(f"{path} is not executable (chmod +x it, or rebuild: python engine/native/build.py)")
        return NativeBinary(path, machine)
    where = " or ".join(str(p) for p in candidates)
    raise NativeUnavailable(f"no compiled I/O loop at {where}; scripts/setup.sh builds it where a C compiler is installed")


def choose_loop(asked: str | None) -> tuple[NativeBinary | None, str]:
    """The compiled loop to measure with (None: the Python loop) and, for the Python loop, why.

    ``asked`` None takes the compiled loop where one runs here; ``native`` insists on it (NativeUnavailable
    otherwise); ``python`` asks for the Python loop."""
    if asked == LOOP_PYTHON:
        return None, "the Python loop was requested"
    try:
        return find_native(), ""
    except NativeUnavailable as exc:
        if asked == LOOP_NATIVE:
            raise
        return None, str(exc)
