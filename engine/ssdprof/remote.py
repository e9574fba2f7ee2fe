"""fio on several hosts at once over SSH, with a synchronised start.

Each host runs a small POSIX-sh wrapper (below) that reports readiness, waits for a "go" line on
stdin, starts fio (by argument list, quoted once at the SSH boundary), reports fio's PID and the
host's clock at start, samples CPU and network every second, and ends fio by that PID when told
to cancel or when the SSH connection drops (stdin closes). "go" is written to every host at once,
so the start skew is the spread of SSH delivery, and it is measured from the hosts' own clocks.
When fio ends, the wrapper ends its helpers and their sleeps, so nothing is left on the host and
the SSH session closes at once. Commands travel over the run's shared connection per host
(:meth:`ssdprof.hosts.Ssh.open_masters`) when it is up.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ssdprof.fio_output import FioOutputError, combine, parse_report
from ssdprof.hosts import HostAddress, HostError, Ssh, explain_ssh_failure
from ssdprof.progress import DocumentStream, ProgressTracker
from ssdprof.results import HostResult, MonitorSample, ProgressSample

__all__ = ["RUN_SCRIPT", "HostRun", "MonitorParser", "fio_argv_from_job", "run_on_hosts"]

RUN_SCRIPT = r"""
exec 3<&0
echo "ssdprof-ready" >&2
read go <&3 || exit 0
echo "ssdprof-start $(date +%s%N)" >&2
"$@" </dev/null &
pid=$!
echo "ssdprof-pid $pid" >&2
( while :; do
    net=$(tail -n +3 /proc/net/dev 2>/dev/null | tr -s ' ' | tr '\n' ';')
    echo "ssdprof-mon $(date +%s%N) $(head -n 1 /proc/stat 2>/dev/null) | $net" >&2
    sleep 1 </dev/null >/dev/null 2>&1
  done ) &
mon=$!
( while read line <&3; do [ "$line" = cancel ] && break; done
  kill -INT "$pid" 2>/dev/null; sleep 10 </dev/null >/dev/null 2>&1; kill -KILL "$pid" 2>/dev/null ) &
watch=$!
wait "$pid"; rc=$?
# End the helpers and their sleeps (which hold none of the session's descriptors, so SSH does not
# wait for them): frozen first, so they start nothing new, then their children, then themselves.
kill -STOP "$mon" "$watch" 2>/dev/null
pkill -KILL -P "$mon" 2>/dev/null; pkill -KILL -P "$watch" 2>/dev/null
kill -KILL "$mon" "$watch" 2>/dev/null
exit "$rc"
"""

_GRACE_S = 60.0


def fio_argv_from_job(job_text: str) -> list[str]:
    """The job file's options as fio command-line options (one job named ssdprof)."""
    options = [line.strip() for line in job_text.splitlines()
               if line.strip() and not line.startswith((";", "#", "["))]
    return ["fio", "--output-format=json+", "--status-interval=1", "--name=ssdprof", *(f"--{option}" for option in options)]


@dataclass
class HostRun:
    """One host's part of a run, filled in by its reader threads."""

    host: HostAddress
    stream: DocumentStream = field(default_factory=DocumentStream)
    stderr_lines: list[str] = field(default_factory=list)
    fio_pid: int | None = None
    start_epoch_ns: int | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    monitor: list[MonitorSample] = field(default_factory=list)
    returncode: int | None = None

    def result(self) -> HostResult:
        name = self.host.name
        try:
            report = parse_report(self.stream.text)
        except FioOutputError:
            reason = explain_ssh_failure(self.host, "\n".join(self.stderr_lines)) if self.returncode == 255 else (
                _last_error(self.stderr_lines) or f"{name}: fio produced no result (exit status {self.returncode})")
            return HostResult(host=name, error=reason, start_epoch_ns=self.start_epoch_ns)
        error = None
        if self.returncode == 255:
            error = explain_ssh_failure(self.host, "\n".join(self.stderr_lines)) + " (mid-run; data up to then kept)"
        elif any(j.error for j in report.jobs):
            error = f"{name}: fio reported error {sorted({j.error for j in report.jobs if j.error})}"
        return HostResult(host=name, jobs=len(report.jobs), read=combine(j.read for j in report.jobs),
                          write=combine(j.write for j in report.jobs), error=error, start_epoch_ns=self.start_epoch_ns)


class MonitorParser:
    """Turns the wrapper's per-second /proc/stat and /proc/net/dev snapshots into rates."""

    def __init__(self, host: str, t0_ns: int | None = None):
        self.host = host
        self._previous: tuple[int, list[int], dict[str, tuple[int, int]]] | None = None
        self._t0_ns = t0_ns

    def feed(self, line: str) -> MonitorSample | None:
        parts = line.split(" ", 1)
        if len(parts) < 2 or not parts[0].isdigit():
            return None
        now_ns = int(parts[0])
        cpu_text, _, net_text = parts[1].partition("|")
        cpu = [int(v) for v in cpu_text.split()[1:] if v.isdigit()]
        net = _net_counters(net_text)
        previous, self._previous = self._previous, (now_ns, cpu, net)
        self._t0_ns = self._t0_ns or now_ns
        if previous is None or len(cpu) < 4:
            return None
        then_ns, cpu0, net0 = previous
        interval_s = max((now_ns - then_ns) / 1e9, 1e-3)
        total = sum(cpu) - sum(cpu0)
        idle = (cpu[3] + (cpu[4] if len(cpu) > 4 else 0)) - (cpu0[3] + (cpu0[4] if len(cpu0) > 4 else 0))
        return MonitorSample(
            host=self.host, elapsed_s=round((now_ns - self._t0_ns) / 1e9, 3),
            cpu_busy_pct=100.0 * (1 - idle / total) if total > 0 else 0.0,
            net_rx_bytes_per_s={n: (v[0] - net0[n][0]) / interval_s for n, v in net.items() if n in net0},
            net_tx_bytes_per_s={n: (v[1] - net0[n][1]) / interval_s for n, v in net.items() if n in net0},
        )


