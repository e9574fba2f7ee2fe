"""Where the results store is: a SQLite file (the default, embedded) or a PostgreSQL database a lab
shares, named by a ``postgresql://`` URL.

A URL may carry a password; it is used to connect and never shown: ``str()`` of a
:class:`DatabaseUrl` leaves it out (``postgresql://lab:***@db.lab/ssdprof``), so logs, error
messages, ``engine.info`` and the results themselves never hold it. Prefer libpq's own ways to keep
a password out of the URL altogether (``~/.pgpass``, ``PGPASSWORD``).
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import platformdirs

__all__ = ["DB_ENV", "DatabaseUrl", "Endpoint", "Location", "default_db_path", "location_of"]

DB_ENV = "SSDPROF_DB"
"""The store for every ssdprof started without ``--db`` (the app's engine too): a path or a URL."""

_SCHEMES = ("postgresql://", "postgres://")


def default_db_path() -> Path:
    """The store of every ssdprof started without ``--db`` or ``$SSDPROF_DB``."""
    return Path(platformdirs.user_data_dir("ssdprof")) / "results.sqlite3"


class DatabaseUrl:
    """A PostgreSQL database by its libpq URL, e.g. ``postgresql://lab@db.lab/ssdprof`` or
    ``postgresql:///ssdprof?host=/run/postgresql`` (a Unix socket)."""

    __slots__ = ("_url",)

    def __init__(self, url: str):
        if not url.startswith(_SCHEMES):
            raise ValueError(f"{redact(url)!r} is not a PostgreSQL URL; e.g. postgresql://user@host/ssdprof")
        self._url = url

    @property
    def url(self) -> str:
        """The whole URL, password included: for the driver only."""
        return self._url

    def __str__(self) -> str:
        return redact(self._url)

    def __repr__(self) -> str:
        return f"DatabaseUrl({redact(self._url)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DatabaseUrl) and other._url == self._url

    def __hash__(self) -> int:
        return hash(self._url)

    def endpoint(self) -> Endpoint:
        """The server, user and database this URL names, as libpq reads it (its environment
        variables filling what the URL leaves out); raises :class:`StoreUrlError` when the URL
        cannot name one, before anything connects: libpq would otherwise fall back to its default
        socket and a database named after the user, and say so only as a failure to connect there."""
        from psycopg import ProgrammingError
        from psycopg.conninfo import conninfo_to_dict  # loaded only for a PostgreSQL store

        from ssdprof.store.errors import StoreUrlError  # the parser reads this module for --db: it stays a leaf

        try:
            given: dict[str, Any] = conninfo_to_dict(self._url)
        except ProgrammingError as exc:
            reason = " ".join(str(exc).split()) or "it cannot be read"
            secret = urlsplit(self._url).password
            reason = reason.replace(secret, "***") if secret else reason
            raise StoreUrlError(f"the results database URL {self} is not one libpq can read ({reason}); "
                                "e.g. postgresql://lab@db.lab/ssdprof") from None
        env = os.environ
        service = bool(given.get("service") or env.get("PGSERVICE"))
        host = str(given.get("host") or given.get("hostaddr") or env.get("PGHOST") or env.get("PGHOSTADDR") or "")
        database = str(given.get("dbname") or env.get("PGDATABASE") or "")
        missing = [what for what, value in (("no server", host), ("no database", database)) if not value and not service]
        if missing:
            raise StoreUrlError(
                f"the results database URL {self} names {' and '.join(missing)}: write it as "
                "postgresql://USER@HOST/DATABASE (e.g. postgresql://lab@db.lab/ssdprof), or for a socket "
                "postgresql:///DATABASE?host=/run/postgresql; ssdprof does not fall back to libpq's defaults")
        port = str(given.get("port") or env.get("PGPORT") or "5432")
        for one in port.split(","):
            if one and not (one.isdigit() and 1 <= int(one) <= 65535):
                raise StoreUrlError(f"the results database URL {self}: the port {one!r} is not a number from 1 to 65535")
        user = str(given.get("user") or env.get("PGUSER") or _login())
        password_from = "the URL" if given.get("password") else "PGPASSWORD" if env.get("PGPASSWORD") else "~/.pgpass"
        return Endpoint(host=host or "(the service's)", port=port or "5432", user=user,
                        database=database or "(the service's)", password_from=password_from)


@dataclass(frozen=True)
class Endpoint:
    """A PostgreSQL server, user and database as messages name them (never a password)."""

    host: str
    """A host name or address, or a socket folder (starting with /)."""
    port: str
    user: str
    database: str

    password_from: str = "~/.pgpass"  # noqa: S105 - where a password is looked up, not one
    """Where libpq took the password from: the URL, PGPASSWORD or ~/.pgpass."""

    @property
    def server(self) -> str:
        return f"socket folder {self.host}" if self.host.startswith("/") else f"{self.host}:{self.port}"

    def fields(self) -> dict[str, str]:
        return {"server": self.server, "host": self.host, "port": self.port, "user": self.user, "database": self.database,
                "password_from": self.password_from}


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "(this login)"


Location = Path | DatabaseUrl
"""A results store: a SQLite file, or a PostgreSQL database."""


def redact(url: str) -> str:
    """The URL with any password replaced by ***, and any password=... parameter too."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(a database URL that cannot be read)"
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    query = "&".join("password=***" if p.lower().startswith("password=") else p for p in parts.query.split("&") if p)
    # written out rather than urlunsplit, which drops an empty server: postgresql:///db would read postgresql:/db
    scheme = f"{parts.scheme}://" if parts.scheme else ""
    return f"{scheme}{netloc}{parts.path}{'?' + query if query else ''}{'#' + parts.fragment if parts.fragment else ''}"


def location_of(text: str | Path | DatabaseUrl | None, default: Path | None = None) -> Location:
    """A store from what the user gave (``--db``, the app's setting), else ``SSDPROF_DB``, else ``default``."""
    if isinstance(text, DatabaseUrl):
        return text
    chosen = str(text) if text is not None else os.environ.get(DB_ENV) or None
    if chosen is None:
        if default is None:
            raise ValueError("no results store given")
        return default
    return DatabaseUrl(chosen) if chosen.startswith(_SCHEMES) else Path(chosen)
