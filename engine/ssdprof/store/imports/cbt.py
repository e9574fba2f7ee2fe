"""A cbt (ceph/cbt) results tree: one run per benchmark setting of each iteration, every client a host.

The layout, from cbt's code (benchmark.py, librbdfio.py, fio.py, settings.py)::

    <archive>/results/cbt_config.yaml                       the whole configuration: cluster and benchmarks
    <archive>/results/<iteration, 8 digits>/id-<sha1 of the setting, 8>/
        benchmark_config.yaml                               this setting ('cluster:' holds it, despite the name)
        output.<volume>.<client>                            each client's fio output (rbdfio: output.<client>)
        json_output.<volume>.<client>                       the JSON part of it, where cbt extracted it
        <mode>_<op_size>/iodepth-NNN/numjobs-NNN/output.*   the same per workload (librbdfio 'workloads:')

A client named in cbt_config.yaml's ``clients`` with no output file is a host of the run with an
error, and the run is partial. The cluster configuration becomes tags (nodes, osds_per_node, fs,
replication, benchmark, iteration).
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from typing import Any

import yaml

from ssdprof.fio.output import FioOutputError, FioReport, parse_report
from ssdprof.model.aggregate import combine
from ssdprof.model.hosts import ClusterFacts, HostResult
from ssdprof.model.provenance import Provenance, SourceFigure
from ssdprof.model.results import EngineInfo, Environment, RunResult, ValidityWarning
from ssdprof.store.imports.imported_run import imported_run
from ssdprof.store.imports.sources import ImportFailure, SourceFile, SourceSet
from ssdprof.store.interchange import workload_from_fio_options

__all__ = ["import_cbt", "is_cbt_tree", "wanted_in_cbt_tree"]

TOOL = "cbt"
_OUTPUT = re.compile(r"^(?P<json>json_)?output(?:\.(?P<volume>\d+))?\.(?P<host>[^/]+)$")
_LOG = re.compile(r"_(iops|bw|lat|clat|slat)\.\d+\.log|\.log\.")


def wanted_in_cbt_tree(path: str) -> bool:
    """The files of a cbt tree an import reads: its YAML and each client's fio output (not fio's logs, collectl, ...)."""
    name = path.rsplit("/", 1)[-1]
    return name in ("cbt_config.yaml", "benchmark_config.yaml") or (bool(_OUTPUT.match(name)) and not _LOG.search(name))


def is_cbt_tree(found: SourceSet) -> bool:
    return found.folder and any(f.name == "benchmark_config.yaml" for f in found.files)


def _yaml(source: SourceFile) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load(source.text())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" line {mark.line + 1}" if mark is not None else ""
        raise ImportFailure(f"{source.path}{at}: not YAML cbt could have written ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(loaded, dict):
        raise ImportFailure(f"{source.path}: YAML with no mapping at its top; cbt writes 'cluster:' there")
    return loaded


def import_cbt(found: SourceSet, tags: dict[str, str]) -> tuple[list[RunResult], list[str]]:
    configs = [f for f in found.files if f.name == "benchmark_config.yaml"]
    top = next((f for f in found.files if f.name == "cbt_config.yaml"), None)
    cluster = (_yaml(top).get("cluster") or {}) if top else {}
    clients = _nodes(cluster.get("clients"))
    runs, notes = [], []
    if top is None:
        notes.append("no results/cbt_config.yaml in the folder: the clients expected and the cluster's configuration "
                     "are unknown (import the archive's folder to have them)")
    for config in sorted(configs, key=lambda f: f.path):
        folder = config.path.rsplit("/", 1)[0] if "/" in config.path else ""
        setting = _yaml(config).get("cluster") or {}
        groups = _outputs(found, folder)
        if not groups:
            notes.append(f"{folder or '.'}: benchmark {setting.get('benchmark', '?')} wrote no fio output: not imported")
            continue
        for group, files in sorted(groups.items()):
            runs.append(_run(found, config, setting, cluster=cluster, clients=clients, group=group, outputs=files, tags=tags))
    if not runs:
        raise ImportFailure(f"{found.name}: no client's fio output in any benchmark folder of the cbt tree"
                            + (f" ({notes[-1]})" if notes else ""))
    return runs, notes


def _nodes(value: Any) -> list[str]:
    """cbt's node lists: a YAML list or a comma-separated string; 'user@host' names the host."""
    items = value if isinstance(value, list) else str(value or "").split(",")
    return [str(item).strip().split("@")[-1] for item in items if str(item).strip()]


def _outputs(found: SourceSet, folder: str) -> dict[str, dict[str, list[SourceFile]]]:
    """Per workload subfolder ('' for the setting's own folder): each client's output files, JSON-extracted ones first."""
    groups: dict[str, dict[str, list[SourceFile]]] = defaultdict(lambda: defaultdict(list))
    prefix = f"{folder}/" if folder else ""
    for source in found.files:
        if not source.path.startswith(prefix):
            continue
        relative = source.path[len(prefix):]
        sub, _, name = relative.rpartition("/")
        if any(part.startswith("id-") for part in sub.split("/")):
            continue  # another setting's folder below this one
        matched = _OUTPUT.match(name)
        if matched and not _LOG.search(name):
            groups[sub][matched.group("host")].append(source)
    return groups


