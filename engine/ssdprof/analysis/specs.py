"""Vendor spec sheets: load and validate them, match a drive to one, and say how far a run got.

A spec file is JSON (schema in ``assets/specs/README.md``); the bundled library ships in
``assets/specs`` and a user folder (``platformdirs.user_data_dir("ssdprof")/specs``; both named by
:mod:`ssdprof.analysis.spec_folders`) adds to or overrides it by ``id``. Folders are passed in, never read from globals.

Rated figures keep the unit the datasheet used and are normalised in one place,
:attr:`Figure.canonical_value`: MB/s and GB/s are decimal (10^6, 10^9 bytes/s), MiB/s and GiB/s
binary. "% of spec" lives in :mod:`ssdprof.analysis.spec_comparison`.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    computed_field,
    field_validator,
    model_validator,
)

from ssdprof.model.quantities import SizeBytes
from ssdprof.model.value import Entered

__all__ = [
    "ACCESS_NAMES", "UNITS", "Access", "Figure", "Interface", "Spec", "SpecError", "delete_spec", "load_spec_file", "write_spec",
]

SCHEMA_VERSION = 1
_BYTES_PER_S = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": float(1 << 20), "GiB/s": float(1 << 30)}
_NS = {"us": 1e3, "ms": 1e6}
UNITS = (*_BYTES_PER_S, "IOPS", *_NS)
"""Every unit a rated figure may be given in, as datasheets write them."""
Typed = WithJsonSchema({"anyOf": [{"type": "number"}, {"type": "string"}]}, mode="validation")
"""A number a form may send as the user typed it ("32"): pydantic reads it, and names the field if
it cannot."""


class Interface(str, enum.Enum):
    SATA = "SATA"
    NVME = "NVMe"
    PCIE = "PCIe"
    SAS = "SAS"


class Access(str, enum.Enum):
    SEQ_READ = "seq_read"
    SEQ_WRITE = "seq_write"
    RAND_READ = "rand_read"
    RAND_WRITE = "rand_write"
    RAND_MIXED = "rand_mixed"


ACCESS_NAMES = {Access.SEQ_READ: "sequential read", Access.SEQ_WRITE: "sequential write",
                Access.RAND_READ: "random read", Access.RAND_WRITE: "random write",
                Access.RAND_MIXED: "random mixed"}
"""How a rated access is named to a person (the app's lists, the CLI)."""


class SpecError(ValueError):
    """A spec file is unreadable or invalid; the message names the file and the field."""


class Figure(BaseModel):
    """One rated figure with the conditions it was rated under (None = the source does not say)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metric: Access
    value: Annotated[float, Typed] = Field(gt=0)
    unit: str = Field(description="MB/s, GB/s, MiB/s, GiB/s, IOPS, us or ms")
    block_size_bytes: SizeBytes | None = Field(default=None, ge=512)
    queue_depth: Annotated[int, Typed] | None = Field(default=None, ge=1)
    threads: Annotated[int, Typed] | None = Field(default=None, ge=1)
    read_pct: Annotated[int, Typed] | None = Field(default=None, ge=0, le=100,
                                                   description="only for rand_mixed")
    statistic: str = Field(default="up_to", description="up_to, typical, mean or a percentile such as p99.9")
    source: int = Field(default=0, ge=0, description="index into the spec's sources")
    note: str = ""

    @field_validator("unit")
    @classmethod
    def _known_unit(cls, unit: str) -> str:
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r}; use MB/s, GB/s, MiB/s, GiB/s, IOPS, us or ms")
        return unit

    @property
    def quantity(self) -> str:
        """bandwidth, iops or latency."""
        return "bandwidth" if self.unit in _BYTES_PER_S else "iops" if self.unit == "IOPS" else "latency"

    @property
    def canonical_value(self) -> float:
        """Bytes/s for bandwidth, I/O per second for IOPS, nanoseconds for latency."""
        if self.unit in _BYTES_PER_S:
            return self.value * _BYTES_PER_S[self.unit]
        return self.value * _NS[self.unit] if self.unit in _NS else self.value

    def conditions(self) -> str:
        size = f"{self.block_size_bytes // 1024} KiB" if self.block_size_bytes else "size not stated"
        qd = f"QD{self.queue_depth}" if self.queue_depth else "QD not stated"
        threads = f" x{self.threads} threads" if self.threads else ""
        mix = f" {self.read_pct}% read" if self.read_pct is not None else ""
        return f"{self.metric.value}{mix}, {size}, {qd}{threads}"


class Source(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    title: str = Field(min_length=1)
    url: str = ""
    kind: str = ""


class Spec(Entered):
    schema_version: int = SCHEMA_VERSION
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$", max_length=80)
    vendor: str = Field(min_length=1)
    model: str = Field(min_length=1)
    match_patterns: list[str] = Field(default_factory=list, description="model strings as OSes report them; * matches anything")
    capacity_bytes: SizeBytes | None = Field(default=None, gt=0, description="as typed: 960GB, 1TB")
    interface: Interface
    link: str = ""
    form_factor: str = ""
    figures: list[Figure] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    notes: str = ""
    endurance_tbw: float | None = Field(default=None, gt=0, description="rated endurance, terabytes (10^12 bytes) "
                                                                        "written; what a sustained-write test's wear is "
                                                                        "weighed against")

    @model_validator(mode="after")
    def _consistent(self) -> Spec:
        if self.schema_version != SCHEMA_VERSION:
            raise ValueError(f"schema_version {self.schema_version} is not supported (expected {SCHEMA_VERSION})")
        for index, figure in enumerate(self.figures):
            if figure.source >= len(self.sources):
                raise ValueError(f"figures[{index}].source = {figure.source} but only {len(self.sources)} source(s) are listed")
            if (figure.metric is Access.RAND_MIXED) != (figure.read_pct is not None):
                raise ValueError(f"figures[{index}]: read_pct is required for rand_mixed and only for it")
        return self

    @property
    def title(self) -> str:
        return f"{self.vendor} {self.model}"

    def figure_sourced(self, figure: Figure) -> bool:
        """Whether the figure names a public source (an http(s) URL) that the user can check."""
        return self.sources[figure.source].url.startswith(("http://", "https://"))

    @computed_field(description="no public source URL for the sheet or for one of its figures: % of spec cannot be checked")  # type: ignore[prop-decorator]
    @property
    def unsourced(self) -> bool:
        if not any(s.url.startswith(("http://", "https://")) for s in self.sources):
            return True
        return not all(self.figure_sourced(f) for f in self.figures)


def load_spec_file(path: Path) -> Spec:
    try:
        return Spec.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise SpecError(f"{path.name}: cannot read ({exc.strerror})") from None
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'file'}: {e['msg']}" for e in exc.errors())
        raise SpecError(f"{path.name}: {problems}") from None


def write_spec(spec: Spec, folder: Path) -> Path:
    """Save a (user) spec as ``<id>.json``; the folder is created if needed."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.id}.json"
    path.write_text(json.dumps(spec.model_dump(mode="json", exclude={"unsourced"}), indent=2, ensure_ascii=False) + "\n")
    return path


def delete_spec(spec_id: str, folder: Path) -> bool:
    """Remove a user spec; bundled specs live elsewhere and are never touched."""
    path = folder / f"{spec_id}.json"
    if not path.is_file():
        return False
    path.unlink()
    return True


# --- matching --------------------------------------------------------------------------------


