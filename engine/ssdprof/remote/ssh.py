"""Remote hosts over the system's OpenSSH client, so ~/.ssh/config, the agent, keys and
ProxyJump just work. Quoting happens here and only here: remote commands are argument lists
joined with ``shlex.join`` at the SSH boundary.

Host keys are never accepted silently: an unknown key is shown with its fingerprint and stored
(in ssdprof's own known_hosts) only when the user accepts that exact fingerprint; a changed key
is refused. Passwords are never asked for or stored (BatchMode: keys and agents only).
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from ssdprof.remote.addresses import HostAddress, HostError
from ssdprof.remote.leftovers import default_leftovers_path
from ssdprof.remote.probe import HostProbe, parse_probe, probe_script
from ssdprof.target.processes import end_with_parent

__all__ = ["CHANGED_KEY_MARKERS", "OPENING_RETRIES_S", "HostKey", "Ssh", "SshSettings", "default_known_hosts",
           "dropped_while_opening", "explain_ssh_failure", "session_ended"]

CHANGED_KEY_MARKERS = ("REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key for", "has changed and you have requested strict checking")
DROPPED_MARKERS = ("kex_exchange_identification", "ssh_exchange_identification", "banner exchange", "Connection reset by peer",
                   "Connection closed by")
"""What ssh says when sshd dropped the connection before it was authenticated: sshd's MaxStartups drops
connections beyond its limit of unauthenticated ones, which a slow host (an emulated machine under
load) reaches with only a few connections authenticating at once."""
OPENING_RETRIES_S = (1.0, 2.0, 4.0)
"""The waits before opening a session again that sshd dropped while it was being opened."""


def default_known_hosts() -> Path:
    return Path(platformdirs.user_data_dir("ssdprof")) / "known_hosts"


@dataclass(frozen=True)
class SshSettings:
    known_hosts: Path = field(default_factory=default_known_hosts)
    """ssdprof's own known_hosts, used in addition to the user's."""
    config: Path | None = None
    """An ssh_config to use instead of ~/.ssh/config (ssh -F)."""
    connect_timeout_s: int = 5
    ssh: str = "ssh"
    leftovers: Path = field(default_factory=default_leftovers_path)
    """Where test files that could not be removed from a host are written down (:mod:`ssdprof.remote.leftovers`)."""


@dataclass(frozen=True)
class HostKey:
    line: str
    """A known_hosts line from ssh-keyscan."""
    fingerprint: str
    """SHA256:... as ssh-keygen -l prints it."""
    key_type: str


class Ssh:
    def __init__(self, settings: SshSettings | None = None):
        self.settings = settings or SshSettings()
        self._resolved: dict[str, dict[str, str]] = {}
        self._masters: dict[str, tuple[subprocess.Popen[bytes], str]] = {}
        self._control_dir: Path | None = None

    # one connection per host, shared ---------------------------------------------------------

    def open_masters(self, hosts: Sequence[HostAddress]) -> None:
        """Start one SSH connection per host that later commands share (OpenSSH multiplexing), so a
        run's probe, layout, launch and clean-up do not each pay for a key exchange (~0.3 s).

        ssdprof starts each master itself, by argument list, holding no pipe of any command, and
        ends it by PID in :meth:`close_masters` (on Linux also when ssdprof dies). Until a master is
        ready, or when it fails, commands connect directly as before; a failed master's reason is
        reported by the command that follows."""
        if self._control_dir is None:
            self._control_dir = Path(tempfile.mkdtemp(prefix="ssdprof-ssh-"))
        unresolved = [host for host in hosts if host.text not in self._resolved]
        with ThreadPoolExecutor(max_workers=min(len(unresolved), 16) or 1) as pool:  # ssh -G per host, all at once
            list(pool.map(self._resolve_quietly, unresolved))
        for host in hosts:
            if host.text in self._masters:
                continue
            path = str(self._control_dir / str(len(self._masters)))
            # -E: the master's own words (e.g. "Timeout, server h2 not responding.") go to a log that
            # master_reason reads; the commands sharing it only see their connection close.
            argv = [*self._base(host), "-M", "-N", "-E", f"{path}.log", "-o", f"ControlPath={path}", "-o", "ControlPersist=no",
                    "--", host.host]
            master = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True, preexec_fn=end_with_parent())  # noqa: PLW1509 - one prctl syscall
            self._masters[host.text] = (master, path)

    def _resolve_quietly(self, host: HostAddress) -> None:
        with contextlib.suppress(HostError, OSError, subprocess.TimeoutExpired):  # raised again, where it matters, by resolved()
            self.resolved(host)

    def wait_masters(self) -> None:
        """Wait until every master is ready or has failed (a failed one's host then gets direct connections,
        whose error says why), so the commands that follow share a connection rather than open their own."""
        deadline = time.monotonic() + self.settings.connect_timeout_s + 2
        waiting = dict(self._masters)
        while waiting and time.monotonic() < deadline:
            waiting = {name: (master, path) for name, (master, path) in waiting.items()
                       if master.poll() is None and not Path(path).exists()}
            if waiting:
                time.sleep(0.01)

    def master_reason(self, host: HostAddress) -> str:
        """Why the shared connection to ``host`` ended, in ssh's words; "" while it lives or when it said nothing."""
        entry = self._masters.get(host.text)
        if entry is None or entry[0].poll() is None:
            return ""
        try:
            lines = Path(f"{entry[1]}.log").read_text(errors="replace").splitlines()
        except OSError:
            return ""
        said = [line.strip() for line in lines if line.strip()]
        return said[-1] if said else ""

    def destination(self, host: HostAddress) -> str:
        """user@hostname:port as ssh resolves the host: the same machine whatever alias named it."""
        config = self.resolved(host)
        return f"{config.get('user', '')}@{config.get('hostname', host.host)}:{config.get('port', '22')}"

    def close_masters(self) -> None:
        """End every master this object started (by PID) and remove their sockets."""
        masters, self._masters = self._masters, {}
        for master, _ in masters.values():
            if master.poll() is None:
                master.terminate()
        for master, _ in masters.values():
            try:
                master.wait(timeout=5)
            except subprocess.TimeoutExpired:
                master.kill()
                master.wait(timeout=5)
        if self._control_dir is not None:
            shutil.rmtree(self._control_dir, ignore_errors=True)
            self._control_dir = None

    def resolved(self, host: HostAddress) -> dict[str, str]:
        """ssh's own view of the host after ~/.ssh/config (ssh -G): hostname, port, user, known hosts files."""
        if host.text in self._resolved:
            return self._resolved[host.text]
        done = subprocess.run([*self._base(host, for_config=True), "-G", "--", host.host], capture_output=True, text=True,
                              timeout=20, check=False)
        if done.returncode != 0:
            raise HostError(f"{host.name}: ssh cannot resolve it: {done.stderr.strip()[:300]}")
        values: dict[str, str] = {}
        for line in done.stdout.splitlines():
            key, _, value = line.partition(" ")
            values.setdefault(key.lower(), value)
        self._resolved[host.text] = values
        return values

    def argv(self, host: HostAddress, remote: list[str], *, tty: bool = False) -> list[str]:
        """The local argv that runs ``remote`` (an argument list) on ``host``."""
        return [*self._base(host), "-T" if not tty else "-t", "--", host.host, shlex.join(remote)]

    def run(self, host: HostAddress, remote: list[str], *, timeout_s: float = 60,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(self.argv(host, remote), capture_output=True, text=True,
                                  timeout=timeout_s, input=stdin, check=False)
        except subprocess.TimeoutExpired as exc:  # a host that answers too slowly is a host problem, named
            raise HostError(f"{host.name}: no answer to {remote[0]} within {timeout_s:.0f} s (a slow or "
                            "overloaded host, or a hung command there)") from exc
        if done.returncode == 255:
            raise HostError(explain_ssh_failure(host, done.stderr))
        return done

    def _base(self, host: HostAddress, *, for_config: bool = False) -> list[str]:
        argv = [self.settings.ssh]
        if self.settings.config is not None:
            argv += ["-F", str(self.settings.config)]
        if host.user:
            argv += ["-l", host.user]
        if host.port:
            argv += ["-p", str(host.port)]
        if for_config:
            return argv
        if host.text in self._masters:
            argv += ["-o", f"ControlPath={self._masters[host.text][1]}", "-o", "ControlMaster=no"]
        return [*argv, "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "-o", f"ConnectTimeout={self.settings.connect_timeout_s}",
                "-o", "ServerAliveInterval=2", "-o", "ServerAliveCountMax=3", "-o", f"UserKnownHostsFile={self._known_hosts_files(host)}"]

    def _known_hosts_files(self, host: HostAddress) -> str:
        """The user's known_hosts files (from their ssh config) plus ssdprof's own."""
        files = self.resolved(host).get("userknownhostsfile", "~/.ssh/known_hosts ~/.ssh/known_hosts2").split()
        ours = str(self.settings.known_hosts)
        return " ".join(shlex.quote(f) for f in [*files, ours])

    # host keys ---------------------------------------------------------------------------------

    def scan_keys(self, host: HostAddress) -> list[HostKey]:
        config = self.resolved(host)
        hostname, port = config.get("hostname", host.host), config.get("port", "22")
        scan = subprocess.run(["ssh-keyscan", "-T", str(self.settings.connect_timeout_s), "-p", port, "--", hostname],
                              capture_output=True, text=True, timeout=30, check=False)
        keys = []
        for line in scan.stdout.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            printed = subprocess.run(["ssh-keygen", "-l", "-f", "-"], input=line + "\n", capture_output=True, text=True, check=False)
            parts = printed.stdout.split()
            if len(parts) >= 2:
                keys.append(HostKey(line=line, fingerprint=parts[1], key_type=parts[-1].strip("()")))
        if not keys:
            reason = scan.stderr.strip()[:200] or "no answer"
            raise HostError(f"{host.name}: no SSH host key could be read from {hostname}:{port} ({reason})")
        return keys

    def is_known(self, host: HostAddress) -> bool:
        """Does an ssh connection get past host key checking (known and unchanged)?"""
        done = subprocess.run([*self._base(host), "-T", "--", host.host, "true"], capture_output=True, text=True, timeout=30, check=False)
        if any(marker in done.stderr for marker in CHANGED_KEY_MARKERS):
            raise HostError(explain_ssh_failure(host, done.stderr))
        return "Host key verification failed" not in done.stderr and "No matching host key" not in done.stderr

    def accept_key(self, host: HostAddress, fingerprint: str) -> HostKey:
        """Store the host's key in ssdprof's known_hosts if, and only if, it has this fingerprint."""
        keys = self.scan_keys(host)
        chosen = next((k for k in keys if k.fingerprint == fingerprint), None)
        if chosen is None:
            offered = ", ".join(k.fingerprint for k in keys)
            raise HostError(f"{host.name}: its key fingerprint is {offered}, not {fingerprint}; nothing was accepted")
        self.settings.known_hosts.parent.mkdir(parents=True, exist_ok=True)
        with self.settings.known_hosts.open("a") as known:
            known.write(chosen.line.rstrip("\n") + "\n")
        return chosen

    def probe(self, host: HostAddress) -> HostProbe:
        try:
            done = self.run(host, ["sh", "-c", probe_script()], timeout_s=30)
        except HostError as exc:
            return HostProbe(reachable=False, error=str(exc))
        except subprocess.TimeoutExpired:
            return HostProbe(reachable=False, error=f"{host.name}: no answer within 30 s")
        return parse_probe(done.stdout)


def explain_ssh_failure(host: HostAddress, stderr: str, master: str = "") -> str:
    """``stderr`` of the failed ssh command; ``master``: the shared connection's last words (Ssh.master_reason)."""
    text = stderr.strip() or master.strip()
    if any(marker in text for marker in CHANGED_KEY_MARKERS):
        return (f"{host.name}: its SSH host key has CHANGED since it was accepted. This can mean an attack, or a reinstalled "
                "host. ssdprof refuses to connect; if you know why it changed, remove the old key (ssh-keygen -R HOST, and "
                "from ssdprof's known_hosts) and add the host again")
    if "Host key verification failed" in text or "No matching host key" in text or "No ED25519 host key" in text:
        return f"{host.name}: its host key is not known yet; add it with `ssdprof hosts add {host.name}` and check the fingerprint"
    if "Permission denied" in text:
        return f"{host.name}: permission denied; ssdprof uses keys or an agent only (no passwords): load a key with ssh-add"
    if "Connection refused" in text or "timed out" in text or "No route" in text or "Could not resolve" in text:
        return f"{host.name}: cannot connect: {text.splitlines()[-1] if text else 'no answer'}"
    return f"{host.name}: ssh failed: {text.splitlines()[-1] if text else 'connection lost'}"


def dropped_while_opening(returncode: int | None, stderr: str) -> bool:
    """Whether ssh ended because sshd dropped the connection before it was authenticated (nothing ran on
    the host, so opening it again is safe): worth a retry, not the end of a run."""
    return returncode == 255 and any(marker in stderr for marker in DROPPED_MARKERS)


def session_ended(host: HostAddress, returncode: int | None, stderr: str, elapsed_s: float, *, master: str = "",
                  attempts: int = 1) -> str:
    """What ended an SSH session, in ssh's words: when, ssh's exit status and its last line, with what
    :func:`explain_ssh_failure` knows of it (never "no answer within 90 s" for a session that ended at 17 s)."""
    said = [line.strip() for line in (stderr or master).splitlines() if line.strip()]
    last = said[-1][:300] if said else "nothing"
    tries = f", opened {attempts} times" if attempts > 1 else ""
    ended = f"its SSH session ended after {elapsed_s:.0f} s{tries} (ssh exit status {returncode}: {last})"
    if returncode == 255:
        known = explain_ssh_failure(host, stderr, master).removeprefix(f"{host.name}: ")
        if not known.startswith(("ssh failed", "cannot connect")):
            return f"{host.name}: {known}; {ended}"
    return f"{host.name}: {ended}"
