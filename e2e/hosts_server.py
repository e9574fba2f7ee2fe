"""Browser mode against two SSH test hosts (engine/tests/infra): for e2e/two-hosts.spec.ts.

Brings the hosts up, then serves the app exactly as ``ssdprof serve`` does, with ssh reading the
hosts' ssh_config. The hosts' known_hosts is emptied first, so the app has to show each host key's
fingerprint and wait for the user to accept it. Prints ``UNAVAILABLE: reason`` and exits 0 when the
infrastructure cannot run here (not root, no ``ip netns``, no sshd). SIGTERM stops the server; the
hosts are torn down when it returns.

usage: hosts_server.py DB_PATH KNOWN_HOSTS_PATH
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine" / "tests"))

from infra import InfraUnavailable
from infra.netns_hosts import hosts_unavailable_reason, ssh_hosts
from ssdprof.remote.ssh import SshSettings
from ssdprof.app.server import serve


def main(db_path: Path, known_hosts: Path) -> int:
    reason = hosts_unavailable_reason()
    if reason:
        print(f"UNAVAILABLE: {reason}", flush=True)
        return 0
    try:
        with ssh_hosts(2) as hosts:
            hosts.known_hosts_path.write_text("")
            print(f"HOSTS: {' '.join(hosts.aliases)}", flush=True)
            return serve(db_path, ssh=SshSettings(config=hosts.ssh_config_path, known_hosts=known_hosts))
    except InfraUnavailable as exc:
        print(f"UNAVAILABLE: {exc}", flush=True)
        return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
