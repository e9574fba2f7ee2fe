"""The store's two databases behind one connection: SQLite (embedded, the default) and PostgreSQL
(a lab's shared store), with the same SQL and the same migrations.

The store writes portable SQL: ``?`` placeholders, ``INSERT ... ON CONFLICT``, ``RETURNING``. For
PostgreSQL the placeholders become ``%s`` and the migrations' column types their PostgreSQL names
(an ``INTEGER PRIMARY KEY`` id an identity column, ``INTEGER`` 64-bit, ``REAL`` double precision,
``BLOB`` bytea). Rows answer by index and by column name on both.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from ssdprof.store.errors import StoreRefused, StoreUnavailable
from ssdprof.store.location import DatabaseUrl, Location
from ssdprof.store.refusals import lost, refusal

__all__ = ["Connection", "Cursor", "Row", "StorePart", "StoreUnavailable", "connect", "pg_ddl"]


class Row(Protocol):
    def __getitem__(self, key: int | str) -> Any: ...

    def keys(self) -> Sequence[str]: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the store and its migrations use of a database connection."""

    dialect: str
    """sqlite or postgresql."""

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None: ...

    def close(self) -> None: ...

    def clock_s(self) -> float:
        """The database's clock, in seconds since the epoch: one clock for every machine sharing it."""
        ...

    def begin(self) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...


T = TypeVar("T")
_WAL_WAIT_S = 30.0


class StorePart:
    """A part of :class:`ssdprof.store.db.Store`, mixed into it: the Store gives the connection and transactions."""

    @property
    def _db(self) -> Connection:
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError


class SqliteConnection:
    dialect = "sqlite"

    def __init__(self, path: Path | str):
        try:
            self.raw = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
            self.raw.row_factory = sqlite3.Row
            self._wal()
            self.raw.execute("PRAGMA foreign_keys=ON")
            self.raw.execute("PRAGMA synchronous=NORMAL")
            return
        except sqlite3.DatabaseError as exc:
            error = StoreRefused(f"results file {path}: {_sqlite_reason(exc)}")
        raise error  # outside the handler: sqlite3's text is in the message, an error in flight stays the context

    def _wal(self) -> None:
        """WAL, kept in the file once set. Switching to it needs the file to itself, and SQLite
        answers "database is locked" at once, without its busy wait, while another process opening
        a new store at the same moment holds it: so wait here, as the busy timeout would."""
        deadline = time.monotonic() + _WAL_WAIT_S
        while True:
            try:
                self.raw.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        return self.raw.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        self.raw.executemany(sql, rows)

    def clock_s(self) -> float:
        return time.time()  # the file is on this machine: its clock is the one every writer of it reads

    def begin(self) -> None:
        self.raw.execute("BEGIN IMMEDIATE")  # the writer's lock now: two processes never deadlock upgrading

    def commit(self) -> None:
        self.raw.execute("COMMIT")

    def rollback(self) -> None:
        self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()


class _PgRow(tuple):  # type: ignore[type-arg]  # values by index, as a tuple, and by column name
    __slots__ = ()
    _index: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


_ROW_CLASSES: dict[tuple[str, ...], type[_PgRow]] = {}


def _row_factory(cursor: Any) -> Any:
    names = tuple(c.name for c in cursor.description or ())
    cls = _ROW_CLASSES.get(names)
    if cls is None:
        cls = _ROW_CLASSES[names] = type("PgRow", (_PgRow,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})
    return cls


_PLACEHOLDER = re.compile(r"\?")


def _pg_sql(sql: str) -> str:
    return _PLACEHOLDER.sub("%s", sql.replace("%", "%%"))


class PostgresConnection:
    dialect = "postgresql"

    def __init__(self, url: DatabaseUrl, connect_timeout_s: int = 10):
        import psycopg  # loaded only for a PostgreSQL store

        url.endpoint()  # what is wrong with the URL is said before connecting
        self.url = url
        try:
            self.raw = psycopg.connect(url.url, autocommit=True, connect_timeout=connect_timeout_s,
                                       row_factory=_row_factory, application_name="ssdprof")
            return
        except psycopg.OperationalError as exc:
            error = refusal(url, exc)
        # raised out here, libpq's text being in the message: an error already in flight (a clean-up
        # connecting after a failure) stays this one's context instead of being hidden
        raise error

    def _answered(self, statement: Callable[[], T]) -> T:
        """A statement whose connection broke is a server that stopped answering (worth waiting for)."""
        import psycopg

        try:
            return statement()
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            error = lost(self.url, exc)
        raise error

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        cursor: Cursor = self._answered(lambda: self.raw.execute(_pg_sql(sql), list(params)))
        return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        def many() -> None:
            with self.raw.cursor() as cursor:
                cursor.executemany(_pg_sql(sql), [list(r) for r in rows])

        self._answered(many)

    def clock_s(self) -> float:
        return float(self.execute("SELECT extract(epoch FROM clock_timestamp())").fetchone()[0])

    def begin(self) -> None:
        self.execute("BEGIN")

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        if not self.raw.closed:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()


def _sqlite_reason(exc: sqlite3.DatabaseError) -> str:
    text = str(exc)
    if "not a database" in text:
        return "not an ssdprof results store (SQLite says: file is not a database)"
    if "unable to open" in text:
        return "cannot be opened (is it a folder, or is its folder missing or not writable?)"
    return f"SQLite says: {text}"


def connect(location: Location | str) -> Connection:
    if isinstance(location, DatabaseUrl):
        return PostgresConnection(location)
    return SqliteConnection(location)


_PG_TYPES = ((re.compile(r"\bid INTEGER PRIMARY KEY\b"), "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
             (re.compile(r"\bINTEGER\b"), "BIGINT"), (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
             (re.compile(r"\bBLOB\b"), "BYTEA"))


def pg_ddl(statement: str) -> str:
    """A migration's statement in PostgreSQL's names for the same column types."""
    for pattern, replacement in _PG_TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


@contextmanager
def transaction(db: Connection) -> Iterator[Connection]:
    db.begin()
    try:
        yield db
    except BaseException:
        with suppress(Exception):  # the connection itself may be gone: nothing to roll back then
            db.rollback()
        raise
    db.commit()
