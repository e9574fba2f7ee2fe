"""blktrace's binary traces, read through ``blkparse`` (Debian's blktrace package).

A trace is one file per CPU (``NAME.blktrace.0``, ``NAME.blktrace.1``, ...; blkparse merges them in time order)
or one stream written with ``blktrace -o -``. Each record is a ``struct blk_io_trace`` (48 bytes: magic,
sequence, time, sector, bytes, action, pid, device, cpu, error, pdu_len) followed by ``pdu_len`` bytes.

blkparse skips a damaged record and stops at a cut one without saying so, and exits 0: so every record is
walked here first (magic and length), a bad one named by its number and byte, and the I/Os blkparse prints are
counted against the queue events the walk found. The I/Os replayed are the queue events (``Q``: what the
application asked, before the block layer merged or split it; what btreplay and fio replay too); a completion
(``C``) gives the latency from queue to completion, the figure closest to fio's total latency.
"""

from __future__ import annotations

import glob
import mmap
import re
import shutil
import struct
import subprocess
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from ssdprof.model.trace import TraceError, TraceFormat
from ssdprof.trace.records import Builder, TraceRecords

__all__ = ["HEADER", "MAGIC", "is_blktrace", "read_blktrace", "trace_files"]

MAGIC = 0x65617400
_VERSION = 0x07
HEADER = struct.Struct("=IIQQIIIIIHH")
_QUEUE_ACTION = 1
_TC_QUEUE = 1 << 4
_SECTOR = 512
_FORMAT = "%a %d %M %m %T %t %S %n\\n"
_CPU_FILE = re.compile(r"^(?P<name>.+)\.blktrace\.(?P<cpu>\d+)$")


def is_blktrace(head: bytes) -> bool:
    """The first record's magic, in either byte order."""
    if len(head) < 4:
        return False
    return any(struct.unpack(order + "I", head[:4])[0] & 0xFFFFFF00 == MAGIC for order in "<>")


def trace_files(path: Path) -> list[Path]:
    """A per-CPU file brings its siblings (the whole trace); any other file is one stream."""
    match = _CPU_FILE.match(path.name)
    if not match:
        return [path]
    cpus: dict[int, Path] = {}
    for sibling in path.parent.glob(f"{glob.escape(match['name'])}.blktrace.*"):
        found = _CPU_FILE.match(sibling.name)
        if found and found["name"] == match["name"]:
            cpus[int(found["cpu"])] = sibling
    return [cpus[cpu] for cpu in sorted(cpus)]


