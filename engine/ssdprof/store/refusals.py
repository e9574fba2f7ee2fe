"""A PostgreSQL server's refusals and libpq's failures, each turned into one line that says what is
wrong and what to do: nothing listening, an unknown host, a wrong or missing password, no such user
or database, no access from this machine, a server starting or stopping, no free connection.

libpq reports a failed connection as text (no SQLSTATE reaches the client before the session
exists), so the server's and libpq's own English phrases are matched here; anything else is said
as libpq said it, in one line. A missing password is told apart from a wrong database: when
``~/.pgpass`` holds a password for the same server and user but for other databases, the database
name is what is wrong (libpq then only says "no password supplied").
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ssdprof.store.errors import StoreError, StoreRefused, StoreUnavailable
from ssdprof.store.location import DatabaseUrl, Endpoint

__all__ = ["lost", "refusal"]


@dataclass(frozen=True)
class _Case:
    pattern: re.Pattern[str]
    kind: type[StoreError]
    say: str
    """Formatted with the endpoint's fields (server, host, port, user, database) and ``detail``."""


_CASES = (
    _Case(re.compile(r"Connection refused"), StoreUnavailable,
          "nothing is listening at {server} (connection refused): is PostgreSQL running there, on that port, "
          "taking connections from this machine (listen_addresses)?"),
    _Case(re.compile(r"No such file or directory"), StoreUnavailable,
          "no PostgreSQL server has its socket in {host} (no .s.PGSQL.{port} there): is it running, and is "
          "that folder its unix_socket_directories?"),
    _Case(re.compile(r"timeout expired|timed out", re.I), StoreUnavailable,
          "the server at {server} did not answer in time: is the host up, and does a firewall let port {port} through?"),
    _Case(re.compile(r"could not translate host name|Name or service not known|nodename nor servname"),
          StoreRefused, "the host name {host!r} is not known: check the server's name in the URL"),
    _Case(re.compile(r"password authentication failed"), StoreRefused,
          "the server at {server} refused the password of user {user!r} (wrong, or none set for that user): "
          "check the password in {password_from}"),
    _Case(re.compile(r'database "[^"]*" does not exist'), StoreRefused,
          "there is no database {database!r} on the server at {server}: check the name at the end of the URL, or create it "
          "(createdb -h {host} -p {port} -U {user} {database})"),
    _Case(re.compile(r'role "[^"]*" does not exist'), StoreRefused,
          "the server at {server} has no user {user!r}: check the name before @ in the URL"),
    _Case(re.compile(r"no pg_hba\.conf entry"), StoreRefused,
          "the server at {server} does not let user {user!r} reach database {database!r} from this machine "
          "(no pg_hba.conf line for it): ask its administrator"),
    _Case(re.compile(r"permission denied for database"), StoreRefused,
          "user {user!r} may not connect to database {database!r} on the server at {server} (no CONNECT privilege): ask "
          "its administrator"),
    _Case(re.compile(r"starting up|shutting down|in recovery mode|not yet accepting connections"), StoreUnavailable,
          "the server at {server} is starting up or shutting down: try again in a moment"),
    _Case(re.compile(r"too many clients|remaining connection slots are reserved"), StoreUnavailable,
          "the server at {server} has no free connection (too many clients): try again later, or ask its "
          "administrator to raise max_connections"),
)
_LIBPQ_PREFIX = re.compile(r"^(connection (failed|is bad): )?(connection to server (on socket \"[^\"]*\"|at \"[^\"]*\""
                           r"(, port \d+)?) failed: )?(FATAL:\s*)?")


def refusal(url: DatabaseUrl, exc: BaseException) -> StoreError:
    """Why connecting to ``url`` failed, in one line: StoreUnavailable when the server may come back
    (worth waiting for), StoreRefused when it answered no."""
    text = _one_line(exc)
    end = url.endpoint()
    if "no password supplied" in text:
        return StoreRefused(f"results database {url}: {_no_password(end)}")
    for case in _CASES:
        if case.pattern.search(text):
            return case.kind(f"results database {url}: {case.say.format(**end.fields())}")
    return StoreUnavailable(f"results database {url}: cannot connect: {_LIBPQ_PREFIX.sub('', text)}")


def lost(url: DatabaseUrl, exc: BaseException) -> StoreUnavailable:
    """A session that broke mid-command (the server stopped, restarted or the network went)."""
    detail = _LIBPQ_PREFIX.sub("", _one_line(exc)) or type(exc).__name__
    return StoreUnavailable(f"results database {url} stopped answering ({detail})")


def _one_line(exc: BaseException) -> str:
    return " ".join(part.strip() for part in str(exc).strip().splitlines() if part.strip()) or type(exc).__name__


def _no_password(end: Endpoint) -> str:
    """libpq found no password: a ~/.pgpass line for this server and user but another database
    means the database name is what is wrong."""
    others = sorted({line.database for line in _pgpass_lines() if line.matches(end) and line.database != "*"})
    if others and end.database not in others:
        listed = ", ".join(repr(name) for name in others)
        shown = "~/.pgpass" if not os.environ.get("PGPASSFILE") else str(_pgpass_path())
        return (f"{shown} has a password for {end.user} at {end.server} only for database(s) {listed}, not for "
                f"{end.database!r}: is {end.database!r} the database you meant? (the third field of a .pgpass "
                "line names the database; * for any)")
    return (f"the server at {end.server} asks user {end.user!r} for a password and none was given: put it in "
            f"~/.pgpass ({end.host}:{end.port}:{end.database}:{end.user}:PASSWORD, mode 0600) or PGPASSWORD")


@dataclass(frozen=True)
class _PgpassLine:
    host: str
    port: str
    database: str
    user: str

    def matches(self, end: Endpoint) -> bool:
        """The same server and user (any database); libpq's rules, the password never read."""
        hosts = {end.host, "localhost"} if end.host.startswith("/") else {end.host}
        return (self.host in hosts or self.host == "*") and self.port in (end.port, "*") and self.user in (end.user, "*")


def _pgpass_lines() -> Iterator[_PgpassLine]:
    path = _pgpass_path()
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.replace("\\:", ":").replace("\\\\", "\\") for f in re.split(r"(?<!\\):", line, maxsplit=4)]
        if len(fields) == 5:
            yield _PgpassLine(*fields[:4])


def _pgpass_path() -> Path:
    if os.environ.get("PGPASSFILE"):
        return Path(os.environ["PGPASSFILE"])
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", "")) / "postgresql" / "pgpass.conf"
    return Path.home() / ".pgpass"
