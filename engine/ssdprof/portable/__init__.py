"""The portable fallback engine: device-true numbers where fio is missing.

Its I/O loop is the compiled ``ssdprof-io`` (``engine/native/``), built where a C compiler is
installed and bundled with the frozen engine, started like fio (:mod:`ssdprof.portable.native_run`).
Where none runs, the Python loop (stdlib, numpy, psutil; ctypes on Windows) measures as the last
resort and each run says so. The engine itself is imported on first use: the Python loop's worker
processes import only the modules they run, which keeps their start-up (``spawn``) short.
"""

from __future__ import annotations

import os
import platform
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ssdprof.portable.engine import PortableEngine

__all__ = ["SUPPORTED_SYSTEMS", "PortableUnavailable", "portable_engine"]

SUPPORTED_SYSTEMS = ("Linux", "Darwin", "Windows")


class PortableUnavailable(RuntimeError):
    pass


def portable_engine(reason: str) -> PortableEngine:
    """The portable engine for this OS; PortableUnavailable says why not, where it cannot run."""
    system = platform.system()
    if system not in SUPPORTED_SYSTEMS:
        raise PortableUnavailable(f"the portable engine supports Linux, macOS and Windows, not {system or 'this OS'}; "
                                  "install fio and use --engine fio")
    if system != "Windows" and not hasattr(os, "pwrite"):
        raise PortableUnavailable("this Python has no positional I/O (os.pread/os.pwrite); install fio and use --engine fio")
    from ssdprof.portable.engine import PortableEngine

    return PortableEngine(reason, system=system)
