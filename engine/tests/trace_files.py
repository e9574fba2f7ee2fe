"""Small traces the tests write themselves, in each format ssdprof reads, from one list of I/Os.

The blktrace writer lays out ``struct blk_io_trace`` records as the kernel's relay channel does (48 bytes:
magic|version, sequence, time ns, sector, bytes, action, pid, device, cpu, error, pdu_len; native byte order),
one file per CPU, each I/O as its queue, issue and completion events, with a process-name notify record (with a
payload) at the start of each file; blkparse then reads them as it reads a real capture.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass
from pathlib import Path

MSR_EPOCH_TICKS = 128166372003061629  # 2007-02-22, the MSR-Cambridge traces' week, in filetime ticks (100 ns)
_BLK_MAGIC = 0x65617407
_TC_READ, _TC_WRITE, _TC_QUEUE, _TC_ISSUE, _TC_COMPLETE, _TC_NOTIFY, _TC_DISCARD = 1, 2, 1 << 4, 1 << 6, 1 << 7, 1 << 10, 1 << 13
_TA_QUEUE, _TA_ISSUE, _TA_COMPLETE, _TN_PROCESS = 1, 7, 8, 0
_RECORD = struct.Struct("=IIQQIIIIIHH")


@dataclass(frozen=True)
class Io:
    time_us: int
    write: bool
    offset: int
    size: int
    latency_us: int = 100
    trim: bool = False


def random_ios(count: int, *, span_s: float, seed: int, region: int = 64 << 20,
               sizes: tuple[int, ...] = (4096, 8192, 65536), write_share: float = 0.3) -> list[Io]:
    """``count`` I/Os spread over ``span_s`` (the first at 0, the last at the span), 4 KiB aligned."""
    rng = random.Random(seed)
    times = sorted(rng.randrange(1, int(span_s * 1e6)) for _ in range(count - 2))
    ios = []
    for time_us in [0, *times, int(span_s * 1e6)]:
        size = rng.choice(sizes)
        ios.append(Io(time_us, rng.random() < write_share, rng.randrange(0, (region - size) // 4096) * 4096, size,
                      rng.randint(50, 900)))
    return ios


def write_iolog_v3(path: Path, ios: list[Io], name: str = "/dev/sdb", start_us: int = 0) -> Path:
    lines = ["fio version 3 iolog", f"{start_us} {name} add", f"{start_us} {name} open"]
    lines += [f"{start_us + io.time_us} {name} {_action(io)} {io.offset} {io.size}" for io in ios]
    lines.append(f"{start_us + ios[-1].time_us} {name} close")
    path.write_text("\n".join(lines) + "\n")
    return path


def write_iolog_v2(path: Path, ios: list[Io], name: str = "/dev/sdb", *, waits: bool = True) -> Path:
    """Version 2: time told by 'wait' lines, each the microseconds since the previous wait."""
    lines = ["fio version 2 iolog", f"{name} add", f"{name} open"]
    clock = 0
    for io in ios:
        if waits and io.time_us > clock:
            lines.append(f"{name} wait {io.time_us - clock} 0")
            clock = io.time_us
        lines.append(f"{name} {_action(io)} {io.offset} {io.size}")
    lines.append(f"{name} close")
    path.write_text("\n".join(lines) + "\n")
    return path


def write_msr(path: Path, ios: list[Io], *, host: str = "hm", disk: int = 1, header: bool = False) -> Path:
    lines = [",".join(("Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size", "ResponseTime"))] if header else []
    lines += [f"{MSR_EPOCH_TICKS + io.time_us * 10},{host},{disk},{'Write' if io.write else 'Read'},{io.offset},"
              f"{io.size},{io.latency_us * 10}" for io in ios]
    path.write_text("\r\n".join(lines) + "\r\n")  # the published files end their lines as Windows does
    return path


def write_blktrace(folder: Path, ios: list[Io], *, name: str = "sdb", device: tuple[int, int] = (8, 16),
                   cpus: int = 2, start_ns: int = 5_000_000_000) -> Path:
    """``NAME.blktrace.CPU`` files (the I/Os dealt round robin over the CPUs); returns CPU 0's file."""
    dev = device[0] << 20 | device[1]
    for cpu in range(cpus):
        events: list[tuple[int, int, int, int, int]] = []  # time, sector, bytes, action, pid
        for io in ios[cpu::cpus]:
            kind = _TC_DISCARD if io.trim else (_TC_WRITE if io.write else _TC_READ)
            at = start_ns + io.time_us * 1000
            sector = io.offset // 512
            events += [(at, sector, io.size, (kind | _TC_QUEUE) << 16 | _TA_QUEUE, 4242),
                       (at + 2000, sector, io.size, (kind | _TC_ISSUE) << 16 | _TA_ISSUE, 4242),
                       (at + io.latency_us * 1000, sector, io.size, (kind | _TC_COMPLETE) << 16 | _TA_COMPLETE, 0)]
        events.sort()
        comm = b"trace-app\0"
        data = bytearray(_RECORD.pack(_BLK_MAGIC, 0, start_ns, 0, 0, _TC_NOTIFY << 16 | _TN_PROCESS, 4242, dev, cpu, 0,
                                      len(comm)) + comm)
        for sequence, (at, sector, size, action, pid) in enumerate(events, start=1):
            data += _RECORD.pack(_BLK_MAGIC, sequence, at, sector, size, action, pid, dev, cpu, 0, 0)
        (folder / f"{name}.blktrace.{cpu}").write_bytes(bytes(data))
    return folder / f"{name}.blktrace.0"


def _action(io: Io) -> str:
    return "trim" if io.trim else ("write" if io.write else "read")
