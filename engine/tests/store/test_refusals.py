"""Every way a results store can refuse, said by the real command line in one line with a non-zero
exit, no traceback and no password: a URL naming no server or database (said before connecting),
nothing listening, no server in a socket folder, no such database or user, a wrong password, no
password, a ~/.pgpass line for another database, a file that is no results store. Against the real
PostgreSQL server of the session, with a login that must give a password (SCRAM)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_fixtures import *  # noqa: F403  # pg_server: a real PostgreSQL server
from pg_server import PgServer

SECRET = "lab-s3cret-pass"  # the test login's password, made by this test


@pytest.fixture(scope="module")
def lab_login(pg_server: PgServer) -> Iterator[str]:
    """A login "lab" that must give its password, with a database of its name."""
    pg_server.add_password_user("lab", SECRET)
    yield "lab"


def refused(db: str, tmp_path: Path, *, pgpass: str = "", command: tuple[str, ...] = ("runs", "list")) -> str:
    """The one line ssdprof says, having checked it is one line, on stderr only, with a non-zero exit."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env["PGPASSFILE"] = str(tmp_path / "pgpass")
    (tmp_path / "pgpass").write_text(pgpass)
    (tmp_path / "pgpass").chmod(0o600)
    done = subprocess.run([sys.executable, "-m", "ssdprof", *command, "--db", db], capture_output=True, text=True,
                          timeout=120, check=False, env=env)
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and done.stdout == "", done
    assert len(lines) == 1 and lines[0].startswith("ssdprof: ") and "Traceback" not in done.stderr, done.stderr
    assert SECRET not in done.stderr
    return lines[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_empty_url_is_refused_before_connecting_naming_what_it_lacks(tmp_path: Path) -> None:
    said = refused("postgresql://", tmp_path)
    assert "the results database URL postgresql:// names no server and no database" in said
    assert "does not fall back to libpq's defaults" in said and "postgresql::" not in said


def test_a_url_without_a_server_does_not_reach_the_default_socket(tmp_path: Path) -> None:
    assert "names no server" in refused("postgresql:///ssdprof", tmp_path)


def test_nothing_listening_is_said_with_the_address(tmp_path: Path) -> None:
    port = free_port()
    said = refused(f"postgresql://lab@127.0.0.1:{port}/ssdprof", tmp_path, command=("sweep", "--resume"))
    assert f"nothing is listening at 127.0.0.1:{port} (connection refused)" in said


def test_a_socket_folder_without_a_server_is_said(tmp_path: Path) -> None:
    said = refused(f"postgresql://lab@/ssdprof?host={tmp_path}", tmp_path)
    assert f"no PostgreSQL server has its socket in {tmp_path}" in said


def test_a_missing_database_is_said_as_a_missing_database(pg_server: PgServer, tmp_path: Path) -> None:
    said = refused(pg_server.url("nonexistent"), tmp_path)
    assert "there is no database 'nonexistent' on the server at socket folder" in said and "createdb" in said


def test_an_unknown_user_is_said(pg_server: PgServer, tmp_path: Path) -> None:
    said = refused(pg_server.url("postgres").replace(f"{pg_server.user}@", "nobody@"), tmp_path)
    assert "has no user 'nobody'" in said


def test_a_wrong_password_is_said_without_showing_it(pg_server: PgServer, lab_login: str, tmp_path: Path) -> None:
    url = pg_server.url(lab_login, password="not-the-password").replace(f"{pg_server.user}:", f"{lab_login}:")
    said = refused(url, tmp_path)
    assert "refused the password of user 'lab'" in said and "check the password in the URL" in said
    assert "not-the-password" not in said and "lab:***@" in said


def test_no_password_says_where_to_put_it(pg_server: PgServer, lab_login: str, tmp_path: Path) -> None:
    said = refused(pg_server.url(lab_login).replace(f"{pg_server.user}@", f"{lab_login}@"), tmp_path)
    assert "asks user 'lab' for a password and none was given: put it in ~/.pgpass" in said


def test_a_pgpass_line_for_another_database_is_said_as_a_wrong_database_name(
        pg_server: PgServer, lab_login: str, tmp_path: Path) -> None:
    pgpass = f"{pg_server.socket}:5432:{lab_login}:{lab_login}:{SECRET}\n"
    url = pg_server.url("nonexistent").replace(f"{pg_server.user}@", f"{lab_login}@")
    said = refused(url, tmp_path, pgpass=pgpass)
    assert "only for database(s) 'lab', not for 'nonexistent': is 'nonexistent' the database you meant?" in said
    assert "password supplied" not in said


def test_the_right_password_in_pgpass_opens_the_store(pg_server: PgServer, lab_login: str, tmp_path: Path) -> None:
    (tmp_path / "pgpass").write_text(f"{pg_server.socket}:5432:{lab_login}:{lab_login}:{SECRET}\n")
    (tmp_path / "pgpass").chmod(0o600)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PG")}, "PGPASSFILE": str(tmp_path / "pgpass")}
    done = subprocess.run([sys.executable, "-m", "ssdprof", "sweeps", "list", "--db",
                           pg_server.url(lab_login).replace(f"{pg_server.user}@", f"{lab_login}@")],
                          capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "no sweeps stored", done


def test_a_file_that_is_no_results_store_is_said(tmp_path: Path) -> None:
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("these are my notes, not a database\n" * 100)
    assert "not an ssdprof results store" in refused(str(not_a_store), tmp_path)


@pytest.mark.parametrize("command", [("serve", "--port", "0"), ("rpc",)])
def test_the_app_engine_refuses_a_url_naming_no_database_before_serving(command: tuple[str, ...], tmp_path: Path) -> None:
    assert "names no server and no database" in refused("postgresql://", tmp_path, command=command)
