"""ssh as ssdprof runs it (remote/ssh.py), with a stand-in ssh: a host that answers too slowly."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdprof.remote.addresses import HostError, parse_host
from ssdprof.remote.ssh import Ssh, SshSettings


def test_a_command_a_host_does_not_answer_in_time_is_a_named_host_error(tmp_path: Path) -> None:
    slow = tmp_path / "ssh"  # answers ssh -G (the configuration) at once, then hangs like an overloaded host
    slow.write_text('#!/bin/sh\nfor a in "$@"; do [ "$a" = -G ] && exit 0; done\nexec sleep 30\n')
    slow.chmod(0o755)
    ssh = Ssh(SshSettings(ssh=str(slow), known_hosts=tmp_path / "known_hosts", leftovers=tmp_path / "left"))
    with pytest.raises(HostError, match=r"^slowhost: no answer to sh within 1 s \(a slow or overloaded host"):
        ssh.run(parse_host("slowhost"), ["sh", "-c", "true"], timeout_s=1)
