"""CrystalDiskMark's text export (File > Save text), versions 6 to 9.

What its figures are, from its source (DiskBench.cpp, DiskMarkDlg.cpp): each test runs diskspd N times
(the Test line's ``(xN)``) after a preparing run; the MB/s is the best of the N (10^6 bytes/s); the
IOPS is not counted but computed from that MB/s (MB/s x 10^6 / access size); the ``< us>`` latency
(CrystalDiskMark 7 on) is diskspd's mean latency of an I/O from issue to completion (total latency),
the lowest of the N runs, not necessarily the run the MB/s came from. It names no drive model: the
Test line's drive letter and the Comment are kept.
"""

from __future__ import annotations

import re

from ssdprof.model.results import EngineInfo, Environment, RunResult
from ssdprof.store.imports.diskmark_lines import read_export
from ssdprof.store.imports.diskmark_runs import ToolWords, diskmark_runs
from ssdprof.store.imports.sources import SourceFile

__all__ = ["TOOL", "import_crystaldiskmark", "is_crystaldiskmark"]

TOOL = "CrystalDiskMark"
_VERSION = re.compile(r"CrystalDiskMark\s+(?P<version>\d[\w.]*(?:\s+(?:x64|x86|ARM64|ARM32|A64|A32))?)")


def is_crystaldiskmark(source: SourceFile) -> bool:
    head = source.data[:600]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[1:200:2].count(0) > 40:
        head = source.text()[:300].encode()
    return b"CrystalDiskMark" in head and b"Crystal Dew World" in head


def import_crystaldiskmark(source: SourceFile, tags: dict[str, str]) -> list[RunResult]:
    header = "\n".join(source.lines()[:4])
    found = _VERSION.search(header)
    version = found.group("version") if found else ""
    major = int(version.split(".")[0]) if version[:1].isdigit() else 8
    export = read_export(source, TOOL, old_lines=major <= 6)
    drive = re.search(r"\[([A-Z]):", export.footer.get("Test", ""))
    comment = export.footer.get("Comment", "").strip()
    words = ToolWords(
        tool=TOOL, version=version, bytes_per_mb=1e6,
        rate_meaning="MB/s (10^6 bytes/s), the best of {runs}",
        iops_meaning="computed by CrystalDiskMark from its MB/s ÷ access size, not counted apart",
        latency_field="lat_ns",
        latency_meaning="diskspd's mean latency, I/O issue to completion (total): the lowest of {runs}' means",
        latency_kind="total latency (diskspd, I/O issue to completion), mean only: the lowest of the runs' means",
        engine=EngineInfo(name="crystaldiskmark", version=version, ioengine="diskspd",
                          reason=f"imported from {TOOL} {version}".strip(), direct=True),
        environment=Environment(os=export.footer.get("OS", "").strip(), mount_point=f"{drive.group(1)}:" if drive else "",
                                tool_versions={TOOL: version} if version else {}),
        target=f"{drive.group(1)}:" if drive else "",
        tags={**({"comment": comment} if comment else {}), **tags},
        notes=[f"{TOOL} gives no drive model: the Test line's drive and the Comment are kept"] if not comment else [])
    return diskmark_runs(source, export, words)
