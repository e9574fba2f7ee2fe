"""A whole cluster study at full size: the store and the analysis timed on it, each figure beside its goal.

The study ssdprof is modelled on: 4 storage-node counts x 2 interfaces x 4 access patterns x 3 job
counts x 3 chunk sizes, every setting repeated 30 times: 8,640 runs, each from 8 client hosts. Its
runs are made from a real run: every host of every run is a copy of the host in real fio output
(engine/tests/data/fio/fio-3.33_status_interval_lat.jsonplus.txt: its figures, latency percentiles,
histogram bins and per-second progress read by the engine's own parsers, its raw output kept), the
figures varied deterministically by a simple model of the cluster (bandwidth grows with access size,
jobs and nodes along the Universal Scalability Law, PCIe above SATA, latency by Little's law, ±3 %
noise from a seeded generator). Runs are stored through the Store API as one sweep per node count
and interface, tagged like the study (study=ceph, nodes=, interface=, pattern=, jobs=, chunk=),
plus a sweep of 100 runs (10 points x 10 repeats, study=results-100) for Results and the PDF.

Then, in a fresh process so its memory is the engine's own: the CLI's `compare`, `correlate` and
`predict` as a user types them (wall clock, Python's start included, best of 3 beside the bare
interpreter's start), their RPC equivalents and the
Models view's (the methods the GUI calls, answers serialised as the transport would), History's first
page, Results opened on 100 runs, a PDF of the 100-run sweep, and the engine's resident memory.

    engine/.venv/bin/python bench/study_scale.py                     # the full study, 8,640 runs
    engine/.venv/bin/python bench/study_scale.py --repeats 3         # 864 runs: a quick look
    engine/.venv/bin/python bench/study_scale.py --db /var/tmp/study.sqlite3 --keep   # time it again later
    engine/.venv/bin/python bench/study_scale.py --db postgresql:///study?host=/tmp/pg   # a PostgreSQL store

Never part of the tests: figures are printed, not asserted.
"""

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "engine" / "tests" / "data" / "fio" / "fio-3.33_status_interval_lat.jsonplus.txt"
PYTHON = sys.executable
SSDPROF = str(Path(sys.executable).with_name("ssdprof"))

NODES = (2, 3, 4, 5)
INTERFACES = ("SATA", "PCIe")
PATTERNS = ("read", "write", "randread", "randwrite")
JOBS = (1, 2, 4)
CHUNKS = (4 << 10, 64 << 10, 1 << 20)
HOSTS = 8
RESULTS_POINTS, RESULTS_REPEATS = 10, 10


# --- building the study ----------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    nodes: int
    interface: str
    pattern: str
    jobs: int
    chunk_bytes: int


def template() -> tuple[Any, str]:
    """The real run every host is copied from (fio's figures, bins and per-second progress), and
    the host's final fio document as fio printed it (compactly), its raw output."""
    from ssdprof.fio.output import split_documents
    from ssdprof.fio.progress import ProgressTracker
    from ssdprof.store.interchange import import_fio_output

    run = import_fio_output(FIXTURE, tags={})[0]
    documents, _ = split_documents(FIXTURE.read_text())
    tracker = ProgressTracker()
    progress = [s for d in documents for s in tracker.update(d)]
    return run.model_copy(update={"progress": progress}), json.dumps(documents[-1], separators=(",", ":"))


def _usl(nodes: int, lam: float = 1.0, sigma: float = 0.08, kappa: float = 0.004) -> float:
    return lam * nodes / (1 + sigma * (nodes - 1) + kappa * nodes * (nodes - 1))


def figures(setting: Setting, noise: random.Random) -> tuple[float, float]:
    """The cluster's bandwidth (bytes/s) and mean latency (ns) at a setting, with ±3 % noise."""
    per_io_s = 90e-6 + setting.chunk_bytes / (1.8e9 if setting.interface == "PCIe" else 0.5e9)
    random_cost = 1.35 if setting.pattern.startswith("rand") else 1.0
    write_cost = 1.6 if "write" in setting.pattern else 1.0
    outstanding = HOSTS * setting.jobs * 4
    iops_ceiling = 4 * _usl(setting.nodes) / (per_io_s * random_cost * write_cost)
    iops = iops_ceiling * outstanding / (outstanding + 24) * noise.uniform(0.97, 1.03)
    return iops * setting.chunk_bytes, outstanding / iops * 1e9


