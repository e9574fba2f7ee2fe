"""Remote hosts over SSH: addresses and OpenSSH argv (quoting only here), fio on many hosts behind one barrier, Ceph.

The host-side programs are POSIX-sh files beside the modules (``*.sh``), linted by shellcheck
(scripts/shellcheck.sh) and handed to ``sh -c`` on the host as one argument."""

__all__ = ["DEFAULT_REMOTE_DIR"]

DEFAULT_REMOTE_DIR = "/var/tmp"  # noqa: S108 - a disk-backed default on the hosts; --remote-dir changes it
"""Where a test file goes on a host without --remote-dir (here, so the command line names it without
loading the remote side)."""
