"""A host's sessions opened on a slow host (remote/keeper.py, remote/launch.py), against a real sshd whose
MaxStartups drops a connection while another is still authenticating, as a slow host's sshd does: a
session dropped while it is being opened is opened again, and one that cannot be opened says what
ended it (ssh's exit status and its last words), not "no answer within 90 s"."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from infra.netns_hosts import TestHosts

from ssdprof.remote.addresses import parse_host
from ssdprof.remote.keeper import Keepers
from ssdprof.remote.launch import Launch
from ssdprof.remote.ssh import Ssh, SshSettings


@contextmanager
def authenticating(hosts: TestHosts, alias: str, for_s: float | None) -> Iterator[None]:
    """A connection that opens TCP to the host's sshd and never authenticates: with MaxStartups 1:100:1 sshd
    then drops every other connection while it is being opened. It lets go after ``for_s`` (None: at the end)."""
    blocker = socket.create_connection((hosts.addresses[alias], hosts.ports[alias]), timeout=10)
    blocker.recv(256)  # sshd's banner: the connection counts as one authenticating
    timer = threading.Timer(for_s, blocker.close) if for_s is not None else None
    if timer is not None:
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        blocker.close()


def _keeper_probe(hosts: TestHosts, tmp_path: Path) -> tuple[bool, str, int]:
    keepers = Keepers(Ssh(SshSettings(config=hosts.ssh_config_path, leftovers=tmp_path / "leftovers")))
    keeper = keepers.start(parse_host("h1"), leftovers=[], target=str(hosts.host_dirs["h1"] / "f"), layout=["true"])
    try:
        probe = keeper.read_probe()
        return probe.reachable, probe.error or "", keeper.attempts
    finally:
        keepers.stop()


def test_a_probe_session_sshd_drops_while_it_is_opened_is_opened_again(ssh_hosts: TestHosts, tmp_path: Path) -> None:
    ssh_hosts.max_startups("h1", "1:100:1")
    with authenticating(ssh_hosts, "h1", for_s=1.5):
        reachable, error, attempts = _keeper_probe(ssh_hosts, tmp_path)
    assert reachable, error
    assert attempts >= 2, "the first session was dropped while it was being opened"


def test_a_probe_session_that_cannot_be_opened_says_what_ended_it(ssh_hosts: TestHosts, tmp_path: Path) -> None:
    ssh_hosts.max_startups("h1", "1:100:1")
    with authenticating(ssh_hosts, "h1", for_s=None):
        reachable, error, attempts = _keeper_probe(ssh_hosts, tmp_path)
    assert not reachable and attempts == 4
    assert "ssh exit status 255" in error and "opened 4 times" in error, error
    assert "Connection closed" in error or "Connection reset" in error or "kex_exchange_identification" in error, error
    assert "no answer within" not in error


def test_a_run_session_sshd_drops_while_it_is_opened_is_opened_again(ssh_hosts: TestHosts, tmp_path: Path) -> None:
    ssh_hosts.max_startups("h1", "1:100:1")
    ssh = Ssh(SshSettings(config=ssh_hosts.ssh_config_path, leftovers=tmp_path / "leftovers"))
    began = time.monotonic()
    with authenticating(ssh_hosts, "h1", for_s=1.5):
        launch = Launch(ssh, [parse_host("h1")])
    try:
        session = launch.sessions["h1"]
        assert session.alive() and session.confirm_open(10), session.stderr_text()
        assert session.opened_at - began >= 1.0, "the session open now is not the first one, which sshd dropped"
    finally:
        launch.end()


def test_run_sessions_opened_without_waiting_are_confirmed_and_opened_again_at_their_first_use(ssh_hosts: TestHosts,
                                                                                                 tmp_path: Path) -> None:
    """A sweep opens its run sessions and lays out its files while they open (Launch(confirm=False)): nothing waits
    for them until the first point, which then gets a session that answers, opened again if sshd dropped it."""
    ssh_hosts.max_startups("h1", "1:100:1")
    ssh = Ssh(SshSettings(config=ssh_hosts.ssh_config_path, leftovers=tmp_path / "leftovers"))
    with authenticating(ssh_hosts, "h1", for_s=1.5):
        began = time.monotonic()
        launch = Launch(ssh, [parse_host("h1")], confirm=False)
        returned_after_s = time.monotonic() - began
        try:
            session = launch.session(parse_host("h1"))  # while sshd still drops it
        except BaseException:
            launch.end()
            raise
    try:
        assert returned_after_s < 1.0, f"Launch waited {returned_after_s:.1f} s for a session it was told not to wait for"
        assert session.alive() and session.confirm_open(10), session.stderr_text()
        assert session.opened_at - began >= 1.0, "the session open now is not the first one, which sshd dropped"
        assert launch.session(parse_host("h1")) is session, "a confirmed session is used as it is"
    finally:
        launch.end()
