"""Where an imported run came from: the tool and its version, the file and the part of it, and what
each figure was in the source, so a figure another tool measured is never read as one ssdprof did.

A figure the source did not give is not listed here, and its field in the run stays empty; a value
ssdprof had to set for the run to hold together (an I/O count from IOPS x the measured time, used
only to weigh means) is listed with ``derived`` set.
"""

from __future__ import annotations

import hashlib

from pydantic import Field

from ssdprof.model.value import Value

__all__ = ["ImportedPart", "Provenance", "SourceFigure"]


class SourceFigure(Value):
    field: str = Field(description="the run's field it became, e.g. read.iops or read.lat_ns.mean")
    source: str = Field(description="where it stood in the source, e.g. \"line 9: 'IOPS' of RND4K Q32T1\"")
    meaning: str = Field(default="", description="what the tool means by it, e.g. 'fio's clat mean: completion latency'")
    derived: bool = Field(default=False, description="set by ssdprof from the source's other figures, not given by it")


class ImportedPart(Value):
    """One part of an imported run the source counted apart (a diskspd thread on a target): its own
    counts, as given; latency only where the source gave it."""

    name: str
    read_ios: int = 0
    read_bytes: int = 0
    write_ios: int = 0
    write_bytes: int = 0
    read_lat_ns_mean: float | None = None
    write_lat_ns_mean: float | None = None


class Provenance(Value):
    tool: str = Field(description="the tool that measured, e.g. CrystalDiskMark, KDiskMark, elbencho, diskspd, cbt")
    tool_version: str = Field(default="", description="as the source names it; '' where it does not")
    file: str = Field(description="the file (or the tree's path to it) the run was read from")
    part: str = Field(description="which part of the file, e.g. 'line 9' or 'iteration 00000001, id-6d1b4c2a'")
    digest: str = Field(description="SHA-256 of the source's bytes this run was read from")
    latency: str = Field(description="what the source's latency is, in its own terms, e.g. 'completion "
                                     "latency (fio clat), mean only' or 'none measured'")
    figures: list[SourceFigure] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="what to know about the source's figures")
    parts: list[ImportedPart] = Field(default_factory=list, description="per-thread or per-target counts the source gave")

    @property
    def uid(self) -> str:
        """The stored run's key: the same part of the same bytes is the same run, however often imported."""
        return "import:" + hashlib.sha256(f"{self.digest}|{self.part}".encode()).hexdigest()[:40]
