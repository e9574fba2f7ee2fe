"""diskspd's XML results (``-Rxml``): one run per target of each time span, its threads' I/O counts
and bytes added, each thread kept as a part.

What its figures are, from its source (XmlResultParser.cpp): per thread and target, ``ReadCount`` /
``ReadBytes`` / ``WriteCount`` / ``WriteBytes`` over ``TestTimeSeconds`` (diskspd's own I/O per s is
the same division); with ``-L``, each thread's mean latency and, for the whole time span, latency
percentiles from its histogram (``Latency/Bucket``), an I/O timed from issue to completion (total
latency), in milliseconds to three decimals. Without ``-L`` there is no latency at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from lxml import etree

from ssdprof.model.provenance import ImportedPart, Provenance
from ssdprof.model.results import EngineInfo, Environment, RunResult
from ssdprof.model.workload import Pattern, Workload
from ssdprof.store.imports.imported_run import Given, imported_run, side_stats
from ssdprof.store.imports.sources import ImportFailure, SourceFile

__all__ = ["TOOL", "import_diskspd", "is_diskspd"]

TOOL = "diskspd"
_PERCENTILES = {"50": "p50", "90": "p90", "95": "p95", "99": "p99", "99.9": "p99_9", "99.99": "p99_99",
                "0": "min", "100": "max"}
_LATENCY = "total latency (diskspd: I/O issue to completion)"


def is_diskspd(source: SourceFile) -> bool:
    head = source.data[:400].lstrip(b"\xef\xbb\xbf \r\n\t")
    return head.startswith(b"<Results>") or (head.startswith(b"<?xml") and b"<Results>" in head)


@dataclass
class _Target:
    path: str
    threads: list[ImportedPart] = field(default_factory=list)
    read_stdevs: list[tuple[int, float, float]] = field(default_factory=list)
    write_stdevs: list[tuple[int, float, float]] = field(default_factory=list)


def import_diskspd(source: SourceFile, tags: dict[str, str]) -> list[RunResult]:
    root = _parse(source)
    version = _text(root, "System/Tool/Version", source, required=False)
    spans, profiles = root.findall("TimeSpan"), root.findall("Profile/TimeSpans/TimeSpan")
    if not spans:
        raise ImportFailure(f"{source.path}: element Results/TimeSpan missing: diskspd wrote no results (cut short?)")
    environment = Environment(hostname=_text(root, "System/ComputerName", source, required=False), os="Windows",
                              tool_versions={TOOL: version} if version else {})
    started = _run_time(_text(root, "System/RunTime", source, required=False))
    runs = []
    for index, span in enumerate(spans, start=1):
        if span.find("Error") is not None:
            continue  # diskspd: the test was interrupted before the measurements began
        if index > len(profiles):
            raise ImportFailure(f"{source.path}: element Results/Profile/TimeSpans/TimeSpan[{index}] missing: "
                                f"no settings for the results of time span {index}")
        runs += [r.model_copy(update={"started_at": started, "finished_at": started})
                 for r in _span_runs(source, span, profiles[index - 1], index, version=version,
                                                  environment=environment, tags=tags)]
    if not runs:
        raise ImportFailure(f"{source.path}: every time span says the test was interrupted before measuring")
    return runs


def _run_time(text: str) -> str:
    """diskspd's RunTime ('2024/06/03 10:00:00 UTC') as ISO 8601; '' if absent or unreadable."""
    from datetime import datetime, timezone

    try:
        return datetime.strptime(text, "%Y/%m/%d %H:%M:%S UTC").replace(tzinfo=timezone.utc).isoformat()
    except ValueError:
        return ""


def _parse(source: SourceFile) -> etree._Element:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False)
    try:
        root = etree.fromstring(source.data, parser)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position
        raise ImportFailure(f"{source.path} line {line}, column {column}: not well-formed XML ({exc.msg}); "
                            "the file is cut short or changed") from None
    if root.tag != "Results":
        raise ImportFailure(f"{source.path}: root element <{root.tag}>, not diskspd's <Results>")
    return root


def _text(node: etree._Element, path: str, source: SourceFile, *, required: bool = True, where: str = "") -> str:
    found = node.find(path)
    if found is None or found.text is None:
        if required:
            raise ImportFailure(f"{source.path}: element {where or 'Results'}/{path} missing")
        return ""
    return str(found.text).strip()


