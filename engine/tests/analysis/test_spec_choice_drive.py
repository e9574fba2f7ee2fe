"""The spec-sheet match reads the drive's own model (its SMART identity) when the OS named none."""

from __future__ import annotations

from conftest import FIO_DATA

from ssdprof.analysis.spec_choice import device_identity, drive_environment, pick_spec
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.model.health import DriveHealth, HealthRecord
from ssdprof.model.results import Environment
from ssdprof.store.interchange import import_fio_output

SMART = DriveHealth(device="/dev/nvme0n1", model="Samsung SSD 970 EVO Plus 1TB", serial="S4EWNX0N",
                    firmware="2B2QEXM7", sources=["nvme-cli"])


def run_on(environment: Environment, drive: DriveHealth | None):  # type: ignore[no-untyped-def]
    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")[0]
    record = HealthRecord(before=drive) if drive is not None else None
    return run.model_copy(update={"environment": environment, "drive_health": record})


def test_a_drive_the_os_did_not_name_is_matched_by_its_smart_model() -> None:
    library = SpecLibrary.load([bundled_spec_dir()])
    environment = drive_environment(run_on(Environment(hostname="lab", device="dm-0"), SMART))
    spec, pick = pick_spec(library, environment, None, None)
    assert pick.how == "matched" and spec is not None and "970 EVO Plus" in spec.title
    assert device_identity(environment).description == (
        "Samsung SSD 970 EVO Plus 1TB (serial S4EWNX0N)")


def test_the_oss_own_model_is_kept_when_it_named_one() -> None:
    named = Environment(hostname="lab", device="sda", device_model="INTEL SSDSC2KB960G8")
    assert drive_environment(run_on(named, SMART)).device_model == "INTEL SSDSC2KB960G8"


def test_a_run_without_the_drives_word_keeps_its_environment() -> None:
    bare = Environment(hostname="vm", device="vda")
    assert drive_environment(run_on(bare, None)) == bare


def test_the_summary_and_a_remembered_choice_go_by_the_drives_own_model(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ssdprof.app.service.summary import remember_spec, summary_for
    from ssdprof.store.db import Store

    library = SpecLibrary.load([bundled_spec_dir()])
    store = Store(tmp_path / "r.db")
    try:
        run = run_on(Environment(hostname="lab", device="dm-0"), SMART)
        found = summary_for(store, library, [run])
        assert found.spec.pick.how == "matched" and "970 EVO Plus" in found.spec.pick.title
        assert remember_spec(store, library, run, None) == "Samsung SSD 970 EVO Plus 1TB (serial S4EWNX0N)"
    finally:
        store.close()


def test_a_hosts_disk_without_smart_is_named_by_the_device_its_drive_was_asked_as() -> None:
    bare = DriveHealth(device="/dev/vda", missing=["/dev/vda reports no SMART to smartctl"])
    environment = drive_environment(run_on(Environment(hostname="h1"), bare))
    assert device_identity(environment).description == "disk vda on h1"
    named = drive_environment(run_on(Environment(hostname="h1", device="nvme0n1"), bare))
    assert named.device == "nvme0n1"  # the run's own name for its disk stands
