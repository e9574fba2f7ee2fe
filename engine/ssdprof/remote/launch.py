"""fio on several hosts at once over SSH, with a synchronised start.

Each host runs a small POSIX-sh wrapper (below) that reports readiness, waits for a "go" line on
stdin, starts fio (by argument list, quoted once at the SSH boundary), reports fio's PID and the
host's clock at start, samples CPU and network every second, and ends fio by that PID when told
to cancel, when the SSH connection drops (stdin closes), or when ssdprof's once-a-second heartbeat
stops arriving: a link that goes down leaves the host's sshd none the wiser, and fio would
otherwise run to its end with its output going nowhere. "go" is written to every host at once,
so the start skew is the spread of SSH delivery, and it is measured from the hosts' own clocks.
When fio ends, the wrapper ends its helpers and their sleeps, so nothing is left on the host and
the SSH session closes at once. Commands travel over the run's shared connection per host
(:meth:`ssdprof.hosts.Ssh.open_masters`) when it is up.
"""

from __future__ import annotations

import functools
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from ssdprof.fio.output import FioOutputError, combine, parse_report
from ssdprof.fio.progress import DocumentStream, ProgressTracker
from ssdprof.model.results import HostResult, MonitorSample, ProgressSample
from ssdprof.remote.ssh import HostAddress, HostError, Ssh, explain_ssh_failure

__all__ = ["HEARTBEAT_S", "LOST_AFTER_S", "RUN_SCRIPT", "WATCHDOG_SH", "HostRun", "Launch", "MonitorParser", "beat", "fio_argv_from_job",
           "run_on_hosts", "send_line"]

HEARTBEAT_S = 1.0
LOST_AFTER_S = 10
"""The host ends fio when ssdprof has been silent this long: longer than ssh takes to give up on a dead
connection (ServerAliveInterval 2 x ServerAliveCountMax 3), after which fio's output has nowhere to go."""

WATCHDOG_SH = r"""
watchdog() {  # runs "$@" once ssdprof has been silent for LOST_AFTER_S; each line it sends resets the count
  ( trap 'quiet=0' USR1; quiet=0
    while [ "$quiet" -lt LOST_AFTER_S ]; do sleep 1 </dev/null >/dev/null 2>&1; quiet=$((quiet + 1)); done
    ( echo "ssdprof-lost" >&2 ); "$@" ) &
}
end_helpers() {  # frozen first, so they start nothing new, then their sleeps, then themselves
  kill -STOP "$@" 2>/dev/null
  for helper; do pkill -KILL -P "$helper" 2>/dev/null; done
  kill -KILL "$@" 2>/dev/null
}
""".replace("LOST_AFTER_S", str(LOST_AFTER_S))
"""Shell functions for the host side: a watchdog fed by ssdprof's heartbeat (``kill -USR1 "$dog"`` per
line received), and an end to background helpers and their sleeps. A subshell's echo keeps SIGPIPE
from a dropped connection away from the shell that must still clean up."""

RUN_SCRIPT = r"""
exec 3<&0
""" + WATCHDOG_SH + r"""
stop_fio() { kill -INT "$pid" 2>/dev/null; sleep 10 </dev/null >/dev/null 2>&1; kill -KILL "$pid" 2>/dev/null; }
trap 'end_helpers "$dog"; exit 0' TERM
watchdog kill -TERM $$; dog=$!
echo "ssdprof-ready" >&2
while :; do
  read line <&3 || { end_helpers "$dog"; exit 0; }
  [ "$line" = go ] && break
  kill -USR1 "$dog" 2>/dev/null
done
echo "ssdprof-start $(date +%s%N)" >&2
"$@" </dev/null &
pid=$!
echo "ssdprof-pid $pid" >&2
end_helpers "$dog"; trap - TERM
watchdog stop_fio; dog=$!
( while :; do
    net=$(tail -n +3 /proc/net/dev 2>/dev/null | tr -s ' ' | tr '\n' ';')
    echo "ssdprof-mon $(date +%s%N) $(head -n 1 /proc/stat 2>/dev/null) | $net" >&2
    sleep 1 </dev/null >/dev/null 2>&1
  done ) &
mon=$!
( while read line <&3; do kill -USR1 "$dog" 2>/dev/null; [ "$line" = cancel ] && break; done
  stop_fio ) &
watch=$!
wait "$pid"; rc=$?
( echo "ssdprof-exit $rc" >&2 )  # in a subshell: a write to a dropped connection raises SIGPIPE
# The helpers and their sleeps hold none of the session's descriptors, so SSH does not wait for them.
end_helpers "$mon" "$watch" "$dog"
exit "$rc"
"""
"""Each host's wrapper: reports readiness, waits for "go" (every other line is ssdprof's heartbeat),
starts fio, reports its PID, the host's clock at start and fio's exit status, samples CPU and network
every second, and ends fio by its PID on "cancel", when stdin closes, or after LOST_AFTER_S of silence."""

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
    fio_exit: int | None = None
    """fio's exit status as the wrapper saw it; None when the connection ended first."""
    returncode: int | None = None
    master_reason: Callable[[], str] = lambda: ""
    """Why the shared SSH connection ended, when it did (Ssh.master_reason)."""

    def ssh_failure(self) -> str:
        return explain_ssh_failure(self.host, "\n".join(self.stderr_lines), self.master_reason())

    def result(self) -> HostResult:
        name = self.host.name
        try:
            report = parse_report(self.stream.text)
        except FioOutputError:
            reason = self.ssh_failure() if self.returncode == 255 else (
                _last_error(self.stderr_lines) or f"{name}: fio produced no result (exit status {self.returncode})")
            return HostResult(host=name, error=reason, start_epoch_ns=self.start_epoch_ns)
        error = None
        if self.fio_exit is None and self.returncode is not None:
            error = self.ssh_failure() + " (mid-run; data up to then kept)"
        elif any(j.error for j in report.jobs):
            error = f"{name}: fio reported error {sorted({j.error for j in report.jobs if j.error})}"
        elif self.fio_exit:
            error = f"{name}: fio {_ending(self.fio_exit)} mid-run; its data up to then kept"
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
    return Launch(ssh, commands, hosts, ramp_s=ramp_s).run(duration_s=duration_s, on_progress=on_progress, cancel=cancel)