def _number(node: etree._Element, path: str, source: SourceFile, where: str) -> float:
    text = _text(node, path, source, where=where)
    try:
        value = float(text)
    except ValueError:
        raise ImportFailure(f"{source.path}: element {where}/{path} is {text!r}, not a number") from None
    if not math.isfinite(value) or value < 0:
        raise ImportFailure(f"{source.path}: element {where}/{path} is {text!r}, not a count or time")
    return value


def _span_runs(source: SourceFile, span: etree._Element, profile: etree._Element, index: int, *, version: str,
               environment: Environment, tags: dict[str, str]) -> list[RunResult]:
    where = f"Results/TimeSpan[{index}]"
    seconds = _number(span, "TestTimeSeconds", source, where)
    if seconds <= 0:
        raise ImportFailure(f"{source.path}: element {where}/TestTimeSeconds is 0: nothing was measured")
    targets = _targets(source, span, where)
    settings = {_text(t, "Path", source, where=f"{where} profile Target"): t for t in profile.findall("Targets/Target")}
    percentiles = _percentiles(span) if len(targets) == 1 else {}
    runs = []
    for target in targets.values():
        config = settings.get(target.path)
        if config is None:
            raise ImportFailure(f"{source.path}: element Results/Profile/TimeSpans/TimeSpan[{index}]/Targets/Target with "
                                f"Path {target.path!r} missing: no settings for that target's results")
        runs.append(_target_run(source, target, config, profile=profile, seconds=seconds, percentiles=percentiles,
                                span=f"time span {index}", version=version, environment=environment, tags=tags,
                                several=len(targets) > 1))
    return runs


def _targets(source: SourceFile, span: etree._Element, where: str) -> dict[str, _Target]:
    targets: dict[str, _Target] = {}
    threads = span.findall("Thread")
    if not threads:
        raise ImportFailure(f"{source.path}: element {where}/Thread missing: no thread's results (cut short?)")
    for thread in threads:
        thread_id = _text(thread, "Id", source, where=f"{where}/Thread")
        for element in thread.findall("Target"):
            at = f"{where}/Thread[Id={thread_id}]/Target"
            path = _text(element, "Path", source, where=at)
            counts = {name: int(_number(element, name, source, at))
                      for name in ("ReadCount", "ReadBytes", "WriteCount", "WriteBytes")}
            read_ms = element.findtext("AverageReadLatencyMilliseconds")
            write_ms = element.findtext("AverageWriteLatencyMilliseconds")
            target = targets.setdefault(path, _Target(path))
            target.threads.append(ImportedPart(
                name=f"thread {thread_id}", read_ios=counts["ReadCount"], read_bytes=counts["ReadBytes"],
                write_ios=counts["WriteCount"], write_bytes=counts["WriteBytes"],
                read_lat_ns_mean=float(read_ms) * 1e6 if read_ms else None,
                write_lat_ns_mean=float(write_ms) * 1e6 if write_ms else None))
            for side, stdevs in (("Read", target.read_stdevs), ("Write", target.write_stdevs)):
                mean, stdev = element.findtext(f"Average{side}LatencyMilliseconds"), element.findtext(f"{side}LatencyStdev")
                if mean and stdev:
                    stdevs.append((counts[f"{side}Count"], float(mean) * 1e6, float(stdev) * 1e6))
    return targets


def _percentiles(span: etree._Element) -> dict[str, dict[str, float]]:
    """Per direction: the time span's latency statistics in ns, as diskspd gave them (-L only)."""
    latency = span.find("Latency")
    if latency is None:
        return {}
    found: dict[str, dict[str, float]] = {"read": {}, "write": {}}
    for side in ("Read", "Write"):
        for bucket in latency.findall("Bucket"):
            name = _PERCENTILES.get((bucket.findtext("Percentile") or "").strip())
            value = bucket.findtext(f"{side}Milliseconds")
            if name and value:
                found[side.lower()][name] = float(value) * 1e6
    return found


def _pooled(stdevs: list[tuple[int, float, float]]) -> float | None:
    """The standard deviation of all the threads' latencies together, from each one's count, mean and deviation."""
    total = sum(n for n, _, _ in stdevs)
    if not total:
        return None
    mean = sum(n * m for n, m, _ in stdevs) / total
    return math.sqrt(max(0.0, sum(n * (s * s + m * m) for n, m, s in stdevs) / total - mean * mean))


