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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ssdprof.store.location import DatabaseUrl, Location

__all__ = ["Connection", "Cursor", "Row", "StoreUnavailable", "connect", "pg_ddl"]


class StoreUnavailable(RuntimeError):
    """The results server did not answer (after retrying); the message names it without its password."""


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

    def begin(self) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...


_WAL_WAIT_S = 30.0


class SqliteConnection:
    dialect = "sqlite"

    def __init__(self, path: Path | str):
        self.raw = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        self.raw.row_factory = sqlite3.Row
        self._wal()
        self.raw.execute("PRAGMA foreign_keys=ON")
        self.raw.execute("PRAGMA synchronous=NORMAL")

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

        try:
            self.raw = psycopg.connect(url.url, autocommit=True, connect_timeout=connect_timeout_s,
                                       row_factory=_row_factory, application_name="ssdprof")
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"cannot reach the results database {url}: {_first_line(exc)}") from None

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        cursor: Cursor = self.raw.execute(_pg_sql(sql), list(params))
        return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        with self.raw.cursor() as cursor:
            cursor.executemany(_pg_sql(sql), [list(r) for r in rows])

    def begin(self) -> None:
        self.raw.execute("BEGIN")

    def commit(self) -> None:
        self.raw.execute("COMMIT")

    def rollback(self) -> None:
        if not self.raw.closed:
            self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def connect(location: Location | str) -> Connection:
    if isinstance(location, DatabaseUrl):
        return PostgresConnection(location)
    return SqliteConnection(location)


def connection_lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the PostgreSQL server went away (worth reconnecting), not a bad statement."""
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)


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