def _client_report(files: list[SourceFile]) -> tuple[list[FioReport], list[SourceFile]]:
    """Each volume's fio report for one client: the extracted json_output where it parses, else the full output."""
    by_volume: dict[str, list[SourceFile]] = defaultdict(list)
    for source in files:
        matched = _OUTPUT.match(source.name)
        assert matched is not None
        by_volume[matched.group("volume") or "0"].append(source)
    reports, used = [], []
    for volume in sorted(by_volume):
        candidates = sorted(by_volume[volume], key=lambda s: not s.name.startswith("json_"))
        failure = ""
        for source in candidates:
            try:
                reports.append(parse_report(source.text()))
                used.append(source)
                break
            except FioOutputError as exc:
                failure = f"{source.path}: {exc}"
        else:
            raise ImportFailure(f"{failure}; the client's output is cut short or not fio's")
    return reports, used


def _run(found: SourceSet, config: SourceFile, setting: dict[str, Any], *, cluster: dict[str, Any], clients: list[str],
         group: str, outputs: dict[str, list[SourceFile]], tags: dict[str, str]) -> RunResult:
    folder = config.path.rsplit("/", 1)[0] if "/" in config.path else found.name
    hosts, used, reports = [], [config], []
    for host in sorted(outputs):
        host_reports, files = _client_report(outputs[host])
        used += files
        reports += host_reports
        jobs = [job for report in host_reports for job in report.jobs]
        hosts.append(HostResult(host=host, jobs=len(jobs), read=combine(j.read for j in jobs), write=combine(j.write for j in jobs),
                                fio_version=host_reports[0].fio_version))
    where = f"{folder}/{group}" if group else folder
    missing = [c for c in clients if c not in outputs]
    warnings = [ValidityWarning(code="cbt_client_output_missing", concerns=["hosts"], message=(
        f"client {c} has no fio output in {where} (cbt's output.<volume>.{c}): the run's figures are the other "
        "clients' only")) for c in missing]
    hosts += [HostResult(host=c, error=f"no fio output in {where}") for c in missing]
    first = reports[0]
    options = {**first.global_options, **first.jobs[0].options}
    workload = workload_from_fio_options(options, len(first.jobs))
    read, write = combine(h.read for h in hosts), combine(h.write for h in hosts)
    iteration = str(setting.get("iteration", _iteration(folder)))
    digest = hashlib.sha256("\n".join(f"{s.path}:{s.digest}" for s in sorted(used, key=lambda s: s.path)).encode()).hexdigest()
    provenance = Provenance(
        tool=TOOL, tool_version="", file=f"{found.name}/{where}", part=f"iteration {iteration}, {folder.rsplit('/', 1)[-1]}"
        + (f", {group}" if group else ""), digest=digest,
        latency="fio's own: total latency (lat) and completion (clat) as each client's fio version wrote them",
        figures=[SourceFigure(field=f"{side}.{name}", source=f"each client's fio output, '{side}' of every job",
                              meaning="added over the jobs and the clients (bins added for percentiles)")
                 for side in ("read", "write") for name in ("iops", "bw_bytes_per_s", "lat_ns")],
        notes=[f"{len(hosts) - len(missing)} of {len(hosts)} clients wrote fio output"] if missing else [])
    engine = EngineInfo(name="fio", version=first.fio_version, ioengine=str(options.get("ioengine", "")),
                        reason=f"imported from a cbt tree ({setting.get('benchmark', 'fio')})",
                        effective_queue_depth=workload.queue_depth, direct=workload.direct)
    nodes = len(_nodes(cluster.get("osds")))
    environment = Environment(tool_versions={"fio": first.fio_version}, cluster=ClusterFacts(
        storage_nodes=nodes, osd_count=nodes * int(cluster.get("osds_per_node") or 1)))
    return imported_run(provenance=provenance, workload=workload, engine=engine, read=read, write=write, environment=environment,
                        tags={**_tags(setting, cluster, iteration), **tags}, raw="\n".join(s.text() for s in used[1:]),
                        hosts=hosts, status="partial" if missing else "ok", warnings=warnings,
                        started_at=_iso(first.timestamp_ms))


def _iteration(folder: str) -> str:
    found = re.search(r"(?:^|/)(\d{8})/id-[^/]+$", folder)
    return found.group(1) if found else "0"


def _tags(setting: dict[str, Any], cluster: dict[str, Any], iteration: str) -> dict[str, str]:
    tags = {"cbt_benchmark": str(setting.get("benchmark", "")), "cbt_iteration": str(int(iteration) if iteration.isdigit() else iteration)}
    osds = _nodes(cluster.get("osds"))
    if osds:
        tags["nodes"] = str(len(osds))
    for key in ("osds_per_node", "fs", "iterations"):
        if cluster.get(key) not in (None, ""):
            tags[f"cbt_{key}"] = str(cluster[key])
    pools = cluster.get("pool_profiles") or {}
    if isinstance(pools, dict):
        pool: Any = pools.get(setting.get("pool_profile", "default")) or next(iter(pools.values()), {})
        if isinstance(pool, dict) and pool.get("replication") is not None:
            tags["replication"] = str(pool["replication"])
    return {k: v for k, v in tags.items() if v}


def _iso(timestamp_ms: int | None) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(timestamp_ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds") if timestamp_ms else ""