def _target_run(source: SourceFile, target: _Target, config: etree._Element, *, profile: etree._Element, seconds: float,
                percentiles: dict[str, dict[str, float]], span: str, version: str, environment: Environment,
                tags: dict[str, str], several: bool) -> RunResult:
    where = f"{span}, target {target.path}"
    block = int(_number(config, "BlockSize", source, f"{where} settings"))
    write_ratio = int(_number(config, "WriteRatio", source, f"{where} settings"))
    queue_depth = int(_number(config, "RequestCount", source, f"{where} settings")) or 1
    sides = {}
    figures = []
    for side, stdevs in (("read", target.read_stdevs), ("write", target.write_stdevs)):
        given = Given()
        label = side.capitalize()
        given.put("io_count", sum(getattr(t, f"{side}_ios") for t in target.threads), f"{where}: {label}Count of each thread, added")
        given.put("io_bytes", sum(getattr(t, f"{side}_bytes") for t in target.threads), f"{where}: {label}Bytes of each thread, added")
        given.put("iops", (given.value("io_count") or 0) / seconds, f"{where}: {label}Count ÷ TestTimeSeconds",
                  "diskspd's I/O per s is the same division")
        given.put("bw_bytes_per_s", (given.value("io_bytes") or 0) / seconds, f"{where}: {label}Bytes ÷ TestTimeSeconds")
        means = [(getattr(t, f"{side}_ios"), getattr(t, f"{side}_lat_ns_mean")) for t in target.threads]
        counted = [(n, m) for n, m in means if m is not None and n]
        if counted:
            given.put("lat_ns.mean", sum(n * m for n, m in counted) / sum(n for n, _ in counted),
                      f"{where}: Average{label}LatencyMilliseconds of each thread, weighted by its {label}Count", _LATENCY)
            given.put("lat_ns.stddev", _pooled(stdevs), f"{where}: {label}LatencyStdev of each thread, pooled")
        for name, value in percentiles.get(side, {}).items():
            given.put(f"lat_ns.{name}", value, f"{span}: Latency/Bucket {name} ({label}Milliseconds)", _LATENCY)
        if not given.value("io_count"):
            sides[side] = side_stats(Given(), side, runtime_s=seconds, block_size_bytes=block, measured="")
            continue
        sides[side] = side_stats(given, side, runtime_s=seconds, block_size_bytes=block, measured="TestTimeSeconds")
        figures += sides[side][1]
    random = config.find("Random") is not None
    pattern = (Pattern.RANDRW if random else Pattern.RW) if 0 < write_ratio < 100 else \
        (Pattern.RANDWRITE if random else Pattern.WRITE) if write_ratio == 100 else (Pattern.RANDREAD if random else Pattern.READ)
    measured_latency = any(t.read_lat_ns_mean is not None or t.write_lat_ns_mean is not None for t in target.threads)
    notes = _notes(config, several, measured_latency)
    direct = config.findtext("DisableOSCache") == "true" or config.findtext("DisableLocalCache") == "true"
    duration = float(profile.findtext("Duration") or seconds) or seconds
    workload = Workload(pattern=pattern, read_pct=100 - write_ratio, block_size_bytes=max(block // 512 * 512, 512),
                        queue_depth=min(queue_depth, 4096), numjobs=min(max(len(target.threads), 1), 256),
                        runtime_s=duration, ramp_s=float(profile.findtext("Warmup") or 0),
                        size_bytes=max(int(config.findtext("FileSize") or 0) // 512 * 512, block * len(target.threads), 512),
                        target=target.path[:4096], direct=direct)
    provenance = Provenance(tool=TOOL, tool_version=version, file=source.path, part=where, digest=source.digest,
                            latency=(_LATENCY + (", with percentiles" if percentiles else ", mean only")) if measured_latency
                            else "none: diskspd ran without -L", figures=figures, notes=notes, parts=target.threads)
    engine = EngineInfo(name="diskspd", version=version, ioengine="diskspd", reason=f"imported from {TOOL} {version}".strip(),
                        effective_queue_depth=workload.queue_depth, direct=direct)
    return imported_run(provenance=provenance, workload=workload, engine=engine, read=sides["read"][0], write=sides["write"][0],
                        environment=environment, tags=tags, raw=source.text(), started_at="")


def _notes(config: etree._Element, several: bool, measured_latency: bool) -> list[str]:
    notes = []
    if not measured_latency:
        notes.append("diskspd ran without -L: it measured no latency, so none is recorded")
    elif several:
        notes.append("diskspd's latency percentiles are over all the time span's targets together: not given per target, "
                     "so left empty (the threads' means are per target)")
    ratio = config.findtext("RandomRatio")
    if ratio:
        notes.append(f"{ratio} % of the I/Os were random and the rest sequential (diskspd -rs); recorded as random")
    return notes
