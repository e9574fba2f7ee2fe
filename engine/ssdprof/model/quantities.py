"""Sizes and durations as people type them: ``4k``, ``128KiB``, ``1MiB``, ``5s``, ``2m``.

Binary prefixes are the storage convention (fio agrees: ``4k`` is 4096 bytes); a
decimal ``MB``/``GB`` is accepted only when spelled with the ``B`` and means 10^6/10^9.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated

from pydantic import BeforeValidator, WithJsonSchema

__all__ = ["Count", "SizeBytes", "format_amount", "format_bytes", "format_duration", "format_elapsed", "format_size",
           "parse_count", "parse_duration_s", "parse_size_bytes"]

_BINARY = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}
_DECIMAL = {"kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "pb": 10**15}
_SIZE_RE = re.compile(r"\s*([0-9]{1,30}(?:\.[0-9]{1,30})?)\s*([a-zA-Z]*)\s*", re.ASCII)
_COUNT_RE = re.compile(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([kKmMgG]?)\s*", re.ASCII)
_COUNT_FACTORS = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9}
_TIME_UNITS_S = {"": 1.0, "s": 1.0, "sec": 1.0, "ms": 0.001, "m": 60.0, "min": 60.0, "h": 3600.0}


def parse_size_bytes(text: str | int) -> int:
    """Parse ``4k``/``4KiB``/``4K`` (4096), ``1MB`` (10^6) or a plain byte count."""
    if isinstance(text, int):
        return text
    match = _SIZE_RE.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a size; use a number with an optional unit like 4k, 128KiB, 1MiB, 1GiB")
    number, unit = match.group(1), match.group(2).lower()
    if unit in _DECIMAL:
        factor = _DECIMAL[unit]
    else:
        unit = unit.removesuffix("ib").removesuffix("b") if unit not in ("", "b") else ""
        if unit not in _BINARY:
            raise ValueError(f"{text!r} has an unknown size unit; use k, KiB, M, MiB, G, GiB (1024-based) or KB, MB, GB (1000-based)")
        factor = _BINARY[unit]
    value = Fraction(number) * factor  # exact: 1.5k is 1536, and no float overflow on absurd input
    if value.denominator != 1:
        raise ValueError(f"{text!r} is not a whole number of bytes")
    return int(value)


def parse_duration_s(text: str | float | int) -> float:
    """Parse ``5``, ``5s``, ``500ms``, ``2m`` or ``1h`` into seconds."""
    if isinstance(text, (int, float)):
        return float(text)
    match = _SIZE_RE.fullmatch(text)
    unit = match.group(2).lower() if match else None
    if not match or unit not in _TIME_UNITS_S:
        raise ValueError(f"{text!r} is not a duration; use seconds or a unit like 5s, 500ms, 2m")
    return float(match.group(1)) * _TIME_UNITS_S[unit]


def parse_count(text: str | float | int) -> float:
    """Parse a count as people write IOPS: ``155000``, ``155k``, ``1.2M`` (decimal: k is 1000)."""
    if isinstance(text, (int, float)):
        return float(text)
    match = _COUNT_RE.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a number; write it like 155000, 155k or 1.2M")
    return float(match.group(1)) * _COUNT_FACTORS[match.group(2).lower()]


_SPELLINGS = sorted((("TiB", 1 << 40), ("TB", 10**12), ("GiB", 1 << 30), ("GB", 10**9), ("MiB", 1 << 20),
                     ("MB", 10**6), ("KiB", 1 << 10), ("kB", 10**3)), key=lambda unit: -unit[1])


def format_size(n_bytes: int) -> str:
    """The exact spelling in the largest unit, binary or decimal, that holds the size whole: 4096 ->
    '4KiB', 10**13 -> '10TB' (not '9765625000KiB'), 1536 -> '1536B'; it reads back as the same size."""
    for suffix, factor in _SPELLINGS:
        if n_bytes >= factor and n_bytes % factor == 0:
            return f"{n_bytes // factor}{suffix}"
    return f"{n_bytes}B"


def format_bytes(n_bytes: float | None) -> str:
    """A byte count in binary units with two decimals: '12.35 GiB', '–' for none (the renderer's formatBytes)."""
    if n_bytes is None:
        return "–"
    for suffix, factor in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= factor:
            return f"{n_bytes / factor:,.2f} {suffix}"
    return f"{n_bytes:.0f} B"


def format_amount(n_bytes: float) -> str:
    """An amount measured or estimated, not a size typed: decimal units, three significant figures
    (1.14 GB, 650 MB; under 1 MB in bytes)."""
    return next((f"{n_bytes / scale:.3g} {unit}" for scale, unit in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"))
                 if n_bytes >= scale), f"{n_bytes:,.0f} B")


def format_number(value: float) -> str:
    """Four significant digits without scientific notation: 98,123 / 560.1 / 0.01234."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:,.4g}"


def format_elapsed(seconds: float) -> str:
    """A measured time: two figures under 10 s (a 32 MiB write took 0.4s, not "0s"), else as
    :func:`format_duration`."""
    if seconds >= 9.95 or seconds <= 0:
        return format_duration(seconds)
    return f"{float(f'{seconds:.2g}'):g}s"


def format_duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def _typed_size(value: object) -> object:
    return parse_size_bytes(value) if isinstance(value, str) else value


SizeBytes = Annotated[int, BeforeValidator(_typed_size),
                      WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "string"}]}, mode="validation")]
"""A byte count in a model, accepted as typed (``4k``, ``1MiB``) and parsed here, the one place sizes are read:
clients send what the user typed and get the engine's message naming the field when it is not a size."""


def _typed_count(value: object) -> object:
    return parse_count(value) if isinstance(value, str) else value


Count = Annotated[float, BeforeValidator(_typed_count),
                  WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "string"}]}, mode="validation")]
"""A count in a model (IOPS), accepted as typed (``155k``, ``1.2M``) and parsed here, as sizes are:
the CLI's ``--point 'iops=155k'`` and the app's field read the same rule."""
