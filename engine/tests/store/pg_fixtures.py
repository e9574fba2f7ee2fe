"""The store's tests run on both databases: ``fresh_store`` is an in-memory SQLite store, then a new
database on a real PostgreSQL server made for this session (``pg_server``). A test module takes
these fixtures with ``from pg_fixtures import *``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from pg_server import PgServer, PgUnavailable

from ssdprof.store.db import Store
from ssdprof.store.location import DatabaseUrl

__all__ = ["fresh_store", "pg_server", "pg_url"]

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    try:
        server = PgServer()
    except PgUnavailable as reason:
        pytest.skip(str(reason))
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def pg_url(pg_server: PgServer) -> DatabaseUrl:
    """A new, empty database on the session's server."""
    return DatabaseUrl(pg_server.create_database(f"ssdprof_test_{next(_databases)}"))


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_store(request: pytest.FixtureRequest) -> Iterator[Store]:
    store = Store(":memory:") if request.param == "sqlite" else Store(request.getfixturevalue("pg_url"))
    yield store
    store.close()
