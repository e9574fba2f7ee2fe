"""The text exports of CrystalDiskMark and KDiskMark, which share one layout: a header naming the tool,
``[Read]``/``[Write]``/``[Mix]`` sections of test lines, and a footer of ``Key: value`` lines.

A test line as each writes it (the spacing varies with the version; the fields do not)::

    CrystalDiskMark 8/9   '  SEQ    1MiB (Q=  8, T= 1):  3552.010 MB/s [   3387.5 IOPS] <  2359.35 us>'
    CrystalDiskMark 7     'Sequential 1MiB (Q=  8, T= 1):  3470.364 MB/s [   3309.6 IOPS] <  2414.21 us>'
    CrystalDiskMark 6     '  Random Read 4KiB (Q= 32,T= 1) :   456.789 MB/s [ 111520.8 IOPS]'
    KDiskMark 1-2         'Sequential 1 MiB (Q= 8, T= 1):   542.516 MB/s [    529.8 IOPS] < 14415.61 us>'
    KDiskMark 3           '    Random   4 KiB (Q= 32, T= 1):   354.657 MB/s [  88664.6 IOPS] <   352.37 us>'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from ssdprof.store.imports.sources import ImportFailure, SourceFile

__all__ = ["DiskmarkExport", "TestLine", "read_export"]

_NUMBER = r"\d+(?:\.\d+)?"
_LINE = re.compile(
    rf"^\s*(?P<kind>SEQ|RND|Sequential|Random)\s*(?P<size>\d+)\s*(?P<unit>KiB|MiB)\s*"
    rf"\(Q=\s*(?P<q>\d+),\s*T=\s*(?P<t>\d+)\)\s*:\s*(?P<rate>{_NUMBER})\s*MB/s\s*"
    rf"\[\s*(?P<iops>{_NUMBER})\s*IOPS\]\s*(?:<\s*(?P<lat>{_NUMBER})\s*us>)?\s*$")
_OLD_LINE = re.compile(
    rf"^\s*(?P<kind>Sequential|Random) (?P<dir>Read|Write)(?: (?P<size>\d+)(?P<unit>KiB|MiB))? "
    rf"\(Q=\s*(?P<q>\d+),\s*T=\s*(?P<t>\d+)\)\s*:\s*(?P<rate>{_NUMBER}) MB/s(?: \[\s*(?P<iops>{_NUMBER}) IOPS\])?\s*$")
_STARTS_LIKE_TEST = re.compile(r"^\s*(SEQ|RND|Sequential|Random)\b")
_SECTION = re.compile(r"^\[(?P<name>Read|Write|Mix)\]\s*(?P<rest>.*)$")
_FOOTER = re.compile(r"^\s*(?P<key>Profile|Test|Mode|Time|Date|OS|Comment|Target)\s*:\s?(?P<value>.*?)\s*$")
OLD_SEQUENTIAL_BYTES = 128 << 10
"""CrystalDiskMark 5 and 6 measured 'Sequential' in 128 KiB blocks; their lines do not say so."""


@dataclass(frozen=True)
class TestLine:
    number: int
    text: str
    section: str
    random: bool
    block_size_bytes: int
    size_given: bool
    queue_depth: int
    threads: int
    rate_mb_per_s: float
    iops: float | None
    latency_us: float | None

    @property
    def label(self) -> str:
        """CrystalDiskMark's own short name, e.g. RND4K Q32T1 or SEQ1M Q8T1."""
        size = f"{self.block_size_bytes >> 20}M" if self.block_size_bytes >= 1 << 20 else f"{self.block_size_bytes >> 10}K"
        return f"{'RND' if self.random else 'SEQ'}{size} Q{self.queue_depth}T{self.threads}"


