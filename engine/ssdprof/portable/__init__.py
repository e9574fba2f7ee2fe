"""The portable fallback engine: device-true numbers where fio is missing."""

from __future__ import annotations

__all__ = ["PortableUnavailable", "portable_engine"]


class PortableUnavailable(RuntimeError):
    pass


def portable_engine(reason: str) -> object:
    raise PortableUnavailable("the portable engine is not available in this build; install fio and use --engine fio")