def _net_counters(text: str) -> dict[str, tuple[int, int]]:
    counters = {}
    for entry in text.split(";"):
        name, sep, values = entry.strip().partition(":")
        fields = values.split()
        if sep and len(fields) >= 9 and fields[0].isdigit() and fields[8].isdigit():
            counters[name.strip()] = (int(fields[0]), int(fields[8]))
    return counters


def run_on_hosts(ssh: Ssh, commands: dict[str, list[str]], hosts: list[HostAddress], *, duration_s: float,
                 ramp_s: float, on_progress: Callable[[ProgressSample], None] | None,
                 cancel: threading.Event) -> list[HostRun]:
    """Start ``commands[host.name]`` on every host behind one barrier; collect every host's output."""
    runs = [HostRun(host) for host in hosts]
    processes: list[subprocess.Popen[str]] = []
    readers: list[threading.Thread] = []
    try:
        for run in runs:
            argv = ssh.argv(run.host, ["sh", "-c", RUN_SCRIPT, "ssdprof-run", *commands[run.host.name]])
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, bufsize=1, start_new_session=True)
            processes.append(process)
            readers += _start_readers(run, process, ramp_s, on_progress)
        _wait_ready(runs, processes)
        for process in processes:  # the barrier: every host is connected and waiting
            _send(process, "go")
        _supervise(runs, processes, duration_s + _GRACE_S, cancel)
    finally:
        for process in processes:
            _close(process)
        for reader in readers:
            reader.join(timeout=15)
        for run, process in zip(runs, processes, strict=False):
            run.returncode = process.returncode
    return runs


def _start_readers(run: HostRun, process: subprocess.Popen[str], ramp_s: float,
                   on_progress: Callable[[ProgressSample], None] | None) -> list[threading.Thread]:
    tracker = ProgressTracker(ramp_s=ramp_s)
    assert process.stdout is not None and process.stderr is not None

    def read_stdout(stdout: IO[str]) -> None:
        for line in stdout:
            for document in run.stream.feed(line):
                for sample in tracker.update(document):
                    if on_progress:
                        on_progress(sample.model_copy(update={"host": run.host.name}))

    monitor = MonitorParser(run.host.name)

    def read_stderr(stderr: IO[str]) -> None:
        for raw in stderr:
            line = raw.rstrip("\n")
            if line == "ssdprof-ready":
                run.ready.set()
            elif line.startswith("ssdprof-start "):
                value = line.split()[1]
                run.start_epoch_ns = int(value) if value.isdigit() else None
            elif line.startswith("ssdprof-pid "):
                run.fio_pid = int(line.split()[1])
            elif line.startswith("ssdprof-mon "):
                sample = monitor.feed(line.removeprefix("ssdprof-mon "))
                if sample is not None:
                    run.monitor.append(sample)
            else:
                run.stderr_lines.append(line)
        run.ready.set()  # the connection ended: nobody is waiting any more

    threads = [threading.Thread(target=read_stdout, args=(process.stdout,), daemon=True),
               threading.Thread(target=read_stderr, args=(process.stderr,), daemon=True)]
    for thread in threads:
        thread.start()
    return threads


def _wait_ready(runs: list[HostRun], processes: list[subprocess.Popen[str]], timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    for run, process in zip(runs, processes, strict=True):
        if not run.ready.wait(max(deadline - time.monotonic(), 0)) or process.poll() is not None:
            process.wait(timeout=5) if process.poll() is None else None
            raise HostError(explain_ssh_failure(run.host, "\n".join(run.stderr_lines)) if process.returncode == 255
                            else f"{run.host.name}: not ready to start within {timeout_s:.0f} s: {_last_error(run.stderr_lines)}")


def _supervise(runs: list[HostRun], processes: list[subprocess.Popen[str]], limit_s: float, cancel: threading.Event) -> None:
    deadline = time.monotonic() + limit_s
    cancelled = False
    while any(p.poll() is None for p in processes):
        if (cancel.is_set() or time.monotonic() > deadline) and not cancelled:
            cancelled = True
            for process in processes:
                _send(process, "cancel")  # the wrapper ends fio by its PID; fio still prints its JSON
            deadline = time.monotonic() + 20
        elif cancelled and time.monotonic() > deadline:
            break
        time.sleep(0.05)


def _send(process: subprocess.Popen[str], line: str) -> None:
    try:
        if process.stdin is not None and process.poll() is None:
            process.stdin.write(line + "\n")
            process.stdin.flush()
    except (BrokenPipeError, OSError):
        pass


def _close(process: subprocess.Popen[str]) -> None:
    """Closing stdin makes the remote wrapper end fio; then the local ssh ends."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


_ERROR = re.compile(r"(error|fio:|denied|not found|no such|refused|cannot)", re.IGNORECASE)


def _last_error(lines: list[str]) -> str:
    errors = [line for line in lines if _ERROR.search(line)]
    return (errors or lines or ["no output"])[-1][:300]
