"""The workload model: what to measure, validated once, with messages that name the field.

Every front end (CLI, RPC, GUI through the RPC) builds a :class:`Workload` from loose user
input with :func:`parse_workload`; bad values raise one :class:`WorkloadError` listing every
problem as ``field (--flag): the value, what is wrong, what is allowed, e.g. an example``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from pydantic import Field, ValidationError, computed_field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema

from ssdprof.model.labelled import Labelled
from ssdprof.model.problems import Choice, FieldProblem, FieldRule, WorkloadError, from_validation, problem, register
from ssdprof.model.quantities import format_size, parse_duration_s, parse_size_bytes
from ssdprof.model.value import Entered

__all__ = ["FIELD_RULES", "EngineChoice", "FieldProblem", "Pattern", "Workload", "WorkloadCheck", "WorkloadError",
           "check_workload", "parse_workload"]

MAX_BLOCK_SIZE_BYTES = 64 << 20
MAX_QUEUE_DEPTH = 4096
MAX_NUMJOBS = 256
MAX_RUNTIME_S = 7 * 24 * 3600.0
MAX_RATE_IOPS = 100_000_000


class Pattern(Labelled):
    # the value is fio's name, the label the name a form shows
    READ = "read", "sequential read"
    WRITE = "write", "sequential write"
    RANDREAD = "randread", "random read"
    RANDWRITE = "randwrite", "random write"
    RW = "rw", "sequential read/write mix"
    RANDRW = "randrw", "random read/write mix"

    @property
    def is_random(self) -> bool:
        return self in (Pattern.RANDREAD, Pattern.RANDWRITE, Pattern.RANDRW)

    @property
    def fixed_read_pct(self) -> int | None:
        """Pure patterns fix the mix; ``rw``/``randrw`` take it from ``read_pct``."""
        return {Pattern.READ: 100, Pattern.RANDREAD: 100, Pattern.WRITE: 0, Pattern.RANDWRITE: 0}.get(self)


class EngineChoice(Labelled):
    AUTO = "auto", "auto (fio where installed, else portable)"
    FIO = "fio", "fio"
    PORTABLE = "portable", "portable (ssdprof's own engine)"


def _choices(members: list[Pattern] | list[EngineChoice]) -> tuple[Choice, ...]:
    return tuple(Choice(value=member.value, label=member.label) for member in members)


def _listed(choices: tuple[Choice, ...]) -> str:
    values = [c.value for c in choices]
    return ", ".join(values[:-1]) + f" or {values[-1]}"


_PATTERNS = _choices([Pattern.RANDREAD, Pattern.RANDWRITE, Pattern.RANDRW, Pattern.READ, Pattern.WRITE,
                      Pattern.RW])  # random first, as a student meets them
_ENGINES = _choices(list(EngineChoice))
_SIZE_RANGE = f"512B to {format_size(MAX_BLOCK_SIZE_BYTES)} in multiples of 512 bytes"

# field -> its rule: the CLI flag, what is allowed, the name a person reads, an example; the choices
# of the fields that have a list. Shared by messages, the CLI help and the forms (engine.info).
FIELD_RULES: dict[str, FieldRule] = {
    "pattern": FieldRule("--rw", _listed(_PATTERNS), "pattern", "randread", _PATTERNS),
    "read_pct": FieldRule("--read-pct", "0 to 100 % reads (a read/write mix only)", "read share", "70"),
    "block_size_bytes": FieldRule("--bs", _SIZE_RANGE, "access size", "4k"),
    "queue_depth": FieldRule("--qd", f"1–{MAX_QUEUE_DEPTH}", "queue depth", "32"),
    "numjobs": FieldRule("--jobs", f"1–{MAX_NUMJOBS}", "jobs", "4"),
    "runtime_s": FieldRule("--runtime", "above 0 s and at most 7 days", "runtime", "30s"),
    "ramp_s": FieldRule("--ramp", "0 s to 1 hour", "ramp", "2s"),
    "size_bytes": FieldRule("--size", "a multiple of 512 bytes holding one access per job", "test size", "1GiB"),
    "offset_bytes": FieldRule("--offset", "a multiple of 512 bytes (a file or block device only)", "offset", "1GiB"),
    "target": FieldRule("--target", "an existing directory (a test file is created and removed), file or block device",
                        "target", "~/ssdtest"),
    "direct": FieldRule("--buffered", "true for device numbers (O_DIRECT); false for a buffered run", "direct I/O", "true"),
    "engine": FieldRule("--engine", _listed(_ENGINES), "engine", "auto", _ENGINES),
    "allow_overwrite": FieldRule("--allow-overwrite", "true to write into an existing file or block device, destroying "
                                                      "its contents", "allow overwrite", "false"),
    "keep_file": FieldRule("--keep-file", "true to keep the test file after the run", "keep file", "false"),
    "rate_iops": FieldRule("--rate", f"0 (as fast as the queue allows) or 1 per job up to {MAX_RATE_IOPS:,} I/O per second "
                                     "in all, Poisson arrivals", "offered rate", "5000"),
}
register(FIELD_RULES)


class Workload(Entered):
    """One measurement point. Sizes in bytes, times in seconds; names carry the unit."""

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
    io_bytes_limit: SkipJsonSchema[int | None] = Field(
        default=None, ge=512, description="stop once this many bytes are done (fio's io_size), runtime_s then only "
        "a cap: a sustained-write test's byte-bounded writes; set by the engine, not a field of the forms")

    @field_validator("block_size_bytes", "size_bytes", "offset_bytes")
    @classmethod
    def _multiple_of_sector(cls, value: int) -> int:
        if value % 512:
            raise ValueError(f"{value} bytes is not a multiple of 512 bytes")
        return value

    @field_validator("target")
    @classmethod
    def _plain_path(cls, value: str) -> str:
        if "\x00" in value or "\n" in value:
            raise ValueError("the path contains a control character")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Workload:
        # Each message starts with the field it is about, which is how from_validation names it.
        fixed = self.pattern.fixed_read_pct
        if fixed is not None and self.read_pct != fixed:
            raise ValueError(f"read_pct: {self.read_pct} % reads conflicts with {self.pattern.label}, which reads {fixed} %; "
                             "use rw or randrw (a read/write mix) for a share")
        if self.size_bytes < self.block_size_bytes * self.numjobs:
            raise ValueError(f"size_bytes: {format_size(self.size_bytes)} is smaller than one block per job "
                             f"({self.numjobs} × {format_size(self.block_size_bytes)}); e.g. 256MiB")
        if 0 < self.rate_iops < self.numjobs:
            raise ValueError(f"rate_iops: {self.rate_iops} is below one I/O per second per job ({self.numjobs} jobs); "
                             "give 0 for full speed or at least one per job")
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
}


@dataclass(frozen=True)
class WorkloadCheck:
    """Every problem of loose workload input at once, and the workload, or the nearest good one."""

    workload: Workload | None
    nearest: Workload
    """The given values that are good, defaults for the rest: what the target is checked with."""
    problems: list[FieldProblem]


def parse_workload(raw: dict[str, Any], base: Workload | None = None) -> Workload:
    """Build a workload from loose input (strings with units allowed), naming every bad field."""
    checked = check_workload(raw, base)
    if checked.workload is None:
        raise WorkloadError(checked.problems)
    return checked.workload


def check_workload(raw: dict[str, Any], base: Workload | None = None) -> WorkloadCheck:
    """Every field checked, whatever the others hold: a bad size does not hide a bad queue depth."""
    values: dict[str, Any] = base.model_dump() if base else {}
    problems: list[FieldProblem] = []
    bad: set[str] = set()
    for name, value in raw.items():
        if name not in FIELD_RULES:
            problems.append(FieldProblem(field=name, flag="-", message=f"is not a workload field; known fields are "
                                                                        f"{', '.join(FIELD_RULES)}"))
            continue
        converter = _FIELD_CONVERTERS.get(name)
        if converter is not None and isinstance(value, str):
            try:
                value = converter(value)
            except ValueError as exc:
                problems.append(problem(name, str(exc)))
                bad.add(name)
                continue
        values[name] = value
    if "read_pct" not in raw and "pattern" in raw:
        values["read_pct"] = _default_read_pct(values["pattern"], base)
    try:
        workload: Workload | None = Workload.model_validate(values)
    except ValidationError as exc:
        problems += from_validation(exc)
        bad |= {str(e["loc"][0]) for e in exc.errors() if e.get("loc")}
        workload = None
    if problems:
        return WorkloadCheck(None, _nearest(values, bad), problems)
    assert workload is not None
    return WorkloadCheck(workload, workload, [])


def _nearest(values: dict[str, Any], bad: set[str]) -> Workload:
    good = {k: v for k, v in values.items() if k not in bad}
    for attempt in (good, {k: good[k] for k in ("target", "size_bytes", "offset_bytes", "allow_overwrite") if k in good},
                    {k: good[k] for k in ("target",) if k in good}):
        try:
            return Workload.model_validate(attempt)
        except ValidationError:
            continue
    return Workload()


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