def _scaled_bins(bins: dict[int, int], ratio: float, io_ratio: float) -> dict[int, int]:
    from ssdprof.model import histogram

    out: dict[int, int] = {}
    for value, count in bins.items():
        key = histogram.bucket_value(max(int(value * ratio), 1))
        out[key] = out.get(key, 0) + max(int(count * io_ratio), 1)
    return out


def _direction(stats: Any, iops: float, bw: float, lat_ns: float, runtime_ms: float) -> Any:
    base = stats.lat_ns.mean or 1.0
    ratio = lat_ns / base
    io_ratio = iops * runtime_ms / 1000 / max(stats.io_count, 1)

    def scaled(span: Any) -> Any:
        fields = ("mean", "stddev", "min", "max", "p50", "p90", "p95", "p99", "p99_9", "p99_99")
        return span.model_copy(update={f: getattr(span, f) * ratio for f in fields
                                       if hasattr(span, f) and getattr(span, f) is not None})

    ios = int(iops * runtime_ms / 1000)
    return stats.model_copy(update={
        "io_count": ios, "io_bytes": int(bw * runtime_ms / 1000), "runtime_ms": runtime_ms, "iops": iops,
        "bw_bytes_per_s": bw, "lat_ns": scaled(stats.lat_ns).model_copy(update={"samples": ios}),
        "clat_ns": scaled(stats.clat_ns).model_copy(update={"samples": ios}), "slat_ns": stats.slat_ns,
        "lat_bins_ns": _scaled_bins(stats.lat_bins_ns, ratio, io_ratio),
        "clat_bins_ns": _scaled_bins(stats.clat_bins_ns, ratio, io_ratio)})


def study_run(base: Any, raw_document: str, setting: Setting, workload: Any, noise: random.Random) -> Any:
    """One run of the study: 8 hosts, each the real host's statistics at this setting's figures."""
    from ssdprof.fio.output import combine
    from ssdprof.model.results import DirectionStats, ProgressSample

    bw, lat_ns = figures(setting, noise)
    real = base.hosts[0]
    side = "write" if "write" in setting.pattern else "read"
    runtime_ms = workload.runtime_s * 1000
    hosts = []
    for k in range(HOSTS):
        share = noise.uniform(0.9, 1.1) / HOSTS
        stats = _direction(real.read, bw * share / setting.chunk_bytes, bw * share, lat_ns / (share * HOSTS), runtime_ms)
        hosts.append(real.model_copy(update={
            "host": f"client{k + 1}", side: stats, ("read" if side == "write" else "write"): DirectionStats(),
            "jobs": setting.jobs, "target": f"rbd/study-{k + 1}", "link_limit_bytes_per_s": 1.25e9,
            "link_limit_source": "NIC speed of eth0"}))
    real_seconds = base.progress
    progress = [ProgressSample(**{**real_seconds[t % len(real_seconds)].model_dump(), "host": h.host,
                                  "elapsed_s": float(t + 1), "ramping": t < workload.ramp_s,
                                  f"{side}_iops": getattr(h, side).iops * noise.uniform(0.95, 1.05),
                                  f"{side}_bw_bytes_per_s": getattr(h, side).bw_bytes_per_s,
                                  f"{'write' if side == 'read' else 'read'}_iops": 0.0})
                for h in hosts for t in range(int(workload.ramp_s + workload.runtime_s))]
    raw = "\n".join(f"### host {h.host}\n{raw_document}" for h in hosts)
    return base.model_copy(update={
        "workload": workload, "hosts": hosts, "progress": progress, "raw_output": raw,
        "read": combine(h.read for h in hosts), "write": combine(h.write for h in hosts),
        "source": "measured", "engine": base.engine.model_copy(update={"effective_queue_depth": 4}),
        "environment": base.environment.model_copy(update={"interface": setting.interface,
                                                            "hostname": "lab-controller"}),
        "tags": {"study": "ceph", "nodes": str(setting.nodes), "interface": setting.interface,
                 "pattern": setting.pattern, "jobs": str(setting.jobs), "chunk": str(setting.chunk_bytes)}})


