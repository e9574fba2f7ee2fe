"""Instant answers (issue 38): how long ssdprof takes to answer, each figure beside the bare interpreter's
start, best of 3 (median in brackets), wall clock from the shell as a user waits for it, and for the
commands the CPU seconds they used (the machine's load stretches wall clock, not CPU).

    python -c pass                      the floor every command pays
    ssdprof --help                      goal <= 0.3 s
    ssdprof runs list (empty store)     goal <= 0.3 s (a store made by an earlier command, holding no run)
    ssdprof serve: URL printed          goal < 0.5 s; then its first call answered (the engine loaded)
    npm start: URL printed              browser mode where Electron's binary is absent (npm's own start included)
    20-point Results PDF                a sweep of 20 real points (fio on this disk, 1 s each, measured once and
                                        kept): through a fresh `ssdprof serve` as the app asks for it, the first
                                        Export PDF once the server says its reports are ready, or after 5 s
                                        for a server that does not say (goal < 4 s), and the second (goal
                                        < 2 s); and in a process that never warmed
                                        (`ssdprof report`, cold)

With --against DIR (another checkout's engine/ folder, e.g. main's), every figure is measured for both,
interleaved (this tree, then that one, three times), and the ratio is printed: the machine's load
hurts both alike. compare, correlate and predict on the full study are bench/study_scale.py's.

    engine/.venv/bin/python bench/startup.py [--db KEPT.sqlite3] [--against /path/to/other/engine]

Each engine is compiled to bytecode first (as scripts/setup.sh does): where PYTHONDONTWRITEBYTECODE is set,
as on this project's machines, Python would otherwise compile every module at every start.

Never part of the tests: figures are printed, not asserted; the 1-minute load average is printed with them.
"""

from __future__ import annotations

import argparse
import base64
import compileall
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
URL = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)")
RUNS = 3


