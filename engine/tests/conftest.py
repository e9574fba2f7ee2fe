"""Shared fixtures: a disk-backed scratch folder (direct I/O needs a real filesystem, not tmpfs)
and a fresh in-memory store."""

from __future__ import annotations

import queue
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from rpc_client import Client

from ssdprof.app.rpc import EngineService
from ssdprof.store.db import Store

pytest_plugins = [
    "infra.netns_hosts", "infra.ceph_cluster", "infra.lab_node", "infra.ci_rule", "infra.native_builds", "infra.portable_files",
]

DATA = Path(__file__).parent / "data"
FIO_DATA = DATA / "fio"


def _disk_dir() -> Path:
    for candidate in ("/var/tmp", str(Path.home() / ".cache")):
        if Path(candidate).is_dir():
            return Path(candidate)
    return Path(tempfile.gettempdir())


@pytest.fixture(scope="session", autouse=True)
def own_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user data folder (spec sheets, remote leftovers, the default database) of every test and
    every ssdprof it starts: a temporary one, never the home of whoever runs the suite."""
    home = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(home))
        yield home


@pytest.fixture
def disk_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ssdprof-test-", dir=_disk_dir()))
    yield path
    shutil.rmtree(path, ignore_errors=True)
    for beside in path.parent.glob(f"{path.name}.db*"):  # a test's database kept beside the folder, with its WAL files
        beside.unlink(missing_ok=True)


@pytest.fixture
def fresh_store() -> Iterator[Store]:
    store = Store(":memory:")
    yield store
    store.close()


requires_fio = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed (npm test installs it)")


@pytest.fixture
def client(disk_dir: Path) -> Iterator[Client]:
    """The engine's RPC on this test's own database and scratch folder, called as a transport would."""
    notes: queue.Queue[dict[str, Any]] = queue.Queue()

    def notify(method: str, payload: BaseModel) -> None:
        notes.put({"method": method, "params": payload.model_dump(mode="json")})

    service = EngineService(disk_dir / "results.sqlite3", notify, default_dir=disk_dir / "scratch")
    yield Client(service, notes)
    service.close()
