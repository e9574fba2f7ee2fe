"""The RPC's params and results for importing earlier runs from other tools' files (History's Import):
the renderer sends the files' bytes in chunks (a request body is small), the engine tells which of a
folder's files it needs, reads them by their content and stores the runs once."""

from __future__ import annotations

from pydantic import Field

from ssdprof.app.contract.base import Params, Result

__all__ = ["IMPORT_METHODS", "ImportBegin", "ImportBegun", "ImportChunk", "ImportChunkResult", "ImportFinish",
           "ImportOutcome", "ImportedSource", "PlannedFile"]

CHUNK_BYTES = 512 << 10
"""The most bytes one chunk carries (base64 of it stays well under a request body's limit)."""


class PlannedFile(Params):
    path: str = Field(min_length=1, max_length=4096, description="the file's name, or its path inside the folder chosen")
    size_bytes: int = Field(ge=0)


class ImportBegin(Params):
    files: list[PlannedFile] = Field(min_length=1, max_length=100_000)
    folder: bool = Field(default=False, description="the files are one folder's (a cbt results tree), not single files")
    tags: dict[str, str] = Field(default_factory=dict, description="tags every imported run gets, e.g. interface=SATA")


class ImportBegun(Result):
    upload_id: str
    wanted: list[str] = Field(description="the paths to send, in this order")
    skipped: list[str] = Field(description="files of the folder not needed or too large, each with why")
    chunk_bytes: int = Field(description="the most bytes one chunk may carry")


class ImportChunk(Params):
    upload_id: str = Field(min_length=1, max_length=64)
    path: str = Field(min_length=1, max_length=4096)
    offset: int = Field(ge=0, description="where the chunk's bytes start in the file")
    data_base64: str = Field(max_length=(CHUNK_BYTES * 4) // 3 + 8)


class ImportChunkResult(Result):
    received_bytes: int = Field(description="the file's bytes received so far")


class ImportFinish(Params):
    upload_id: str = Field(min_length=1, max_length=64)


class ImportedSource(Result):
    source: str = Field(description="the file or folder")
    format: str = Field(description="what it was recognised as, e.g. 'CrystalDiskMark text export'")
    run_ids: list[int] = Field(description="runs stored now")
    already_stored: list[int] = Field(description="runs stored before from the same content: not stored again")
    notes: list[str] = Field(description="what to know about the source's figures and what was not imported")
    summary: str = Field(description="one line saying the above")


class ImportOutcome(Result):
    sources: list[ImportedSource]
    run_ids: list[int] = Field(description="every run of the import, stored now or before, in order")


IMPORT_METHODS: dict[str, tuple[type[Params], type[Result], str]] = {
    "imports.begin": (ImportBegin, ImportBegun, "start an import: the files (or a folder's) to send, and which are needed"),
    "imports.chunk": (ImportChunk, ImportChunkResult, "a chunk of one file's bytes (base64)"),
    "imports.finish": (ImportFinish, ImportOutcome, "read the files sent by their content and store their runs once"),
}
