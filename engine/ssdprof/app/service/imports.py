"""History's Import: the renderer names the files (or a folder's), the engine says which it needs,
the bytes arrive in chunks (a request body is small in browser mode), then the files are read by
their content and their runs stored once. Uploads are held in memory until finished or replaced."""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass, field

from ssdprof.app.contract.imports import (
    CHUNK_BYTES,
    ImportBegin,
    ImportBegun,
    ImportChunk,
    ImportChunkResult,
    ImportedSource,
    ImportFinish,
    ImportOutcome,
)
from ssdprof.app.service.registry import handles
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store
from ssdprof.store.imports.recognise import recognise, wanted_in_folder
from ssdprof.store.imports.sources import MAX_FILE_BYTES, ImportFailure, SourceFile, SourceSet
from ssdprof.store.imports.stored import store_recognised

__all__ = ["Imports"]

MAX_UPLOAD_BYTES = 512 << 20
"""An upload held in memory at most (a cbt tree's fio outputs are far smaller)."""


@dataclass
class _Upload:
    folder: bool
    tags: dict[str, str]
    sizes: dict[str, int]
    received: dict[str, bytearray] = field(default_factory=dict)


class Imports:
    def __init__(self, store: Store):
        self.store = store
        self._uploads: dict[str, _Upload] = {}

    @handles("imports.begin")
    def begin(self, params: ImportBegin) -> ImportBegun:
        wanted, skipped = [], []
        for planned in params.files:
            path = planned.path.replace("\\", "/").lstrip("/")
            if ".." in path.split("/"):
                raise WorkloadError.single("files", "FILE", f"{planned.path}: a path inside the folder chosen, without '..'")
            if params.folder and not wanted_in_folder(path):
                continue
            if planned.size_bytes > MAX_FILE_BYTES:
                skipped.append(f"{path}: {planned.size_bytes >> 20} MiB, larger than a result file; not read")
                continue
            wanted.append((path, planned.size_bytes))
        if sum(size for _, size in wanted) > MAX_UPLOAD_BYTES:
            raise WorkloadError.single("files", "FILE", f"more than {MAX_UPLOAD_BYTES >> 20} MiB of files to import at once; "
                                       "import fewer, or use: ssdprof import FOLDER")
        upload_id = uuid.uuid4().hex
        self._uploads = {upload_id: _Upload(params.folder, dict(params.tags), dict(wanted))}  # one import at a time
        return ImportBegun(upload_id=upload_id, wanted=[path for path, _ in wanted], skipped=skipped, chunk_bytes=CHUNK_BYTES)

    def _upload(self, upload_id: str) -> _Upload:
        found = self._uploads.get(upload_id)
        if found is None:
            raise WorkloadError.single("upload_id", "-", "no import in progress by that id (started again elsewhere?); "
                                                        "choose the files again")
        return found

    @handles("imports.chunk")
    def chunk(self, params: ImportChunk) -> ImportChunkResult:
        upload = self._upload(params.upload_id)
        path = params.path.replace("\\", "/").lstrip("/")
        if path not in upload.sizes:
            raise WorkloadError.single("path", "-", f"{params.path}: not a file this import asked for")
        try:
            data = base64.b64decode(params.data_base64, validate=True)
        except (binascii.Error, ValueError):
            raise WorkloadError.single("data_base64", "-", f"{params.path}: the chunk is not base64") from None
        held = upload.received.setdefault(path, bytearray())
        if params.offset != len(held) or len(held) + len(data) > upload.sizes[path]:
            raise WorkloadError.single("offset", "-", f"{params.path}: chunk at byte {params.offset}, expected byte {len(held)} "
                                                      f"of {upload.sizes[path]}")
        held += data
        return ImportChunkResult(received_bytes=len(held))

    @handles("imports.finish")
    def finish(self, params: ImportFinish) -> ImportOutcome:
        upload = self._upload(params.upload_id)
        del self._uploads[params.upload_id]
        short = [p for p, size in upload.sizes.items() if len(upload.received.get(p, b"")) != size]
        if short:
            raise WorkloadError.single("files", "FILE", f"{short[0]}: not all of its bytes arrived; import it again")
        files = [SourceFile(path, bytes(upload.received[path])) for path in upload.sizes]
        if upload.folder:
            name = files[0].path.split("/", 1)[0] if files else "folder"
            sets = [SourceSet(name, [SourceFile(f.path.split("/", 1)[-1], f.data) for f in files], folder=True)]
        else:
            sets = [SourceSet(f.name, [f]) for f in files]
        try:
            batch = [recognise(found, upload.tags) for found in sets]
        except ImportFailure as exc:
            raise WorkloadError.single("files", "FILE", str(exc)) from None
        done = store_recognised(self.store, batch)
        sources = [ImportedSource(source=k.source, format=k.format, run_ids=[r.id or 0 for r in k.stored],
                                  already_stored=k.already, notes=k.notes, summary=k.summary()) for k in done]
        order = [i for k in done for i in (*(r.id or 0 for r in k.stored), *k.already)]
        return ImportOutcome(sources=sources, run_ids=order)
