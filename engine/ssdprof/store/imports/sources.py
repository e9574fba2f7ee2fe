"""What an import reads: files by their bytes (a path on disk or an upload from the GUI), a folder as a
tree of relative paths, text decoded the way the tools write it (CrystalDiskMark 6/7 save UTF-16 with a
byte-order mark, later ones UTF-8), and the one error every importer raises, naming the file and the
line or element that failed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["MAX_FILE_BYTES", "MAX_TREE_BYTES", "ImportFailure", "SourceFile", "SourceSet", "read_path"]

MAX_FILE_BYTES = 256 << 20
"""A result file larger than this is no result file any of these tools writes."""
MAX_TREE_BYTES = 1 << 30


class ImportFailure(ValueError):
    """The input is not something ssdprof can import; the message names the file and the line or element."""


@dataclass(frozen=True)
class SourceFile:
    path: str
    """The file's name, or its path inside the folder it was found in (forward slashes)."""
    data: bytes

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def text(self) -> str:
        """The bytes as text: a byte-order mark decides, else UTF-16 where every other byte is NUL, else UTF-8."""
        data = self.data
        if data.startswith(b"\xef\xbb\xbf"):
            return self._decode(data[3:], "utf-8")
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return self._decode(data, "utf-16")
        sample = data[:200]
        if len(sample) >= 4 and sample[1::2].count(0) > len(sample) // 4:
            return self._decode(data, "utf-16-le")
        return self._decode(data, "utf-8")

    def _decode(self, data: bytes, encoding: str) -> str:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            line = data[:exc.start].count(b"\n") + 1
            raise ImportFailure(f"{self.path} line {line}: not {encoding.upper()} text (byte {exc.start}); "
                                "not a result file ssdprof reads") from None

    def lines(self) -> list[str]:
        return self.text().splitlines()


@dataclass
class SourceSet:
    """One thing to import: a single file, or a folder's files by their paths inside it."""

    name: str
    files: list[SourceFile]
    folder: bool = False
    skipped: list[str] = field(default_factory=list)
    """Files of the folder not read, each with why."""

    def find(self, path: str) -> SourceFile | None:
        return next((f for f in self.files if f.path == path), None)


def read_path(path: Path, wanted: Callable[[str], bool]) -> SourceSet:
    """A file, or a folder's files that ``wanted`` (by relative path) asks for; refuses what cannot be read."""
    if not path.exists():
        raise ImportFailure(f"{path}: no such file or folder")
    if path.is_file():
        return SourceSet(path.name, [SourceFile(path.name, _read(path))])
    found, skipped, total = [], [], 0
    for item in sorted(p for p in path.rglob("*") if p.is_file()):
        relative = item.relative_to(path).as_posix()
        if not wanted(relative):
            continue
        size = item.stat().st_size
        if size > MAX_FILE_BYTES or total + size > MAX_TREE_BYTES:
            skipped.append(f"{relative}: {size >> 20} MiB, larger than a result file; not read")
            continue
        total += size
        found.append(SourceFile(relative, _read(item)))
    return SourceSet(path.name or str(path), found, folder=True, skipped=skipped)


def _read(path: Path) -> bytes:
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ImportFailure(f"{path.name}: {size >> 20} MiB, larger than any result file these tools write")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ImportFailure(f"{path}: cannot be read ({exc.strerror or exc})") from None
