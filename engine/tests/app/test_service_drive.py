"""RPC ``drive.show``: a drive's own word now, on this machine (a virtual disk says what is
missing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from ssdprof.app.rpc import EngineService
from ssdprof.app.service.registry import RpcError

HERE_DISK = next((p.name for p in sorted(Path("/sys/block").iterdir())
                  if not p.name.startswith(("loop", "ram", "zram", "dm-", "md"))), None)


@pytest.fixture
def service(tmp_path: Path):  # type: ignore[no-untyped-def]
    def ignore(method: str, payload: BaseModel) -> None:
        pass

    engine = EngineService(tmp_path / "results.sqlite3", ignore, default_dir=tmp_path)
    yield engine
    engine.close()


@pytest.mark.skipif(HERE_DISK is None, reason="this machine shows no disk in /sys/block")
def test_drive_show_answers_one_reading_of_a_local_disk(service: EngineService) -> None:
    answer = service.call("drive.show", {"device": HERE_DISK}).model_dump(mode="json")
    assert answer["device"] == f"/dev/{HERE_DISK}" and (answer["sources"] or answer["missing"])


def test_a_disk_this_machine_lacks_is_not_found(service: EngineService) -> None:
    with pytest.raises(RpcError, match="no block device /dev/nosuchdisk") as raised:
        service.call("drive.show", {"device": "nosuchdisk"})
    assert raised.value.code == "not_found"


def test_a_name_that_is_no_disk_name_is_invalid_params_naming_the_field(
        service: EngineService) -> None:
    with pytest.raises(RpcError) as raised:
        service.call("drive.show", {"device": "sda && reboot"})
    assert raised.value.code == "invalid_params" and raised.value.problems[0].field == "device"
