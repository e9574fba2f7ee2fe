"""The engine that measures a point: fio where it is installed and usable, else the portable engine,
or the one the user chose, with the reason either way."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ssdprof.fio.runner import FioEngine, detect_fio
from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.workload import FIELD_RULES, EngineChoice, FieldProblem, Workload, WorkloadError
from ssdprof.portable import PortableUnavailable, portable_engine

__all__ = ["EngineUnavailable", "LocalEngine", "PointEngine", "choose_engine"]


class EngineUnavailable(WorkloadError):
    pass


class PointEngine(Protocol):
    name: str
    reason: str

    @property
    def tool_versions(self) -> dict[str, str]: ...

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement: ...


class LocalEngine(PointEngine, Protocol):
    """An engine that measures on this machine, where it also lays out the test file (hosts lay out their own)."""

    def layout(self, path: Path, size_bytes: int, *, direct: bool) -> float: ...


def choose_engine(choice: EngineChoice, fio_executable: str = "fio") -> LocalEngine:
    """fio where it is installed; the portable engine when asked for, or when fio is missing."""
    fio = detect_fio(fio_executable) if choice is not EngineChoice.PORTABLE else None
    if fio is not None:
        reason = "fio was requested" if choice is EngineChoice.FIO else f"fio found at {fio.path}"
        return FioEngine(fio, reason)
    if choice is EngineChoice.FIO:
        raise _engine_error("fio is not installed (not on PATH); install it (apt install fio, brew install fio, "
                            "winget install fio) or use --engine portable")
    reason = "the portable engine was requested" if choice is EngineChoice.PORTABLE else "fio is not installed"
    try:
        return portable_engine(reason)
    except PortableUnavailable as exc:
        raise _engine_error(str(exc)) from None


def _engine_error(message: str) -> EngineUnavailable:
    return EngineUnavailable([FieldProblem(field="engine", flag=FIELD_RULES["engine"][0], message=message)])
