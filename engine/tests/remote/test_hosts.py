"""Host names are checked before ssh ever sees them; quoting happens once, at the SSH boundary."""

import shlex

import pytest

from ssdprof.model.workload import WorkloadError
from ssdprof.remote.addresses import HostAddress, parse_host
from ssdprof.remote.probe import parse_probe
from ssdprof.remote.ssh import Ssh, SshSettings, explain_ssh_failure


@pytest.mark.parametrize(("text", "user", "host", "port"), [
    ("ceph-client-1", None, "ceph-client-1", None),
    ("root@10.0.0.12:2222", "root", "10.0.0.12", 2222),
    ("lab.example.org", None, "lab.example.org", None),
    ("admin@[fe80::1]:22", "admin", "[fe80::1]", 22),
])
def test_aliases_and_user_at_host_port_are_accepted(text: str, user: str | None, host: str, port: int | None) -> None:
    parsed = parse_host(text)
    assert (parsed.user, parsed.host, parsed.port) == (user, host, port)


@pytest.mark.parametrize("text", [
    "-oProxyCommand=touch /tmp/pwned", "host;rm -rf /", "$(reboot)", "a b", "host`id`", "h|x", "", "x" * 400, "host:99999",
    "user@-oProxyCommand=x", "../../etc/passwd",
])
def test_option_injection_and_shell_characters_are_rejected_naming_the_field(text: str) -> None:
    with pytest.raises(WorkloadError) as caught:
        parse_host(text)
    assert caught.value.problems[0].field == "host"


def test_remote_commands_are_quoted_once_so_metacharacters_stay_literal() -> None:
    ssh = Ssh(SshSettings())
    ssh._resolved["h1"] = {"userknownhostsfile": "~/.ssh/known_hosts"}
    argv = ssh.argv(HostAddress(text="h1", host="h1"), ["rm", "-f", "--", "/data/a b;reboot"])
    assert argv[-2:] == ["h1", "rm -f -- '/data/a b;reboot'"]
    assert shlex.split(argv[-1]) == ["rm", "-f", "--", "/data/a b;reboot"]
    assert "--" in argv and argv.index("--") < argv.index("h1")
    assert "BatchMode=yes" in argv and "StrictHostKeyChecking=yes" in argv


def test_a_changed_host_key_is_explained_and_refused() -> None:
    stderr = "@@@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @@@\nHost key verification failed."
    message = explain_ssh_failure(HostAddress(text="h1", host="h1"), stderr)
    assert "CHANGED" in message and "refuses" in message


def test_probe_output_becomes_host_facts() -> None:
    probe = parse_probe("os=Linux 6.1.0 x86_64\ncpus=8\nfio=fio-3.33\nengines=libaio io_uring rbd psync\n"
                         "ceph_tool=ceph\nceph_tool=rbd\nnic=eth0 10000\nnic=lo -1\n")
    assert probe.cpu_count == 8 and probe.fio_version == "fio-3.33" and "rbd" in probe.fio_engines
    assert probe.nics == {"eth0": 10000, "lo": -1} and probe.ceph_tools == ("ceph", "rbd")
