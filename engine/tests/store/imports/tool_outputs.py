"""Result files written the way each tool writes them, from the format strings in its source (no
downloaded results): CrystalDiskMark's DiskMarkDlg.cpp (GetResultString / ResultText), KDiskMark's
mainwindow.cpp (combineOutputTestResult / getTextBenchmarkResult), diskspd's XmlResultParser.cpp and
Common.cpp (GetXml), elbencho's Statistics.cpp (printPhaseResultsToStream / ToStringVec), and cbt's
benchmark.py / librbdfio.py (the archive's folders). Figures are chosen by the tests."""
# ruff: noqa: UP031  (the tools' printf formats, kept as their source writes them)

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DiskmarkTest:
    random: bool
    size_kib: int
    queues: int
    threads: int
    mb_per_s: float
    latency_us: float
    iops: float | None = None
    """KDiskMark's own IOPS (fio's); CrystalDiskMark computes it from the MB/s."""


CDM_DEFAULT = [DiskmarkTest(False, 1024, 8, 1, 3552.010, 2359.35), DiskmarkTest(False, 1024, 1, 1, 2353.565, 445.07),
               DiskmarkTest(True, 4, 32, 1, 627.462, 204.37), DiskmarkTest(True, 4, 1, 1, 60.064, 68.06)]
CDM_WRITE = [DiskmarkTest(False, 1024, 8, 1, 3003.404, 2787.15), DiskmarkTest(False, 1024, 1, 1, 2247.380, 466.09),
             DiskmarkTest(True, 4, 32, 1, 477.006, 274.41), DiskmarkTest(True, 4, 1, 1, 194.125, 20.96)]


