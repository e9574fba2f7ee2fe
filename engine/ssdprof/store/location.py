"""Where the results store is: a SQLite file (the default, embedded) or a PostgreSQL database a lab
shares, named by a ``postgresql://`` URL.

A URL may carry a password; it is used to connect and never shown: ``str()`` of a
:class:`DatabaseUrl` leaves it out (``postgresql://lab:***@db.lab/ssdprof``), so logs, error
messages, ``engine.info`` and the results themselves never hold it. Prefer libpq's own ways to keep
a password out of the URL altogether (``~/.pgpass``, ``PGPASSWORD``).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import platformdirs

__all__ = ["DB_ENV", "DatabaseUrl", "Location", "default_db_path", "location_of"]

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
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


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