def read_blktrace(path: Path, source: str) -> TraceRecords:
    """The queued I/Os of the trace with their latency where completed, or a :class:`TraceError` (nothing kept)."""
    files = trace_files(path)
    queued = sum(_walk(file) for file in files)
    blkparse = shutil.which("blkparse")
    if blkparse is None:
        raise TraceError("blkparse is not installed; it reads blktrace files (Debian/Ubuntu: apt install blktrace)",
                         path=source)
    builder = Builder(TraceFormat.BLKTRACE, source)
    match = _CPU_FILE.match(path.name)
    args = [blkparse, "-q", "-f", _FORMAT]
    args += ["-D", str(path.parent), "-i", match["name"]] if match else ["-i", "-"]
    with path.open("rb") as stdin, subprocess.Popen(args, stdin=subprocess.DEVNULL if match else stdin,
                                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as parse:
        assert parse.stdout is not None and parse.stderr is not None
        _Events(builder).read(parse.stdout)
        stderr = parse.stderr.read()
    if parse.returncode != 0:
        raise TraceError(f"blkparse failed ({parse.returncode}): {stderr.strip()[:300]}", path=source)
    if len(builder) + sum(builder.skipped.values()) != queued:
        raise TraceError(f"blkparse printed {len(builder) + sum(builder.skipped.values())} queued I/Os of the "
                         f"{queued} the file holds", path=source)
    if not len(builder):
        raise TraceError("the trace holds no queued read or write (was it recorded with '-a queue'?)", path=source)
    return builder.build(timed=True)


def _walk(file: Path) -> int:
    """Every record checked (magic, version, length); returns the queue events found."""
    if not file.stat().st_size:
        raise TraceError("the file is empty", path=file.name)
    with file.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        return _walk_records(data, file.name)


def _walk_records(data: mmap.mmap, name: str) -> int:
    order = next((o for o in "<>" if struct.unpack(o + "I", data[:4])[0] & 0xFFFFFF00 == MAGIC), None)
    if order is None:
        raise TraceError("not a blktrace binary: record 1 (byte 0) has no blktrace magic", path=name)
    record = struct.Struct(order + HEADER.format[1:])
    position, number, queued = 0, 0, 0
    while position < len(data):
        number += 1
        if len(data) - position < record.size:
            raise TraceError(f"record {number} (byte {position}) is cut short: {len(data) - position} of {record.size} "
                             "bytes", path=name)
        magic, _seq, _time, _sector, _bytes, action, *_rest, pdu_len = record.unpack_from(data, position)
        if magic & 0xFFFFFF00 != MAGIC or magic & 0xFF != _VERSION:
            raise TraceError(f"record {number} (byte {position}) is damaged: magic {magic:#010x}, not "
                             f"{MAGIC | _VERSION:#010x}", path=name)
        position += record.size + pdu_len
        if position > len(data):
            raise TraceError(f"record {number} is cut short: its {pdu_len} bytes of payload run past the end",
                             path=name)
        if action & 0xFFFF == _QUEUE_ACTION and action >> 16 & _TC_QUEUE:
            queued += 1
    return queued


class _Events:
    """blkparse's lines (``ACTION RWBS MAJOR MINOR SEC NSEC SECTOR SECTORS``): queue events become I/Os,
    completions give them their latency (a completion covers the queued I/Os merged into its range)."""

    def __init__(self, builder: Builder):
        self.builder = builder
        self.pending: dict[tuple[int, int], deque[tuple[int, int, int]]] = {}

    def read(self, lines: Iterable[str]) -> None:
        for number, text in enumerate(lines, start=1):
            fields = text.split()
            if len(fields) != 8 or fields[0] not in ("Q", "C"):
                continue
            try:
                major, minor, sec, nsec, sector, sectors = (int(f) for f in fields[2:])
            except ValueError:
                raise TraceError(f"blkparse's line {number} reads {text[:80]!r}, not 'ACTION RWBS MAJOR MINOR SEC NSEC "
                                 "SECTOR SECTORS'") from None
            time_ns = sec * 1_000_000_000 + nsec
            if fields[0] == "Q":
                self._queued(fields[1], (major, minor), time_ns, sector, sectors)
            else:
                self._completed((major, minor), time_ns, sector, sectors)

    def _queued(self, rwbs: str, device: tuple[int, int], time_ns: int, sector: int, sectors: int) -> None:
        ordinal = len(self.builder) + sum(self.builder.skipped.values()) + 1  # the I/O's place among the queue events
        if "D" in rwbs:
            self.builder.skip("trim")
            return
        if sectors == 0 or not ("R" in rwbs or "W" in rwbs):
            self.builder.skip("flush")
            return
        stream = self.builder.stream("", f"{device[0]},{device[1]}")
        index = len(self.builder)
        self.builder.add(time_ns, "W" in rwbs, sector * _SECTOR, sectors * _SECTOR, stream=stream, line=ordinal)
        self.pending.setdefault((stream, sector), deque()).append((index, time_ns, sectors))

    def _completed(self, device: tuple[int, int], time_ns: int, sector: int, sectors: int) -> None:
        stream = self.builder.known_stream("", f"{device[0]},{device[1]}")
        if stream is None:
            return
        end = sector + sectors
        while sector < end:
            waiting = self.pending.get((stream, sector))
            if not waiting:
                return
            index, queued_ns, queued_sectors = waiting.popleft()
            if not waiting:
                del self.pending[(stream, sector)]
            self.builder.set_latency(index, time_ns - queued_ns)
            sector += queued_sectors
