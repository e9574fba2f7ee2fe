"""Remote hosts over SSH: addresses and OpenSSH argv (quoting only here), fio on many hosts behind one barrier, Ceph.

The host-side programs are POSIX-sh files beside the modules (``*.sh``), linted by shellcheck
(scripts/shellcheck.sh) and handed to ``sh -c`` on the host as one argument."""
