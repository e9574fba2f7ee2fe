"""The workload model: what to measure, validated once, with messages that name the field.

Every front end (CLI, RPC, GUI through the RPC) builds a :class:`Workload` from loose user
input with :func:`parse_workload`; a bad value raises :class:`WorkloadError` listing each
problem as ``field (--flag): what is allowed, and what was given``.
"""

from __future__ import annotations

import enum
import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, computed_field, field_validator, model_validator

from ssdprof.model.quantities import format_size, parse_duration_s, parse_size_bytes

__all__ = ["FIELD_RULES", "EngineChoice", "FieldProblem", "Pattern", "Workload", "WorkloadError", "parse_workload"]

MAX_BLOCK_SIZE_BYTES = 64 << 20
MAX_QUEUE_DEPTH = 4096
MAX_NUMJOBS = 256
MAX_RUNTIME_S = 7 * 24 * 3600.0
MAX_RATE_IOPS = 100_000_000


class Pattern(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    RANDREAD = "randread"
    RANDWRITE = "randwrite"
    RW = "rw"
    RANDRW = "randrw"

    @property
    def is_random(self) -> bool:
        return self in (Pattern.RANDREAD, Pattern.RANDWRITE, Pattern.RANDRW)

    @property
    def fixed_read_pct(self) -> int | None:
        """Pure patterns fix the mix; ``rw``/``randrw`` take it from ``read_pct``."""
        return {Pattern.READ: 100, Pattern.RANDREAD: 100, Pattern.WRITE: 0, Pattern.RANDWRITE: 0}.get(self)


class EngineChoice(str, enum.Enum):
    AUTO = "auto"
    FIO = "fio"
    PORTABLE = "portable"


class FieldProblem(BaseModel):
    model_config = ConfigDict(frozen=True)
    field: str
    flag: str
    message: str

    def __str__(self) -> str:
        return f"{self.field} ({self.flag}): {self.message}"


class WorkloadError(ValueError):
    """One or more workload fields are invalid; ``problems`` names each field."""

    def __init__(self, problems: list[FieldProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @classmethod
    def single(cls, field: str, flag: str, message: str) -> WorkloadError:
        return cls([FieldProblem(field=field, flag=flag, message=message)])


# field -> (CLI flag, what is allowed). Shared by messages, the CLI help and the RPC schema.
FIELD_RULES: dict[str, tuple[str, str]] = {
    "pattern": ("--rw", "one of read, write, randread, randwrite, rw, randrw"),
    "read_pct": ("--read-pct", "an integer percentage from 0 to 100 (only rw/randrw take a mix)"),
    "block_size_bytes": ("--bs", f"a multiple of 512 bytes from 512B to {format_size(MAX_BLOCK_SIZE_BYTES)}, e.g. 4k or 128KiB"),
    "queue_depth": ("--qd", f"an integer from 1 to {MAX_QUEUE_DEPTH}"),
    "numjobs": ("--jobs", f"an integer from 1 to {MAX_NUMJOBS}"),
    "runtime_s": ("--runtime", "a duration above 0 and at most 7 days, e.g. 30, 30s or 2m"),
    "ramp_s": ("--ramp", "a duration from 0 to 1 hour, e.g. 0, 2s"),
    "size_bytes": ("--size", "a multiple of 512 bytes, at least one block per job, e.g. 256MiB or 1GiB"),
    "offset_bytes": ("--offset", "where the region starts in a file or block device: a multiple of 512 bytes, e.g. 0 or 1GiB"),
    "target": ("--target", "a directory (a test file is created and removed), an existing file, or a block device"),
    "direct": ("--buffered", "true for device numbers (O_DIRECT); false only for an explicitly buffered run"),
    "engine": ("--engine", "one of auto, fio, portable"),
    "allow_overwrite": ("--allow-overwrite", "true to write into an existing file or a raw block device, destroying its contents"),
    "keep_file": ("--keep-file", "true to keep the test file after the run"),
    "rate_iops": ("--rate", "the offered load in I/O per second, all jobs and hosts together, with Poisson arrivals, "
                            f"at least one per job and at most {MAX_RATE_IOPS}; 0 runs as fast as the queue allows"),
}


class Workload(BaseModel):
    """One measurement point. Sizes in bytes, times in seconds; names carry the unit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pattern: Pattern = Pattern.RANDREAD
    read_pct: int = Field(default=100, ge=0, le=100)
    block_size_bytes: int = Field(default=4096, ge=512, le=MAX_BLOCK_SIZE_BYTES)
    queue_depth: int = Field(default=1, ge=1, le=MAX_QUEUE_DEPTH)
    numjobs: int = Field(default=1, ge=1, le=MAX_NUMJOBS)
    runtime_s: float = Field(default=10.0, gt=0, le=MAX_RUNTIME_S)
    ramp_s: float = Field(default=2.0, ge=0, le=3600.0)
    size_bytes: int = Field(default=256 << 20, ge=512)
    offset_bytes: int = Field(default=0, ge=0)
    target: str = Field(default="", max_length=4096)
    direct: bool = True
    engine: EngineChoice = EngineChoice.AUTO
    allow_overwrite: bool = False
    keep_file: bool = False
    rate_iops: int = Field(default=0, ge=0, le=MAX_RATE_IOPS,
                           description="offered I/O per second in all (Poisson arrivals); 0 = as fast as the queue allows")

    @model_validator(mode="before")
    @classmethod
    def _label_is_not_input(cls, data: Any) -> Any:
        """``label`` is computed; a workload sent back as it was received (stored sweeps, the GUI) may carry it."""
        if isinstance(data, dict) and "label" in data:
            data = {k: v for k, v in data.items() if k != "label"}
        return data

    @field_validator("block_size_bytes", "size_bytes", "offset_bytes")
    @classmethod
    def _multiple_of_sector(cls, value: int) -> int:
        if value % 512:
            raise ValueError("not a multiple of 512 bytes")
        return value

    @field_validator("target")
    @classmethod
    def _plain_path(cls, value: str) -> str:
        if "\x00" in value or "\n" in value:
            raise ValueError("contains a control character")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Workload:
        fixed = self.pattern.fixed_read_pct
        if fixed is not None and self.read_pct != fixed:
            raise ValueError(f"read_pct={self.read_pct} conflicts with pattern {self.pattern.value}; use rw or randrw for a mix")
        if self.size_bytes < self.block_size_bytes * self.numjobs:
            raise ValueError("size_bytes is smaller than one block per job")
        if 0 < self.rate_iops < self.numjobs:
            raise ValueError(f"rate_iops {self.rate_iops} is below one I/O per second per job ({self.numjobs} jobs)")
        return self

    @property
    def outstanding_ios(self) -> int:
        return self.queue_depth * self.numjobs

    @property
    def does_write(self) -> bool:
        return self.read_pct < 100

    def duration_s(self) -> float:
        return self.ramp_s + self.runtime_s

    def key(self) -> str:
        """A stable hash of the measured settings (not the target's cleanup options)."""
        # offset 0 and rate 0 left out: the hashes of runs stored before they existed stay the same
        fields = self.model_dump(mode="json", exclude={"keep_file", "allow_overwrite", "label",
                                                       *(() if self.offset_bytes else ("offset_bytes",)),
                                                       *(() if self.rate_iops else ("rate_iops",))})
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]

    @computed_field(description="e.g. 'randrw 70%R 4KiB QD32 T4': how every face names the point")  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        mix = "" if self.pattern.fixed_read_pct is not None else f" {self.read_pct}%R"
        rate = f" @{self.rate_iops} IOPS" if self.rate_iops else ""
        return f"{self.pattern.value}{mix} {format_size(self.block_size_bytes)} QD{self.queue_depth} T{self.numjobs}{rate}"


_FIELD_CONVERTERS: dict[str, Any] = {
    "block_size_bytes": parse_size_bytes,
    "size_bytes": parse_size_bytes,
    "offset_bytes": parse_size_bytes,
    "runtime_s": parse_duration_s,
    "ramp_s": parse_duration_s,
    "rate_iops": lambda text: int(text.strip()),
}


def parse_workload(raw: dict[str, Any], base: Workload | None = None) -> Workload:
    """Build a workload from loose input (strings with units allowed), naming every bad field."""
    values: dict[str, Any] = base.model_dump() if base else {}
    problems: list[FieldProblem] = []
    for name, value in raw.items():
        if name not in FIELD_RULES:
            problems.append(FieldProblem(field=name, flag="-", message=f"unknown field; known fields are {', '.join(FIELD_RULES)}"))
            continue
        converter = _FIELD_CONVERTERS.get(name)
        if converter is not None and isinstance(value, str):
            try:
                value = converter(value)
            except ValueError as exc:
                problems.append(_problem(name, f"{exc}", value))
                continue
        values[name] = value
    if "read_pct" not in raw and "pattern" in raw and not problems:
        values["read_pct"] = _default_read_pct(values["pattern"], base)
    if problems:
        raise WorkloadError(problems)
    try:
        return Workload.model_validate(values)
    except ValidationError as exc:
        raise WorkloadError([_from_pydantic(err, values) for err in exc.errors()]) from None


def _default_read_pct(pattern: Any, base: Workload | None) -> Any:
    """A pure pattern fixes the mix; a mixed one keeps the base's mix or fio's default of 50 %."""
    try:
        fixed = Pattern(pattern).fixed_read_pct
    except ValueError:
        return base.read_pct if base else 100  # the pattern's own error is reported instead
    if fixed is not None:
        return fixed
    if base is not None and base.pattern.fixed_read_pct is None:
        return base.read_pct
    return 50


def _problem(name: str, detail: str, value: Any) -> FieldProblem:
    flag, allowed = FIELD_RULES[name]
    return FieldProblem(field=name, flag=flag, message=f"must be {allowed}; got {value!r} ({detail})")


def _from_pydantic(err: Any, values: dict[str, Any]) -> FieldProblem:
    loc = err.get("loc") or ()
    name = str(loc[0]) if loc else ""
    if name in FIELD_RULES:
        detail = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        return _problem(name, detail, values.get(name))
    # A model-level rule: name the field the message is about.
    message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    field = next((f for f in FIELD_RULES if message.startswith(f)), "pattern")
    return FieldProblem(field=field, flag=FIELD_RULES[field][0], message=message)