def _env(engine: Path | None) -> dict[str, str]:
    """The environment that runs ``engine`` (a checkout's engine/ folder) instead of this tree's."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if engine is not None:
        env["PYTHONPATH"] = str(engine)
    return env


def _wall(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall clock and CPU (user + system) seconds of a command."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    took = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"{' '.join(argv[:4])} failed: {process.stderr.read().decode()[-500:] if process.stderr else ''}")
    return took, usage.ru_utime + usage.ru_stime


class Served:
    """``ssdprof serve`` (or ``npm start``) started, its URL read, and its RPC called as the app calls it."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path | None = None):
        started = time.perf_counter()
        self.process = subprocess.Popen(argv, env=env, cwd=cwd or tempfile.gettempdir(), stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, start_new_session=True)
        assert self.process.stdout is not None
        found = None
        while found is None:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"{' '.join(argv[:4])} printed no URL: {self.process.stderr.read()[-500:] if self.process.stderr else ''}")
            found = URL.search(line)
        self.url_s = time.perf_counter() - started
        self.port, self.token = int(found.group(1)), found.group(2)
        self.started = started
        self.ready = threading.Event()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read_log(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if "PDF reports ready" in line:
                self.ready.set()

    def call(self, method: str, params: dict[str, object]) -> object:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        connection.request("POST", "/rpc", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}),
                           headers={"Content-Type": "application/json", "X-Ssdprof-Token": self.token})
        answer = json.loads(connection.getresponse().read())
        connection.close()
        if "error" in answer:
            raise SystemExit(f"{method}: {answer['error']}")
        return answer["result"]

    def wait_for_reports(self, limit_s: float = 60.0) -> bool:
        """Until the server says its PDF reports are ready (False: it never said so within the limit)."""
        return self.ready.wait(limit_s)

    def cpu_s(self) -> float:
        """The server's CPU seconds so far (user + system, its threads included), from /proc."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)  # npm start's children too; ssdprof serve ends on SIGTERM
        self.process.wait(timeout=30)


def measure(engine: Path | None, db: Path, sweep_id: int, empty: Path) -> dict[str, float]:
    env = _env(engine)
    ssdprof = [PYTHON, "-m", "ssdprof"]
    figures: dict[str, float] = {}
    _wall([*ssdprof, "runs", "list", "--db", str(empty)], env)  # the store made, as by any earlier command
    for name, argv in (("python -c pass", [PYTHON, "-c", "pass"]), ("ssdprof --help", [*ssdprof, "--help"]),
                       ("ssdprof runs list (empty store)", [*ssdprof, "runs", "list", "--db", str(empty)])):
        figures[name], figures[f"{name}: CPU"] = _wall(argv, env)
    served = Served([*ssdprof, "serve", "--db", str(empty)], env)
    try:
        served.call("engine.info", {})
        figures["ssdprof serve: URL printed"] = served.url_s
        figures["ssdprof serve: first call answered"] = time.perf_counter() - served.started
    finally:
        served.stop()
    if engine is None and (ROOT / "node_modules").is_dir():
        npm = Served(["npm", "start", "--", "--db", str(empty)], env, cwd=ROOT)
        figures["npm start: URL printed"] = npm.url_s
        npm.stop()
    served = Served([*ssdprof, "serve", "--db", str(db)], env)
    try:
        figures.update(_exports(served, sweep_id))
    finally:
        served.stop()
    with tempfile.TemporaryDirectory() as out:
        figures["20-point PDF, ssdprof report (cold process)"], figures["20-point PDF, ssdprof report (cold process): CPU"] = _wall(
            [*ssdprof, "report", "--sweep", str(sweep_id), "--db", str(db), "-o", f"{out}/r.pdf"], env)
    return figures


def _exports(served: Served, sweep_id: int) -> dict[str, float]:
    """The first and second Export PDF of the sweep, the first once the server says it is ready."""
    served.call("runs.list", {"sweep_id": sweep_id})  # the Results view opening, then the user reads it
    if not served.wait_for_reports():
        time.sleep(5)  # a server that does not say when it is ready: as long as a user reads the view
    figures = {}
    for name in ("first", "second"):
        started, cpu = time.perf_counter(), served.cpu_s()
        pdf = served.call("report.pdf", {"sweep_id": sweep_id})
        figures[f"20-point PDF, {name} Export PDF"] = time.perf_counter() - started
        figures[f"20-point PDF, {name} Export PDF: server CPU"] = served.cpu_s() - cpu
        assert isinstance(pdf, dict) and base64.b64decode(str(pdf["pdf_base64"]))[:5] == b"%PDF-"
    return figures


def twenty_points(db: Path) -> int:
    """A sweep of 20 real points on this disk (access size x queue depth), measured once and kept in ``db``."""
    found = subprocess.run([PYTHON, "-m", "ssdprof", "runs", "list", "--db", str(db), "--json"], capture_output=True,
                           text=True, check=True)
    runs = json.loads(found.stdout)["runs"]
    sweeps = {r["sweep_id"] for r in runs if r.get("sweep_id") is not None}
    if sweeps:
        return int(max(sweeps))
    print("measuring the 20-point sweep (about a minute) ...", file=sys.stderr)
    with tempfile.TemporaryDirectory(dir="/var/tmp" if Path("/var/tmp").is_dir() else None) as target:
        subprocess.run([PYTHON, "-m", "ssdprof", "sweep", "--vary", "bs=4k,16k,64k,128k,1m", "--vary", "qd=1,4,16,32",
                        "--grid", "--runtime", "1", "--ramp", "0", "--size", "64MiB", "--target", target, "--db", str(db)],
                       capture_output=True, check=True)
    return twenty_points(db)


def _goal(name: str) -> str:
    for key, goal in (("--help", "<= 0.3 s"), ("runs list", "<= 0.3 s"), ("URL printed", "< 0.5 s"),
                      ("first Export PDF", "< 4 s"), ("second Export", "< 2 s")):
        if key in name and not name.startswith("npm") and not name.endswith("CPU"):
            return goal
    return ""


def _cell(values: list[float]) -> str:
    return f"{min(values):6.2f} ({statistics.median(values):5.2f})" if values else " " * 14


def report(ours: dict[str, list[float]], theirs: dict[str, list[float]]) -> None:
    width = max(len(name) for name in ours)
    head = f"{'figure (s, best of 3, median)':<{width}}  {'this tree':>14}"
    print(head + (f"  {'--against':>14}  ratio" if theirs else "") + "  goal")
    for name, values in ours.items():
        row = f"{name:<{width}}  {_cell(values)}"
        if theirs:
            other = theirs.get(name, [])
            ratio = f"{min(values) / min(other):5.2f}" if other else "     "
            row += f"  {_cell(other)}  {ratio}"
        print(f"{row}  {_goal(name)}")
    print(f"machine load (1-min average) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="the store holding (or to hold) the 20-point sweep; default a temporary one")
    parser.add_argument("--against", type=Path, help="another checkout's engine/ folder, measured interleaved with this one")
    args = parser.parse_args()
    for engine in (ROOT / "engine", *([args.against] if args.against else [])):
        compileall.compile_dir(str(engine / "ssdprof"), quiet=1, workers=0)
    with tempfile.TemporaryDirectory(prefix="ssdprof-startup-") as scratch:
        db = args.db or Path(scratch) / "pdf20.sqlite3"
        sweep_id = twenty_points(db)
        ours: dict[str, list[float]] = {}
        theirs: dict[str, list[float]] = {}
        for _ in range(RUNS):
            sides: list[tuple[Path | None, dict[str, list[float]]]] = [(None, ours)]
            sides += [(args.against, theirs)] if args.against else []
            for engine, into in sides:
                empty = Path(scratch) / f"empty-{len(into)}-{time.monotonic_ns()}.sqlite3"
                for name, value in measure(engine, db, sweep_id, empty).items():
                    into.setdefault(name, []).append(value)
        report(ours, theirs)


if __name__ == "__main__":
    main()
