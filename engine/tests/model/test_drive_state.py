"""A drive state said in one line: the words every face (CLI, GUI, PDF) shows."""

from __future__ import annotations

from ssdprof.model.drive_state import DriveState, PreconditionRecord


def test_the_bytes_written_are_said_in_units_not_as_a_raw_count() -> None:
    state = DriveState(target_identity="file:/var/tmp/a.dat", bytes_written_since_purge=3414078722, region_bytes=1 << 30,
                       steady_state="not-reached")
    said = state.sentence()
    assert "3414078722" not in said
    assert said == "preconditioned; 3.18 GiB written by ssdprof (never purged by it)"


def test_a_preconditioned_state_names_its_passes_and_access_size() -> None:
    record = PreconditionRecord.model_validate({"passes": 2, "block_size_bytes": 131072, "bytes_written": 1 << 31,
                                                "seconds": 10.0, "region_bytes": 1 << 30, "at": "2026-11-29T05:00:00Z"})
    state = DriveState(target_identity="x", preconditioning=record, bytes_written_since_purge=1 << 31)
    assert state.sentence().startswith("preconditioned; 2 x region of 128KiB sequential writes; 2.00 GiB written")
