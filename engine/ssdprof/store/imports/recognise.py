"""Which tool wrote a file (or a folder), told by its content, never its name, and its runs read.

An import is all or nothing: every source is read before anything is stored, and the first that
cannot be read stops it with a message naming the file and the line or element that failed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ssdprof.model.results import RunResult
from ssdprof.store.imports.cbt import import_cbt, is_cbt_tree, wanted_in_cbt_tree
from ssdprof.store.imports.crystaldiskmark import import_crystaldiskmark, is_crystaldiskmark
from ssdprof.store.imports.diskspd import import_diskspd, is_diskspd
from ssdprof.store.imports.elbencho_csv import import_elbencho_csv, is_elbencho_csv
from ssdprof.store.imports.elbencho_text import import_elbencho_text, is_elbencho_text
from ssdprof.store.imports.kdiskmark import import_kdiskmark, is_kdiskmark
from ssdprof.store.imports.sources import ImportFailure, SourceFile, SourceSet, read_path
from ssdprof.store.interchange import fio_runs

__all__ = ["FORMATS", "Recognised", "read_sources", "recognise", "wanted_in_folder"]

Parser = Callable[[SourceFile, dict[str, str]], "tuple[list[RunResult], list[str]] | list[RunResult]"]


@dataclass(frozen=True)
class Format:
    name: str
    example: str
    """What a user would recognise the file by, for messages and the README."""
    recognises: Callable[[SourceFile], bool]
    parse: Parser


def _is_fio(source: SourceFile) -> bool:
    head = source.data[:1 << 16]
    return b'"fio version"' in head or b'"client_stats"' in head


FORMATS: tuple[Format, ...] = (
    Format("fio JSON output", "fio --output-format=json+ > run.json", _is_fio, fio_runs),
    Format("CrystalDiskMark text export", "CrystalDiskMark > File > Save Text", is_crystaldiskmark, import_crystaldiskmark),
    Format("KDiskMark text export", "KDiskMark > File > Save", is_kdiskmark, import_kdiskmark),
    Format("diskspd XML results", "diskspd -Rxml ... > result.xml", is_diskspd, import_diskspd),
    Format("elbencho results CSV", "elbencho --csvfile results.csv ...", is_elbencho_csv, import_elbencho_csv),
    Format("elbencho results file", "elbencho --resfile results.txt ...", is_elbencho_text, import_elbencho_text),
)
CBT_TREE = "cbt results tree"


@dataclass
class Recognised:
    source: str
    format: str
    runs: list[RunResult]
    notes: list[str] = field(default_factory=list)


def wanted_in_folder(path: str) -> bool:
    """A folder is read as a cbt tree: only the files such a tree's import needs."""
    return wanted_in_cbt_tree(path)


def read_sources(paths: Sequence[Path]) -> list[SourceSet]:
    return [read_path(path, wanted_in_folder) for path in paths]


def recognise(found: SourceSet, tags: dict[str, str]) -> Recognised:
    """The runs of one file or folder; ImportFailure names what could not be read, and why."""
    if found.folder:
        if not is_cbt_tree(found):
            raise ImportFailure(f"{found.name}: a folder is imported as a cbt results tree, and this one holds no "
                                "benchmark_config.yaml (cbt writes one in each results/<iteration>/id-<hash>/ folder); "
                                "to import single result files, name them")
        runs, notes = import_cbt(found, tags)
        return Recognised(found.name, CBT_TREE, runs, [*notes, *found.skipped])
    if len(found.files) != 1:
        raise ImportFailure(f"{found.name}: expected one file, got {len(found.files)}")
    source = found.files[0]
    if not source.data.strip():
        raise ImportFailure(f"{source.path}: the file is empty")
    for format_ in FORMATS:
        if format_.recognises(source):
            parsed = format_.parse(source, tags)
            runs, notes = parsed if isinstance(parsed, tuple) else (parsed, [])
            return Recognised(source.path, format_.name, runs, notes)
    known = "; ".join(f"{f.name} ({f.example})" for f in FORMATS)
    raise ImportFailure(f"{source.path}: not a result file ssdprof recognises by its content. It reads: {known}; "
                        f"and a {CBT_TREE} (its folder). For a table of figures (a datasheet, a spreadsheet), use: "
                        "ssdprof import-table")
