"""Which spec sheet runs are compared with: asked for, remembered for the device, or matched."""

from __future__ import annotations

import pytest

from ssdprof.analysis.spec_choice import device_identity, pick_spec
from ssdprof.analysis.spec_folders import bundled_spec_dir
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.model.results import Environment

VIRTUAL = Environment(hostname="vm", device="vda")
NAMED = Environment(
    hostname="laptop",
    device="nvme0n1",
    device_model="Samsung SSD 970 EVO Plus 1TB",
    device_serial="S4EWNX0N",
)


@pytest.fixture(scope="module")
def library() -> SpecLibrary:
    return SpecLibrary.load([bundled_spec_dir()])


def test_a_named_drive_is_known_by_model_and_serial_wherever_it_is_mounted() -> None:
    moved = NAMED.model_copy(update={"hostname": "desktop", "device": "nvme1n1"})
    assert device_identity(NAMED).key == device_identity(moved).key
    assert device_identity(NAMED).description == "Samsung SSD 970 EVO Plus 1TB (serial S4EWNX0N)"


def test_a_drive_the_os_does_not_name_is_known_by_its_machine_and_disk() -> None:
    assert device_identity(VIRTUAL).description == "disk vda on vm"
    assert (
        device_identity(VIRTUAL).key
        != device_identity(VIRTUAL.model_copy(update={"device": "vdb"})).key
    )


def test_a_virtual_disk_gets_no_sheet_and_is_told_how_to_choose_one(library: SpecLibrary) -> None:
    spec, pick = pick_spec(library, VIRTUAL, None, None)
    assert spec is None and pick.how == "none" and "choose a spec sheet" in pick.note


def test_a_remembered_sheet_is_applied_and_a_named_drives_match_is_the_fallback(
    library: SpecLibrary,
) -> None:
    spec, pick = pick_spec(library, VIRTUAL, None, "crucial-p3-1tb")
    assert spec is not None and spec.id == "crucial-p3-1tb"
    assert pick.how == "remembered" and pick.note == "chosen earlier for disk vda on vm"
    spec, pick = pick_spec(library, NAMED, None, None)
    assert spec is not None and spec.id == "samsung-970-evo-plus-1tb" and pick.how == "matched"


def test_the_sheet_asked_for_wins_and_a_remembered_sheet_deleted_since_is_passed_over(
    library: SpecLibrary,
) -> None:
    spec, pick = pick_spec(library, NAMED, "crucial-p3-1tb", "samsung-970-evo-plus-1tb")
    assert spec is not None and spec.id == "crucial-p3-1tb" and pick.how == "chosen"
    spec, pick = pick_spec(library, NAMED, None, "deleted-sheet")
    assert pick.how == "matched"
    with pytest.raises(KeyError, match="no spec with id 'nope'"):
        pick_spec(library, NAMED, "nope", None)
