"""A throwaway PostgreSQL server for the store's tests: a cluster made with initdb in a temporary folder,
served by pg_ctl on a Unix socket there only (no TCP port), stopped and removed at the end.

As root, the cluster belongs to the ``postgres`` user (PostgreSQL refuses to run as root) and its
commands run as that user; otherwise as the user running the tests. Debian keeps the server's
programs in /usr/lib/postgresql/<version>/bin, off the PATH. Where they are missing, the tests skip
(and fail under CI=true: ``infra.ci_rule``).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

__all__ = ["PgServer", "PgUnavailable", "pg_bin"]


class PgUnavailable(RuntimeError):
    """No PostgreSQL server programs here (Debian: apt install postgresql)."""


def pg_bin() -> Path:
    """The folder holding initdb and pg_ctl."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if not candidates:
        raise PgUnavailable("PostgreSQL's initdb and pg_ctl are not installed (Debian: apt install postgresql; "
                            "scripts/setup.sh installs it for the tests)")
    return Path(candidates[-1]).parent


class PgServer:
    """``start()`` makes and starts the cluster; ``url(db)`` names a database on it; ``stop()`` and
    ``start()`` again take it away and bring it back (a server that goes away mid-sweep)."""

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.folder = Path(tempfile.mkdtemp(prefix="ssdprof-pg-", dir="/var/tmp" if Path("/var/tmp").is_dir() else None))
        self.data = self.folder / "data"
        self.socket = self.folder / "socket"
        self.socket.mkdir()
        self.as_user = "postgres" if os.geteuid() == 0 else None
        if self.as_user:
            try:
                owner = pwd.getpwnam(self.as_user)
            except KeyError:
                raise PgUnavailable("running as root, and there is no postgres user to run the server as") from None
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            os.chown(self.socket, owner.pw_uid, owner.pw_gid)
        self.user = self.as_user or pwd.getpwuid(os.geteuid()).pw_name
        self._run(["initdb", "-D", str(self.data), "--auth=trust", "--encoding=UTF8", "--no-sync", "-U", self.user])

    def _run(self, argv: Sequence[str]) -> str:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.as_user:
            command = ["runuser", "-u", self.as_user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done.stdout

    def start(self) -> None:
        options = f"-k {self.socket} -c listen_addresses='' -c fsync=off -c max_connections=40"
        self._run(["pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-o", options, "-w", "start"])

    def stop(self) -> None:
        self._run(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://{self.user}{secret}@/{database}?host={self.socket}"

    def add_password_user(self, name: str, password: str) -> None:
        """A login that must give its password (SCRAM) on this server's socket; every other login
        keeps the cluster's trust. Its own database, of its name, is made too."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE ROLE \"{name}\" LOGIN PASSWORD '{password}'")
            db.execute(f'CREATE DATABASE "{name}" OWNER "{name}"')
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"local all {name} scram-sha-256\n" + hba.read_text())
        self._run(["pg_ctl", "-D", str(self.data), "reload"])
        deadline = time.monotonic() + 20  # reload signals and returns; the postmaster rereads pg_hba.conf just after
        while time.monotonic() < deadline:
            try:
                psycopg.connect(self.url(name).replace(f"{self.user}@", f"{name}@"), connect_timeout=5).close()
            except psycopg.OperationalError as asked:
                if "password" in str(asked):
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start asking {name} for a password")

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        with suppress(RuntimeError):  # already stopped
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