def _cdm_line(test: DiskmarkTest) -> str:
    """CrystalDiskMark 8/9's GetResultString."""
    iops = test.mb_per_s * 1000 * 1000 / (test.size_kib * 1024)
    kind = "RND" if test.random else "SEQ"
    size, unit = (test.size_kib // 1024, "MiB") if test.size_kib >= 1024 else (test.size_kib, "KiB")
    return "  %s %4d%s (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>" % (
        kind, size, unit, test.queues, test.threads, test.mb_per_s, iops, test.latency_us)


def crystaldiskmark8(read: list[DiskmarkTest] = CDM_DEFAULT, write: list[DiskmarkTest] = CDM_WRITE, *,
                     version: str = "8.0.4 x64", mix: list[DiskmarkTest] | None = None, comment: str = "") -> bytes:
    """ResultText for the Default profile, saved as CrystalDiskMark 8 saves it (UTF-8, CRLF)."""
    lines = ["-" * 78, f"CrystalDiskMark {version} (C) 2007-2021 hiyohiyo",
             "                                  Crystal Dew World: https://crystalmark.info/", "-" * 78,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", "* KB = 1000 bytes, KiB = 1024 bytes", "",
             "[Read]", *map(_cdm_line, read), "", "[Write]", *map(_cdm_line, write), ""]
    if mix:
        lines += ["[Mix] Read 70%/Write 30%", *map(_cdm_line, mix), ""]
    lines += ["Profile: Default", "   Test: 1 GiB (x5) [C: 56% (267/476GiB)]", "   Mode: [Admin]",
              "   Time: Measure 5 sec / Interval 5 sec ", "   Date: 2021/03/14 16:45:49",
              "     OS: Windows 10 Professional [10.0 Build 19042] (x64)"]
    if comment:
        lines.append(f"Comment: {comment}")
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def crystaldiskmark7(read: list[DiskmarkTest] = CDM_DEFAULT, write: list[DiskmarkTest] = CDM_WRITE) -> bytes:
    """CrystalDiskMark 7's GetSequentialResultString / GetRandomResultString, saved as UTF-16LE with a BOM."""
    def line(test: DiskmarkTest) -> str:
        if not test.random:
            iops = test.mb_per_s * 1e6 / (test.size_kib * 1024)
            return "Sequential %dMiB (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>" % (
                test.size_kib // 1024, test.queues, test.threads, test.mb_per_s, iops, test.latency_us)
        iops = test.mb_per_s * 1e6 / (test.size_kib * 1024)
        text = "Random %dKiB (Q=%3d, T=%2d): %9.3f MB/s [%9.1f IOPS] <%9.2f us>" % (
            test.size_kib, test.queues, test.threads, test.mb_per_s, iops, test.latency_us)
        return ("  " if test.size_kib > 100 else "   " if test.size_kib > 10 else "    ") + text

    lines = ["-" * 78, "CrystalDiskMark 7.0.0 x64 (C) 2007-2019 hiyohiyo",
             "                                  Crystal Dew World: https://crystalmark.info/", "-" * 78,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", "* KB = 1000 bytes, KiB = 1024 bytes", "",
             "[Read]", *map(line, read), "", "[Write]", *map(line, write), "",
             "Profile: Default", "   Test: 1 GiB (x5) [Interval: 5 sec] <DefaultAffinity=DISABLED>",
             "   Date: 2019/12/12 1:23:45", "     OS: Windows 10 Professional [10.0 Build 18363] (x64)", ""]
    return "\r\n".join(lines).encode("utf-16")


def crystaldiskmark6() -> bytes:
    """CrystalDiskMark 6's ResultText: 'Sequential' in 128 KiB blocks (its line names no size), no latency,
    UTF-16LE with a BOM."""
    lines = ["-" * 71, "CrystalDiskMark 6.0.2 x64 (C) 2007-2018 hiyohiyo",
             "                          Crystal Dew World : https://crystalmark.info/", "-" * 71,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", "* KB = 1000 bytes, KiB = 1024 bytes", "",
             "   Sequential Read (Q=%3d,T=%2d) : %9.3f MB/s" % (32, 1, 559.714),
             "  Sequential Write (Q=%3d,T=%2d) : %9.3f MB/s" % (32, 1, 520.233),
             "  Random Read 4KiB (Q=%3d,T=%2d) : %9.3f MB/s [%9.1f IOPS]" % (8, 8, 398.823, 398.823 * 1e6 / 4096),
             " Random Write 4KiB (Q=%3d,T=%2d) : %9.3f MB/s [%9.1f IOPS]" % (8, 8, 363.178, 363.178 * 1e6 / 4096), "",
             "  Test : 1024 MiB [C: 38.6% (35.8/92.7 GiB)] (x5)  [Interval=5 sec]", "  Date : 2018/03/04 17:31:26",
             "    OS : Windows 10 Professional [10.0 Build 16299] (x64)", ""]
    return "\r\n".join(lines).encode("utf-16")


KDM_READ = [DiskmarkTest(False, 1024, 8, 1, 508.897, 13840.05, 497.0), DiskmarkTest(False, 1024, 1, 1, 438.278, 2280.14, 428.0),
            DiskmarkTest(True, 4, 32, 1, 354.657, 352.37, 88664.6), DiskmarkTest(True, 4, 1, 1, 44.166, 88.48, 11041.6)]
KDM_WRITE = [DiskmarkTest(False, 1024, 8, 1, 460.312, 15153.11, 449.5), DiskmarkTest(False, 1024, 1, 1, 333.085, 2349.82, 325.3),
             DiskmarkTest(True, 4, 32, 1, 315.170, 383.86, 78792.5), DiskmarkTest(True, 4, 1, 1, 91.040, 39.80, 22760.3)]


def kdiskmark3(read: list[DiskmarkTest] = KDM_READ, write: list[DiskmarkTest] = KDM_WRITE, *, version: str = "3.0.0") -> bytes:
    """KDiskMark 3's getTextBenchmarkResult (80 columns, its fields right-justified)."""
    def line(test: DiskmarkTest) -> str:
        size, unit = (test.size_kib // 1024, "MiB") if test.size_kib >= 1024 else (test.size_kib, "KiB")
        text = "%s %s %s (Q=%s, T=%s): %s MB/s [ %s IOPS] < %s us>" % (
            "Random" if test.random else "Sequential", str(size).rjust(3), unit, str(test.queues).rjust(3),
            str(test.threads).rjust(2), f"{test.mb_per_s:.3f}".rjust(9), f"{test.iops:.1f}".rjust(8),
            f"{test.latency_us:.2f}".rjust(8))
        return text.rjust(80)

    lines = [f"KDiskMark ({version}): https://github.com/JonMagon/KDiskMark".rjust(80),
             "Flexible I/O Tester (fio-3.30): https://github.com/axboe/fio".rjust(80), "-" * 80,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", "* KB = 1000 bytes, KiB = 1024 bytes", "",
             "[Read]", *map(line, read), "", "[Write]", *map(line, write), "",
             "Profile: Default", "   Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]", "   Date: 2022-08-24 16:10:33",
             "     OS: opensuse-tumbleweed 20220821 [linux 5.19.2-1-default]", " Target: /home [Samsung SSD 860 EVO 500GB]"]
    return "\n".join(lines).encode()


def kdiskmark2(read: list[DiskmarkTest], write: list[DiskmarkTest]) -> bytes:
    """KDiskMark 2's combineOutputTestResult (77 columns; Q right-justified to 2: 'Q= 8, T= 1')."""
    def line(test: DiskmarkTest) -> str:
        size, unit = (test.size_kib // 1024, "MiB") if test.size_kib >= 1024 else (test.size_kib, "KiB")
        text = "%s %s %s (Q=%s, T=%s): %s MB/s [ %s IOPS] < %s us>" % (
            "Random" if test.random else "Sequential", size, unit, str(test.queues).rjust(2), str(test.threads).rjust(2),
            f"{test.mb_per_s:.3f}".rjust(9), f"{test.iops:.1f}".rjust(8), f"{test.latency_us:.2f}".rjust(8))
        return text.rjust(77)

    lines = ["KDiskMark (2.0.0): https://github.com/JonMagon/KDiskMark".rjust(77),
             "Flexible I/O Tester (fio-3.16): https://github.com/axboe/fio".rjust(77), "-" * 77,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", "* KB = 1000 bytes, KiB = 1024 bytes", "",
             "[Read]", *map(line, read), "", "[Write]", *map(line, write), "",
             "Profile: Default", "   Test: 32 MiB (x5) [Interval: 5 sec]", "   Date: 2020/09/05 18:31:47",
             "     OS: neon 20.04 [linux 5.4.0-42-generic]"]
    return "\n".join(lines).encode()


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@dataclass(frozen=True)
class DiskspdThread:
    thread: int
    read_ios: int
    write_ios: int
    read_ms: float = 0.0
    write_ms: float = 0.0
    read_stdev_ms: float = 0.0
    write_stdev_ms: float = 0.0


def diskspd_xml(threads: list[DiskspdThread], *, latency: bool, block: int = 4096, write_ratio: int = 0,  # noqa: PLR0912
                requests: int = 32, seconds: float = 10.0, path: str = "C:\\ssdprof\\test.dat",
                percentiles_ms: dict[str, tuple[float, float]] | None = None) -> bytes:
    """XmlResultParser::ParseResults with Profile::GetXml and Target::GetXml (diskspd 2.2), as -Rxml prints it:
    -b{block} -o{requests} -t{threads} -w{write_ratio} -r -Sh -d{seconds} -W5 [-L] -c1G."""
    out: list[str] = []

    def put(text: str, depth: int) -> None:
        out.append("  " * depth + text)

    put("<Results>", 0)
    put("<System>", 1)
    for line in ("<ComputerName>LAB-WIN01</ComputerName>", "<Tool>", "  <Version>2.2</Version>",
                 "  <VersionDate>2024/6/3</VersionDate>", "</Tool>", "<RunTime>2024/06/03 10:00:00 UTC</RunTime>",
                 '<PowerScheme Name="Balanced" Guid="381b4222-f694-41f0-9685-ff5bb260df2e"/>'):
        put(line, 2)
    put("</System>", 1)
    put("<Profile>", 1)
    for line in ("<Progress>0</Progress>", "<ResultFormat>xml</ResultFormat>", "<Verbose>false</Verbose>", "<TimeSpans>"):
        put(line, 2)
    put("<TimeSpan>", 3)
    for line in ("<CompletionRoutines>false</CompletionRoutines>", f"<MeasureLatency>{str(latency).lower()}</MeasureLatency>",
                 "<CalculateIopsStdDev>false</CalculateIopsStdDev>", "<DisableAffinity>false</DisableAffinity>",
                 f"<Duration>{int(seconds)}</Duration>", "<Warmup>5</Warmup>", "<Cooldown>0</Cooldown>",
                 "<ThreadCount>0</ThreadCount>", "<RequestCount>0</RequestCount>", "<IoBucketDuration>1000</IoBucketDuration>",
                 "<RandSeed>0</RandSeed>", "<Targets>", "  <Target>", f"    <Path>{path}</Path>", f"    <BlockSize>{block}</BlockSize>",
                 "    <BaseFileOffset>0</BaseFileOffset>", "    <SequentialScan>false</SequentialScan>",
                 "    <RandomAccess>false</RandomAccess>", "    <TemporaryFile>false</TemporaryFile>",
                 "    <UseLargePages>false</UseLargePages>", "    <DisableOSCache>true</DisableOSCache>",
                 "    <WriteThrough>true</WriteThrough>", "    <WriteBufferContent>", "      <Pattern>sequential</Pattern>",
                 "    </WriteBufferContent>", "    <ParallelAsyncIO>false</ParallelAsyncIO>", "    <FileSize>1073741824</FileSize>",
                 f"    <Random>{block}</Random>", "    <ThreadStride>0</ThreadStride>", "    <MaxFileSize>0</MaxFileSize>",
                 f"    <RequestCount>{requests}</RequestCount>", f"    <WriteRatio>{write_ratio}</WriteRatio>",
                 "    <Throughput>0</Throughput>", f"    <ThreadsPerFile>{len(threads)}</ThreadsPerFile>",
                 "    <IOPriority>3</IOPriority>", "    <Weight>1</Weight>", "  </Target>", "</Targets>"):
        put(line, 4)
    put("</TimeSpan>", 3)
    put("</TimeSpans>", 2)
    put("</Profile>", 1)
    put("<TimeSpan>", 1)
    for line in (f"<TestTimeSeconds>{seconds:.2f}</TestTimeSeconds>", f"<ThreadCount>{len(threads)}</ThreadCount>",
                 "<RequestCount>0</RequestCount>", "<ProcCount>8</ProcCount>", "<CpuUtilization>", "  <Average>",
                 "    <UsagePercent>12.50</UsagePercent>", "    <UserPercent>1.25</UserPercent>",
                 "    <KernelPercent>11.25</KernelPercent>", "    <IdlePercent>87.50</IdlePercent>", "  </Average>",
                 "</CpuUtilization>"):
        put(line, 2)
    if latency:
        put('<Latency ReadHistoBuckets="100" WriteHistoBuckets="100" TotalHistoBuckets="100">', 2)
        for percentile, (read_ms, write_ms) in (percentiles_ms or {}).items():
            put("<Bucket>", 3)
            put(f"<Percentile>{percentile}</Percentile>", 4)
            if any(t.read_ios for t in threads):
                put(f"<ReadMilliseconds>{read_ms:.3f}</ReadMilliseconds>", 4)
            if any(t.write_ios for t in threads):
                put(f"<WriteMilliseconds>{write_ms:.3f}</WriteMilliseconds>", 4)
            put("</Bucket>", 3)
        put("</Latency>", 2)
    for thread in threads:
        put("<Thread>", 2)
        put(f"<Id>{thread.thread}</Id>", 3)
        put("<Target>", 3)
        fields = [("Path", path), ("BytesCount", (thread.read_ios + thread.write_ios) * block), ("FileSize", 1 << 30),
                  ("IOCount", thread.read_ios + thread.write_ios), ("ReadBytes", thread.read_ios * block),
                  ("ReadCount", thread.read_ios), ("WriteBytes", thread.write_ios * block), ("WriteCount", thread.write_ios)]
        for name, value in fields:
            put(f"<{name}>{value}</{name}>", 4)
        if latency:
            if thread.read_ios:
                put(f"<AverageReadLatencyMilliseconds>{thread.read_ms:.3f}</AverageReadLatencyMilliseconds>", 4)
                put(f"<ReadLatencyStdev>{thread.read_stdev_ms:.3f}</ReadLatencyStdev>", 4)
            if thread.write_ios:
                put(f"<AverageWriteLatencyMilliseconds>{thread.write_ms:.3f}</AverageWriteLatencyMilliseconds>", 4)
                put(f"<WriteLatencyStdev>{thread.write_stdev_ms:.3f}</WriteLatencyStdev>", 4)
        put("</Target>", 3)
        put("</Thread>", 2)
    put("</TimeSpan>", 1)
    out.append("</Results>")
    return "\n".join(out).encode()


@dataclass(frozen=True)
class ElbenchoPhase:
    operation: str
    first_ms: int
    last_ms: int
    iops: tuple[int, int]
    mib_s: tuple[int, int]
    io_lat_us: tuple[int, int, int] | None = None
    """min, avg, max."""
    percentiles_us: dict[str, float] | None = None
    read_iops: tuple[int, int] | None = None
    """RWMIX's reads."""
    read_mib_s: tuple[int, int] | None = None
    read_lat_us: tuple[int, int, int] | None = None
    file_lat_us: tuple[int, int, int] | None = None


ELBENCHO_COMMAND = '"elbencho" "-w" "-r" "-t" "4" "-b" "4k" "--iodepth" "16" "--direct" "--rand" "-s" "1g" "/dev/nvme1n1" '


def _elapsed(ms: int) -> str:
    """UnitTk::elapsedMSToHumanStr."""
    seconds = ms // 1000
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60}.{ms % 1000:03d}s"
    return f"{seconds}.{ms % 1000:03d}s" if seconds else f"{ms}ms"


def _lat(us: int) -> str:
    """UnitTk::latencyUsToHumanStr (below 100 ms)."""
    return f"{us}us" if us < 1000 else f"{us / 1000:.2f}ms" if us < 10_000 else f"{us / 1000:.1f}ms"


def elbencho_text(phases: list[ElbenchoPhase], *, command: str = ELBENCHO_COMMAND) -> bytes:
    """The --resfile a run appends: its date, command line, table header, and printPhaseResultsToStream per phase."""
    def row(op: str, kind: str, first: object = "", last: object = "") -> str:
        return f"{op:<11} {kind:<17}: {first!s:>11} {last!s:>11}"

    def left(kind: str) -> str:
        return f"{'':<11} {kind:<17}: "

    lines = ["ISO DATE: 2024-01-05T10:11:12+0100", f"COMMAND LINE: {command}", "",
             f"{'OPERATION':<11} {'RESULT TYPE':<17}  {'FIRST DONE':>11} {'LAST DONE':>11}",
             f"{'=' * 11} {'=' * 16}   {'=' * 10:>11} {'=' * 9:>11}"]
    for phase in phases:
        mix = phase.read_iops is not None
        lines.append(row(phase.operation, "Elapsed time", _elapsed(phase.first_ms), _elapsed(phase.last_ms)))
        lines.append(row("", "IOPS write" if mix else "IOPS", *phase.iops))
        if mix and phase.read_iops:
            lines.append(row("", "IOPS read", *phase.read_iops))
            lines.append(row("", "IOPS total", phase.iops[0] + phase.read_iops[0], phase.iops[1] + phase.read_iops[1]))
        lines.append(row("", "MiB/s write" if mix else "Throughput MiB/s", *phase.mib_s))
        if mix and phase.read_mib_s:
            lines.append(row("", "MiB/s read", *phase.read_mib_s))
            lines.append(row("", "MiB/s total", phase.mib_s[0] + phase.read_mib_s[0], phase.mib_s[1] + phase.read_mib_s[1]))
        lines.append(row("", "Total MiB", phase.mib_s[0] * phase.first_ms // 1000, phase.mib_s[1] * phase.last_ms // 1000))
        if phase.file_lat_us:
            low, mean, high = phase.file_lat_us
            lines.append(left("Files latency") + f"[ min={_lat(low)} avg={_lat(mean)} max={_lat(high)} ]")
        if phase.io_lat_us:
            low, mean, high = phase.io_lat_us
            lines.append(left("IO wr latency" if mix else "IO latency") + f"[ min={_lat(low)} avg={_lat(mean)} max={_lat(high)} ]")
        if phase.percentiles_us:
            lines.append(left("IO lat % us") + "[ " + " ".join(f"{p}%<={v:g}" for p, v in phase.percentiles_us.items()) + " ]")
        if mix and phase.read_lat_us:
            low, mean, high = phase.read_lat_us
            lines.append(left("IO rd latency") + f"[ min={_lat(low)} avg={_lat(mean)} max={_lat(high)} ]")
        lines.append("---")
    return ("\n".join(lines) + "\n\n").encode()


ELBENCHO_CSV_LABELS = [
    "ISO date", "label", "path type", "paths", "hosts", "threads", "dirs", "files", "file size", "block size", "direct IO",
    "random", "random aligned", "IO depth", "shared paths", "truncate", "operation", "time ms [first]", "time ms [last]",
    "entries/s [first]", "entries/s [last]", "IOPS [first]", "IOPS [last]", "MiB/s [first]", "MiB/s [last]", "CPU% [first]",
    "CPU% [last]", "entries [first]", "entries [last]", "MiB [first]", "MiB [last]", "Ent lat us [min]", "Ent lat us [avg]",
    "Ent lat us [max]", "IO lat us [min]", "IO lat us [avg]", "IO lat us [max]", "rwmix read entries/s [first]",
    "rwmix read entries/s [last]", "rwmix read IOPS [first]", "rwmix read IOPS [last]", "rwmix read MiB/s [first]",
    "rwmix read MiB/s [last]", "rwmix read entries [first]", "rwmix read entries [last]", "rwmix read MiB [first]",
    "rwmix read MiB [last]", "rwmix read Ent lat us [min]", "rwmix read Ent lat us [avg]", "rwmix read Ent lat us [max]",
    "rwmix read IO lat us [min]", "rwmix read IO lat us [avg]", "rwmix read IO lat us [max]", "version", "command"]


def elbencho_csv(phases: list[ElbenchoPhase], *, hosts: int = 1) -> bytes:
    """The --csvfile: its label row (written once, to an empty file), then printPhaseResultsToStringVec per phase,
    for a 4-thread random 4 KiB block-device run at iodepth 16."""
    rows = [",".join(ELBENCHO_CSV_LABELS)]
    for phase in phases:
        mix = phase.read_iops is not None
        lat = [str(v) for v in phase.io_lat_us] if phase.io_lat_us else ["", "", ""]
        read_lat = [str(v) for v in phase.read_lat_us] if phase.read_lat_us else ["", "", ""]
        read = [*(map(str, phase.read_iops or ("", ""))), *(map(str, phase.read_mib_s or ("", "")))] if mix else [""] * 4
        cells = ["2024-01-05T10:11:12.345+0100", "", "blockdev", "1", str(hosts), "4", "", "", "1073741824", "4096", "1", "1",
                 "1", "16", "" if hosts == 1 else "1", "", phase.operation, str(phase.first_ms), str(phase.last_ms), "", "",
                 *map(str, phase.iops), *map(str, phase.mib_s), "85", "80", "", "",
                 str(phase.mib_s[0] * phase.first_ms // 1000), str(phase.mib_s[1] * phase.last_ms // 1000), "", "", "", *lat,
                 "", "", *read, "", "", "", "", "", "", "", *read_lat, "3.0.25", ELBENCHO_COMMAND.replace(",", " ")]
        assert len(cells) == len(ELBENCHO_CSV_LABELS)
        rows.append(",".join(cells))
    return ("\n".join(rows) + "\n").encode()