class Launch:
    """One point's wrapper on every host, connected and waiting for "go". Starting it ahead of time (while
    the test files are laid out) takes its SSH session and login shell off the run's critical path."""

    def __init__(self, ssh: Ssh, commands: dict[str, list[str]], hosts: list[HostAddress], *, ramp_s: float):
        self.commands = commands
        self.ramp_s = ramp_s
        self.runs = [HostRun(host, master_reason=functools.partial(ssh.master_reason, host)) for host in hosts]
        self.on_progress: Callable[[ProgressSample], None] | None = None
        self._processes: list[subprocess.Popen[str]] = []
        self._readers: list[threading.Thread] = []
        self._finished = threading.Event()
        self._ended = False
        try:
            for run in self.runs:
                argv = ssh.argv(run.host, ["sh", "-c", RUN_SCRIPT, "ssdprof-run", *commands[run.host.name]])
                process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True, bufsize=1, start_new_session=True)
                self._processes.append(process)
                self._readers += _start_readers(run, process, ramp_s, self._progress)
        except BaseException:
            self.end()
            raise
        threading.Thread(target=beat, args=(self._processes, self._finished), daemon=True).start()

    def matches(self, commands: dict[str, list[str]], ramp_s: float) -> bool:
        return not self._ended and commands == self.commands and ramp_s == self.ramp_s

    def run(self, *, duration_s: float, on_progress: Callable[[ProgressSample], None] | None,
            cancel: threading.Event) -> list[HostRun]:
        self.on_progress = on_progress
        try:
            _wait_ready(self.runs, self._processes)
            for process in self._processes:  # the barrier: every host is connected and waiting
                send_line(process, "go")
            _supervise(self.runs, self._processes, duration_s + _GRACE_S, cancel)
        finally:
            self.end()
        return self.runs

    def end(self) -> None:
        """Closes every connection (a wrapper still waiting for "go" then exits; one running ends fio)."""
        if self._ended:
            return
        self._ended = True
        self._finished.set()
        for process in self._processes:
            _close(process)
        for reader in self._readers:
            reader.join(timeout=15)
        for run, process in zip(self.runs, self._processes, strict=False):
            run.returncode = process.returncode

    def _progress(self, sample: ProgressSample) -> None:
        if self.on_progress is not None:
            self.on_progress(sample)


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
            elif line.startswith("ssdprof-exit "):
                run.fio_exit = int(line.split()[1])
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
            raise HostError(run.ssh_failure() if process.returncode == 255
                            else f"{run.host.name}: not ready to start within {timeout_s:.0f} s: {_last_error(run.stderr_lines)}")


def _supervise(runs: list[HostRun], processes: list[subprocess.Popen[str]], limit_s: float, cancel: threading.Event) -> None:
    deadline = time.monotonic() + limit_s
    cancelled = False
    while any(p.poll() is None for p in processes):
        if (cancel.is_set() or time.monotonic() > deadline) and not cancelled:
            cancelled = True
            for process in processes:
                send_line(process, "cancel")  # the wrapper ends fio by its PID; fio still prints its JSON
            deadline = time.monotonic() + 20
        elif cancelled and time.monotonic() > deadline:
            break
        time.sleep(0.05)


def beat(processes: list[subprocess.Popen[str]], finished: threading.Event) -> None:
    """Tell every host ssdprof is still there (see LOST_AFTER_S), until the run is over."""
    while not finished.wait(HEARTBEAT_S):
        for process in list(processes):
            send_line(process, "alive")


_SEND_LOCK = threading.Lock()  # the heartbeat and the barrier write to the same pipes


def send_line(process: subprocess.Popen[str], line: str) -> None:
    try:
        with _SEND_LOCK:
            if process.stdin is not None and not process.stdin.closed and process.poll() is None:
                process.stdin.write(line + "\n")
                process.stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _close(process: subprocess.Popen[str]) -> None:
    """Closing stdin makes the remote wrapper end fio; then the local ssh ends."""
    try:
        with _SEND_LOCK:
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


def _ending(status: int) -> str:
    """How fio ended, from its exit status as a POSIX shell reports it (128 + signal when killed)."""
    if status > 128:
        try:
            return f"was killed by {signal.Signals(status - 128).name}"
        except ValueError:
            return f"was killed by signal {status - 128}"
    return f"ended with exit status {status}"


def _last_error(lines: list[str]) -> str:
    errors = [line for line in lines if _ERROR.search(line)]
    return (errors or lines or ["no output"])[-1][:300]