@dataclass
class DiskmarkExport:
    header: list[str]
    tests: list[TestLine]
    footer: dict[str, str]
    mix: str = ""
    """The [Mix] section's ratio line, e.g. 'Read 70%/Write 30%', where there is one."""
    mix_lines: list[int] = field(default_factory=list)

    def test_size(self) -> tuple[int | None, int | None]:
        """(bytes of the test file, how many times each test ran) from the Test line."""
        text = self.footer.get("Test", "")
        size = re.search(r"(\d+)\s*(MiB|GiB)", text)
        loops = re.search(r"\(x(\d+)\)", text)
        return ((int(size.group(1)) << (20 if size.group(2) == "MiB" else 30)) if size else None,
                int(loops.group(1)) if loops else None)

    def measure_s(self) -> float | None:
        """Seconds each test measured, where the export says (CrystalDiskMark 8+, KDiskMark 3)."""
        found = re.search(r"Measure:?\s*(\d+)\s*(sec|min)", self.footer.get("Time", "") + " " + self.footer.get("Test", ""))
        return None if found is None else float(found.group(1)) * (60 if found.group(2) == "min" else 1)

    def started_at(self) -> str:
        """The Date line as an ISO local time (the tool's machine's clock, no zone); '' if none."""
        text = self.footer.get("Date", "").strip()
        for form in ("%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S"):
            try:
                return datetime.strptime(text, form).isoformat()
            except ValueError:
                continue
        return ""


def read_export(source: SourceFile, tool: str, old_lines: bool) -> DiskmarkExport:
    """Every test line with its section; refuses a line that starts like a test but does not read as one."""
    lines = source.lines()
    export = DiskmarkExport(header=[], tests=[], footer={})
    section = ""
    for number, text in enumerate(lines, start=1):
        found = _SECTION.match(text.strip())
        if found:
            section = found.group("name")
            export.mix = found.group("rest") if section == "Mix" else export.mix
            continue
        footer = _FOOTER.match(text)
        if footer and not _STARTS_LIKE_TEST.match(text):
            export.footer.setdefault(footer.group("key"), footer.group("value"))
            continue
        if not _STARTS_LIKE_TEST.match(text):
            if not export.tests and not section:
                export.header.append(text)
            continue
        if section == "Mix":
            export.mix_lines.append(number)
            continue
        export.tests.append(_test_line(source, number, text, section, tool=tool, old_lines=old_lines))
    if not export.tests:
        raise ImportFailure(f"{source.path}: no {tool} test line (such as 'SEQ 1MiB (Q= 8, T= 1): ... MB/s') found")
    if "Test" not in export.footer:
        raise ImportFailure(f"{source.path} line {len(lines)}: the export ends before its 'Test:' line; "
                            "the file is cut short (save it again from the tool)")
    return export


def _test_line(source: SourceFile, number: int, text: str, section: str, *, tool: str, old_lines: bool) -> TestLine:
    new = _LINE.match(text)
    old = None if new else _OLD_LINE.match(text) if old_lines else None
    if new is None and old is None:
        raise ImportFailure(f"{source.path} line {number}: {text.strip()!r} does not read as a {tool} test line "
                            "(expected e.g. 'RND 4KiB (Q= 32, T= 1): 627.462 MB/s [ 153189.0 IOPS] < 204.37 us>'); "
                            "the file is cut short or changed")
    found = new or old
    assert found is not None
    if old is not None:
        section = old.group("dir")
    elif section not in ("Read", "Write"):
        raise ImportFailure(f"{source.path} line {number}: a test line outside a [Read] or [Write] section")
    size_given = found.group("size") is not None
    block = (int(found.group("size")) << (10 if found.group("unit") == "KiB" else 20)) if size_given else OLD_SEQUENTIAL_BYTES
    iops, lat = found.group("iops"), found.groupdict().get("lat")
    queue_depth, threads = int(found.group("q")), int(found.group("t"))
    if queue_depth < 1 or threads < 1 or block < 512:
        raise ImportFailure(f"{source.path} line {number}: queue depth, threads and access size must be at least 1, 1 "
                            f"and 512 B; the line says Q={queue_depth}, T={threads}, {block} B")
    return TestLine(number=number, text=text.strip(), section=section, random=found.group("kind") in ("RND", "Random"),
                    block_size_bytes=block, size_given=size_given, queue_depth=queue_depth, threads=threads,
                    rate_mb_per_s=float(found.group("rate")), iops=float(iops) if iops else None,
                    latency_us=float(lat) if lat else None)