@dataclass(frozen=True)
class Study:
    """Which settings are measured: the study's, or a small one for e2e/study.spec.ts (2 node counts x
    2 interfaces x 3 chunk sizes of sequential reads, each repeated: series of many runs, built in seconds)."""

    nodes: tuple[int, ...] = NODES
    patterns: tuple[str, ...] = PATTERNS
    jobs: tuple[int, ...] = JOBS


SMALL = Study(nodes=(2, 3), patterns=("read",), jobs=(1,))


def _workloads(nodes: int, interface: str, study: Study = Study()) -> list[tuple[Setting, Any]]:
    from ssdprof.model.workload import Workload

    return [(Setting(nodes, interface, p, j, c),
             Workload(pattern=p, read_pct=0 if "write" in p else 100, block_size_bytes=c, queue_depth=4, numjobs=j, runtime_s=30, ramp_s=5,
                      size_bytes=4 << 30, target="rbd/study"))
            for p in study.patterns for j in study.jobs for c in CHUNKS]


def build(location: str, repeats: int, study: Study = Study()) -> dict[str, Any]:
    from ssdprof.model.sweep import SweepSpec
    from ssdprof.store.db import Store

    base, raw_document = template()
    store = Store(_location(location))
    noise = random.Random(28)
    made = 0
    started = time.perf_counter()
    try:
        for nodes in study.nodes:
            for interface in INTERFACES:
                points = _workloads(nodes, interface, study)
                spec = SweepSpec(name=f"ceph study: {nodes} nodes, {interface}", points=[w for _, w in points],
                                 repeats=repeats, tags={"study": "ceph"})
                sweep_id = store.create_sweep(spec)
                for repeat in range(repeats):
                    for index, (setting, workload) in enumerate(points):
                        run = study_run(base, raw_document, setting, workload, noise)
                        store.add_run(run.model_copy(update={"sweep_id": sweep_id, "repeat": repeat}), point_index=index)
                        made += 1
                store.set_sweep_status(sweep_id, "done")
                print(f"  stored {made} runs ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        results_sweep = _results_sweep(store, base, raw_document, noise)
    finally:
        store.close()
    return {"runs": made, "build_s": time.perf_counter() - started, "results_sweep": results_sweep}


def _results_sweep(store: Any, base: Any, raw_document: str, noise: random.Random) -> int:
    """A sweep of 100 runs (10 points x 10 repeats), for Results and the PDF."""
    from ssdprof.model.sweep import SweepSpec

    points = [(s, w.model_copy(update={"queue_depth": 2 ** (i % 5)}))
              for i, (s, w) in enumerate(_workloads(3, "PCIe")[:RESULTS_POINTS])]
    spec = SweepSpec(name="100 runs", points=[w for _, w in points], repeats=RESULTS_REPEATS, tags={"study": "results-100"})
    sweep_id = int(store.create_sweep(spec))
    for repeat in range(RESULTS_REPEATS):
        for index, (setting, workload) in enumerate(points):
            run = study_run(base, raw_document, setting, workload, noise)
            run = run.model_copy(update={"sweep_id": sweep_id, "repeat": repeat, "tags": {"study": "results-100"}})
            store.add_run(run, point_index=index)
    store.set_sweep_status(sweep_id, "done")
    return sweep_id


def _location(text: str) -> Any:
    if text.startswith("postgresql:"):
        from ssdprof.store.location import DatabaseUrl

        return DatabaseUrl(text)
    return Path(text)


# --- measuring -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    goal: str
    ok: bool | None
    note: str = ""


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def _cli(location: str, *argv: str) -> tuple[float, str, float]:
    """Wall clock, what it printed (or why it failed) and its CPU seconds (user + system)."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([SSDPROF, *argv, "--db", location], stdout=out, stderr=err, text=True, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        took = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        if status != 0:
            return took, f"exit {os.waitstatus_to_exitcode(status)}: {err.read().strip()[-300:]}", usage.ru_utime + usage.ru_stime
        return took, out.read(), usage.ru_utime + usage.ru_stime


class Rpc:
    """The engine's RPC in this process, as a transport calls it; answers serialised to JSON."""

    def __init__(self, location: str):
        from ssdprof.app.rpc import EngineService

        self.service = EngineService(_location(location), lambda *_: None)
        self.calls = 0

    def __call__(self, method: str, params: dict[str, Any]) -> Any:
        from ssdprof.app.rpc import handle_message

        self.calls += 1
        response = handle_message(self.service, {"jsonrpc": "2.0", "id": self.calls, "method": method, "params": params})
        text = json.dumps(response, default=str)
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error'].get('message', '')[:300]}")
        return json.loads(text)["result"]

    def has(self, method: str) -> bool:
        from ssdprof.app.contract.methods import METHODS

        return method in METHODS


def _rss_mb() -> tuple[float, float]:
    import resource

    import psutil

    current = psutil.Process().memory_info().rss / 1e6
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3
    return current, peak


def _goal(name: str, seconds: float, goal_s: float, note: str = "") -> Figure:
    return Figure(name, seconds, "s", f"< {goal_s:g} s", seconds < goal_s, note)


def measure_cli(location: str) -> Iterator[Figure]:
    """Each command as a user types it, best of 3 (the median in the note), beside the bare interpreter's start."""
    floor = [_timed(lambda: subprocess.run([PYTHON, "-c", "pass"], check=True))[0] for _ in range(3)]
    yield Figure("python -c pass (the floor every command pays)", min(floor), "s", "", None)
    commands = {
        "ssdprof compare --tag interface=SATA --with-tag interface=PCIe":
            ["compare", "--tag", "interface=SATA", "--with-tag", "interface=PCIe", "--spec", "none"],
        "ssdprof correlate --tag study=ceph": ["correlate", "--tag", "study=ceph"],
        "ssdprof predict --tag study=ceph --scale nodes --at 8": ["predict", "--tag", "study=ceph", "--scale", "nodes", "--at", "8"],
        "ssdprof predict --tag study=ceph --metric bw_bytes_per_s --at 2MiB":
            ["predict", "--tag", "study=ceph", "--metric", "bw_bytes_per_s", "--at", "2MiB"],
    }
    for name, argv in commands.items():
        tries = [_cli(location, *argv) for _ in range(3)]
        took, out, _ = min(tries)
        note = out.splitlines()[0][:90] if out.startswith("exit") else f"{len(out.splitlines())} lines"
        cpu = min(c for _, _, c in tries)
        yield _goal(name, took, 1.0, f"{note}; median {sorted(t for t, _, _ in tries)[1]:.2f} s; CPU {cpu:.2f} s")


def _study_ids(rpc: Rpc) -> tuple[list[int], str]:
    """Every run tagged study=ceph, as the Models view asks for them."""
    if rpc.has("runs.select"):
        found = rpc("runs.select", {"filter": {"tags": ["study=ceph"]}})
        return found["run_ids"], f"runs.select: {len(found['run_ids'])} of {found['total']}"
    found = rpc("runs.list", {"tag": "study=ceph", "limit": 5000})
    return [r["id"] for r in found["runs"]], f"runs.list: {len(found['runs'])} newest of {found['total']}"


def _groups(rpc: Rpc, ids: list[int], key: str) -> list[dict[str, Any]]:
    if rpc.has("runs.groups"):
        return list(rpc("runs.groups", {"run_ids": ids, "key": f"tag {key}"})["groups"])
    found = rpc("runs.list", {"tag": "study=ceph", "limit": 5000})["runs"]
    values = sorted({r["tags"].get(key, "") for r in found})
    return [{"label": f"{key}={v}", "run_ids": [r["id"] for r in found if r["tags"].get(key) == v]} for v in values]


def measure_rpc(location: str, results_sweep: int) -> Iterator[Figure]:
    took, rpc = _timed(lambda: Rpc(location))
    yield Figure("engine start (store opened, migrations checked)", took, "s", "", None)
    took, (ids, how) = _timed(lambda: _study_ids(rpc))
    yield _goal("Models view: the runs tagged study=ceph", took, 1.0, how)
    models = {
        "analysis.correlation": {"run_ids": ids, "method": "spearman"},
        "analysis.scaling": {"run_ids": ids, "metric": "bw_bytes_per_s", "by": "nodes", "at": [8]},
        "analysis.predict": {"run_ids": ids, "metric": "bw_bytes_per_s", "vary": "block_size", "at": [2 << 20]},
        "analysis.observe": {"run_ids": ids},
    }
    for method, params in models.items():
        try:
            took, _ = _timed(lambda m=method, p=params: rpc(m, p))  # type: ignore[misc]
            yield _goal(f"Models view: {method} over {len(ids)} runs", took, 1.0)
        except RuntimeError as exc:
            yield Figure(f"Models view: {method}", math.nan, "s", "< 1 s", False, str(exc)[:120])
    for key in ("interface", "nodes"):
        try:
            took, groups = _timed(lambda k=key: _groups(rpc, ids, k))  # type: ignore[misc]
            bars = {"groups": [{"label": g["label"], "run_ids": g["run_ids"]} for g in groups], "metric": "iops"}
            took_bars, _ = _timed(lambda b=bars: rpc("runs.bars", b))  # type: ignore[misc]
            first, *others = groups
            took_welch, _ = _timed(lambda f=first, o=others: [rpc("runs.compare", {  # type: ignore[misc]
                "a": f["run_ids"], "b": g["run_ids"], "metric": "iops", "confidence": 0.95}) for g in o])
            yield _goal(f"Groups by {key}: groups + bars + Welch ({len(groups)} groups)", took + took_bars + took_welch, 1.0,
                        f"bars {took_bars:.2f} s, Welch {took_welch:.2f} s")
        except RuntimeError as exc:
            yield Figure(f"Groups by {key}", math.nan, "s", "< 1 s", False, str(exc)[:120])
    yield from _history(rpc)
    yield from _results(rpc, results_sweep)
    current, peak = _rss_mb()
    yield Figure("engine memory: resident now", current, "MB", "< 500 MB", current < 500)
    yield Figure("engine memory: peak resident", peak, "MB", "< 500 MB", peak < 500)


def _history(rpc: Rpc) -> Iterator[Figure]:
    if rpc.has("runs.page"):
        took, page = _timed(lambda: rpc("runs.page", {"filter": {}, "offset": 0, "limit": 100}))
        yield _goal("History: first page", took, 0.3, f"{len(page['rows'])} rows of {page['total']}")
        took, found = _timed(lambda: rpc("runs.select", {"filter": {"tags": ["study=ceph"]}}))
        yield _goal("History: select all matching (study=ceph)", took, 1.0, f"{len(found['run_ids'])} runs")
        took, page = _timed(lambda: rpc("runs.page", {"filter": {"search": "rbd"}, "offset": 4000, "limit": 100}))
        yield _goal("History: a later page of a search", took, 0.3, f"{len(page['rows'])} rows")
    else:
        took, listed = _timed(lambda: rpc("runs.list", {}))
        yield _goal("History: first page", took, 0.3, f"the newest {len(listed['runs'])} of {listed['total']}, no paging")
    if rpc.has("runs.page"):
        took, page = _timed(lambda: rpc("runs.page", {"filter": {"search": "interface=SATA nodes=2"}, "limit": 50}))
        yield _goal("Compare with earlier runs: search", took, 0.3, f"{page['total']} match")
    else:
        took, listed = _timed(lambda: rpc("runs.list", {"tag": "interface=SATA", "limit": 200}))
        yield _goal("Compare with earlier runs: search", took, 0.3, f"the newest {len(listed['runs'])}")


def _results(rpc: Rpc, sweep_id: int) -> Iterator[Figure]:
    def open_results() -> int:
        runs = rpc("runs.list", {"sweep_id": sweep_id})["runs"]
        ids = [r["id"] for r in runs]
        rpc("runs.charts", {"run_ids": ids})
        rpc("runs.summary", {"sweep_id": sweep_id})
        rpc("specs.compare", {"run_ids": ids})
        rpc("analysis.observe", {"run_ids": ids})
        rpc("runs.get", {"run_id": ids[0]})
        rpc("runs.percentiles", {"run_id": ids[0]})
        return len(ids)

    took, count = _timed(open_results)
    yield _goal(f"Results: open a sweep of {count} runs", took, 1.0,
                "runs.list, charts, summary, specs.compare, observe, runs.get, percentiles")
    took, pdf = _timed(lambda: rpc("report.pdf", {"sweep_id": sweep_id}))
    yield _goal(f"PDF of a {pdf['runs']}-run sweep", took, 20.0, f"{pdf['bytes'] / 1e6:.1f} MB")


def _store_size(location: str) -> Figure:
    if location.startswith("postgresql:"):
        from ssdprof.store.db import Store

        store = Store(_location(location))
        try:
            size = store.size_bytes()
        finally:
            store.close()
    else:
        size = sum(p.stat().st_size for p in Path(location).parent.glob(Path(location).name + "*"))
    return Figure("store size", size / 1e6, "MB", "smaller is better", None)


def measure(location: str, results_sweep: int) -> list[Figure]:
    figures = [_store_size(location), *measure_cli(location), *measure_rpc(location, results_sweep)]
    return figures


def _print(figures: list[Figure]) -> None:
    width = max(len(f.name) for f in figures)
    for f in figures:
        verdict = "" if f.ok is None else "ok  " if f.ok else "MISS"
        value = f"{f.value:9.3f} {f.unit}" if f.unit == "s" else f"{f.value:9.1f} {f.unit}"
        print(f"{verdict:4} {f.name:<{width}}  {value:>12}  goal {f.goal or '-':<18} {f.note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="the store to fill (a file or postgresql://...); default a new temporary file")
    parser.add_argument("--repeats", type=int, default=30, help="repeats of every setting (30: the study's 8,640 runs)")
    parser.add_argument("--keep", action="store_true", help="keep the store (and time an existing one without rebuilding)")
    parser.add_argument("--measure", type=int, metavar="SWEEP", help=argparse.SUPPRESS)  # the child that measures
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--small", action="store_true",
                        help="a small study (2 node counts, sequential reads, 1 job): e2e/study.spec.ts's")
    parser.add_argument("--build-only", action="store_true",
                        help="build the store (with --keep: beside it, what was built) and measure nothing: bench/ui.mjs's study")
    args = parser.parse_args()
    compileall.compile_dir(str(ROOT / "engine" / "ssdprof"), quiet=1, workers=0)  # as scripts/setup.sh does
    if args.measure is not None:
        print(json.dumps([f.__dict__ for f in measure(args.db, args.measure)]))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="ssdprof-study-", dir="/var/tmp" if Path("/var/tmp").is_dir() else None))
    location = args.db or str(folder / "study.sqlite3")
    marker = Path(f"{location}.bench.json") if not location.startswith("postgresql:") else folder / "bench.json"
    try:
        if args.keep and marker.exists():
            built = json.loads(marker.read_text())
        else:
            print(f"building the study in {location} ...", file=sys.stderr)
            built = build(location, args.repeats, SMALL if args.small else Study())
            if args.keep:
                marker.write_text(json.dumps(built))
        print(f"{built['runs']} study runs x {HOSTS} hosts, +{RESULTS_POINTS * RESULTS_REPEATS} for Results; "
              f"built in {built['build_s']:.0f} s", file=sys.stderr)
        if args.build_only:
            return 0
        done = subprocess.run([PYTHON, __file__, "--db", location, "--measure", str(built["results_sweep"])],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        figures = [Figure(**f) for f in json.loads(done.stdout)]
        if args.json:
            print(json.dumps([f.__dict__ for f in figures], indent=2))
        else:
            _print(figures)
    finally:
        if not args.keep:
            for path in folder.glob("*"):
                path.unlink()
        if not any(folder.iterdir()):  # a store kept elsewhere (--db) leaves this folder empty
            folder.rmdir()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
