"""KDiskMark's text export (File > Save), versions 1 to 3.

What its figures are, from its source (benchmark.cpp, helper.cpp): fio with libaio runs each test N
times; in the Default profile the figures are the mean of the N runs, in the others the best. Its
'MB/s' is fio's ``bw`` (KiB/s) divided by 1000, so one of its MB is 1,024,000 bytes, not the 10^6
its header claims; the IOPS is fio's own. The ``< us>`` latency is fio's ``clat_ns`` mean
(completion latency) from version 3.2.0, fio's ``lat_ns`` mean (total latency) before it. Before
3.3.0 a test with more than one thread read only some of the threads' results (its issue #182).
"""

from __future__ import annotations

import re

from ssdprof.model.results import EngineInfo, Environment, RunResult, ValidityWarning
from ssdprof.store.imports.diskmark_lines import DiskmarkExport, read_export
from ssdprof.store.imports.diskmark_runs import ToolWords, diskmark_runs
from ssdprof.store.imports.sources import SourceFile

__all__ = ["TOOL", "import_kdiskmark", "is_kdiskmark"]

TOOL = "KDiskMark"
_VERSION = re.compile(r"KDiskMark\s*\((?P<version>[\d.]+)\)")
_FIO = re.compile(r"Flexible I/O Tester \((?P<fio>[^)]+)\)")


def is_kdiskmark(source: SourceFile) -> bool:
    head = source.data[:600]
    return b"KDiskMark" in head and b"JonMagon/KDiskMark" in head


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split(".") if p.isdigit()) or (0,)


def import_kdiskmark(source: SourceFile, tags: dict[str, str]) -> list[RunResult]:
    header = "\n".join(source.lines()[:3])
    version = m.group("version") if (m := _VERSION.search(header)) else ""
    fio = m.group("fio") if (m := _FIO.search(header)) else ""
    export = read_export(source, TOOL, old_lines=False)
    clat = _version_tuple(version) >= (3, 2)
    profile = export.footer.get("Profile", "")
    combined = "the mean of {runs}" if profile.startswith("Default") or not profile else "the best of {runs}"
    target, model = _target(export)
    undercount = ValidityWarning(code="kdiskmark_threads_undercounted", concerns=["read.iops", "write.iops"], message=(
        f"KDiskMark {version or 'before 1.6'} read only some of the threads' fio results when a test ran more than one "
        "(its issue #182, fixed in 3.3.0): this line's IOPS and MB/s are likely too low"))
    words = ToolWords(
        tool=TOOL, version=version, bytes_per_mb=1024 * 1000,
        rate_meaning=f"fio's bw (KiB/s) ÷ 1000: one KDiskMark MB/s is 1,024,000 bytes/s; {combined}",
        iops_meaning=f"fio's iops, {combined}",
        latency_field="clat_ns" if clat else "lat_ns",
        latency_meaning=(f"fio's clat_ns mean (completion latency), {combined}" if clat
                         else f"fio's lat_ns mean (total latency), {combined}"),
        latency_kind=("completion latency (fio clat), mean only" if clat else "total latency (fio lat), mean only"),
        engine=EngineInfo(name="kdiskmark", version=version, ioengine="libaio",
                          reason=f"fio {fio.removeprefix('fio-')} run by {TOOL} {version}".replace("  ", " ").strip(),
                          direct=True),
        environment=Environment(os=export.footer.get("OS", "").strip(), device_model=model,
                                tool_versions={k: v for k, v in ((TOOL, version), ("fio", fio.removeprefix("fio-"))) if v}),
        target=target, tags=dict(tags),
        line_warning={t.number: undercount for t in export.tests if t.threads > 1 and _version_tuple(version) < (3, 3)})
    return diskmark_runs(source, export, words)


def _target(export: DiskmarkExport) -> tuple[str, str]:
    """The Target line's path and the drive model in its brackets (KDiskMark 3), else ('', '')."""
    text = export.footer.get("Target", "").strip()
    model = re.search(r"\[([^\]]+)\]\s*$", text)
    path = text[:model.start()].strip() if model else text
    return path.split(" ")[0] if path else "", model.group(1) if model else ""
