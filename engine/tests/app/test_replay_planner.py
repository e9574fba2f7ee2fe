"""A replay request planned by the sweep planner's rules plus the replay's own: every bad field named at once."""

from pathlib import Path

import pytest
from infra.block_devices import loop_device, loop_unavailable_reason, require
from trace_files import Io, random_ios, write_iolog_v2, write_msr

from ssdprof.app.replay_planner import ReplayRequest, plan_replay_request
from ssdprof.model.problems import WorkloadError
from ssdprof.model.replay import HostsMode, OffsetMapping, ReplayTiming, TraceSelection

MiB = 1 << 20


def fields(raised: pytest.ExceptionInfo[WorkloadError]) -> dict[str, str]:
    return {p.field: p.message for p in raised.value.problems}


def test_a_folder_gets_a_test_file_as_large_as_the_trace_region(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "hm_1.csv", [Io(0, False, 0, 4096), Io(10, True, 3 * MiB + 4096, 8192),
                                              Io(20, False, 4096, 4096)])
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(tmp_path), lanes=4), check_target=True)
    point = job.spec.points[0]
    assert point.size_bytes == 4 * MiB and point.target == str(tmp_path)
    assert (point.pattern.value, point.read_pct, point.block_size_bytes, point.numjobs) == ("randrw", 67, 4096, 3)
    assert job.spec.replay is not None and job.spec.replay.recorded.io_count == 3
    assert job.spec.replay.lanes == 3 and job.spec.tags["replay"] == "hm_1.csv"
    assert len(job.spec.replay.trace_sha256) == 64


def test_a_malformed_line_is_named_as_the_trace_field_with_its_line(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "t.csv", random_ios(10, span_s=1, seed=1))
    trace.write_text(trace.read_text() + "128166372003061629,hm,1,Read,12,abc,5\r\n")
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), target=str(tmp_path)))
    assert "line 11: Size 'abc' is not a whole number" in fields(raised)["trace"]


def test_every_bad_field_is_named_at_once(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "t.csv", random_ios(10, span_s=1, seed=2))
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), target=str(tmp_path / "nowhere"),
                                          selection=TraceSelection(disks=["9"])), check_target=True)
    assert "no disk '9'; its disks: '1'" in fields(raised)["selection"]
    assert "does not exist" in fields(raised)["target"]


def test_a_trace_beyond_a_file_is_refused_unless_wrapped(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "t.csv", [Io(0, False, 0, 4096), Io(5, False, 8 * MiB, 4096)])
    target = tmp_path / "small.dat"
    target.write_bytes(bytes(MiB))
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), target=str(target)), check_target=True)
    assert "choose wrap" in fields(raised)["mapping"]
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(target), mapping=OffsetMapping.WRAP),
                              check_target=True)
    assert job.plan.records.offset_bytes.tolist() == [0, 0]


def test_writing_over_a_file_needs_consent(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "t.csv", [Io(0, True, 0, 4096)])
    target = tmp_path / "data.bin"
    target.write_bytes(bytes(MiB))
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), target=str(target)), check_target=True)
    assert "pass --allow-overwrite" in fields(raised)["allow_overwrite"]


def test_writing_to_a_device_needs_consent_and_its_region_is_the_whole_device(tmp_path: Path) -> None:
    require(loop_unavailable_reason())
    backing = tmp_path / "disk.img"
    backing.write_bytes(bytes(8 * MiB))
    trace = write_msr(tmp_path / "t.csv", [Io(0, True, 0, 4096), Io(5, False, 4096, 4096)])
    with loop_device(backing) as device:
        with pytest.raises(WorkloadError) as raised:
            plan_replay_request(ReplayRequest(trace=str(trace), target=str(device)), check_target=True)
        assert "allow_overwrite" in fields(raised)
        job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(device), allow_overwrite=True),
                                  check_target=True)
        assert job.spec.replay is not None and job.spec.replay.target_bytes == 8 * MiB


def test_an_untimed_trace_as_recorded_is_refused_as_the_timing_field(tmp_path: Path) -> None:
    trace = write_iolog_v2(tmp_path / "t.log", random_ios(4, span_s=1, seed=3), waits=False)
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), target=str(tmp_path)))
    assert "records no time" in fields(raised)["timing"]
    job = plan_replay_request(ReplayRequest(trace=str(trace), target=str(tmp_path), timing=ReplayTiming.FASTEST))
    assert job.plan.expected_s is None


def test_on_hosts_each_host_plays_the_whole_trace_or_its_share_timed_from_the_common_start(tmp_path: Path) -> None:
    ios = [Io(0, False, 0, 4096), Io(1000, True, 8192, 8192), Io(2000, False, 4096, 4096), Io(3000, True, 0, 4096),
           Io(4000, False, 16384, 4096)]
    trace = write_msr(tmp_path / "t.csv", ios)
    whole = plan_replay_request(ReplayRequest(trace=str(trace), hosts=["h1", "h2"], lanes=2))
    assert whole.spec.remote is not None and whole.spec.remote.hosts == ["h1", "h2"]
    assert whole.host_plans["h1"] is whole.host_plans["h2"] is whole.plan
    replay = whole.spec.replay
    assert replay is not None and replay.copies == 2 and [p.recorded for p in replay.parts] == [None, None]
    split = plan_replay_request(ReplayRequest(trace=str(trace), hosts=["h1", "h2"], hosts_mode=HostsMode.SPLIT,
                                              lanes=2))
    assert split.host_plans["h1"].records.time_ns.tolist() == [0, 2_000_000, 4_000_000]
    assert split.host_plans["h2"].records.time_ns.tolist() == [1_000_000, 3_000_000]  # not moved to its own start
    replay = split.spec.replay
    assert replay is not None and replay.copies == 1
    h2 = replay.parts[1]
    assert h2.recorded is not None and (h2.recorded.read_count, h2.recorded.write_count) == (0, 2)
    assert h2.recorded_end_s == 0.003 and replay.parts[0].recorded_end_s == 0.004


def test_a_split_of_fewer_ios_than_hosts_and_a_local_target_on_hosts_are_refused(tmp_path: Path) -> None:
    trace = write_msr(tmp_path / "t.csv", random_ios(3, span_s=1, seed=33))
    with pytest.raises(WorkloadError) as raised:
        plan_replay_request(ReplayRequest(trace=str(trace), hosts=["a", "b", "c", "d"], hosts_mode=HostsMode.SPLIT,
                                          target=str(tmp_path)))
    found = fields(raised)
    assert "cannot be split across 4 hosts" in found["hosts_mode"]
    assert "on hosts give a folder on each" in found["target"]


def test_a_bad_window_is_named_by_its_own_fields_from_and_to_not_as_the_traces_part() -> None:
    from pydantic import ValidationError

    from ssdprof.model.problems import from_validation

    def named(selection: dict[str, object]) -> dict[str, str]:
        with pytest.raises(ValidationError) as raised:
            ReplayRequest.model_validate({"trace": "t.csv", "selection": selection, "lanes": 0})
        return {p.field: p.message for p in from_validation(raised.value, ReplayRequest)}

    # the view's From (s) and To (s) show these beside themselves; 'selection' sat under Disks
    found = named({"start_s": "abc", "end_s": -5})
    assert set(found) == {"start_s", "end_s", "lanes"}, found
    assert found["start_s"].startswith("'abc' is not a number; allowed")
    assert found["end_s"].startswith("-5 is out of range; allowed")
    window = named({"start_s": 60, "end_s": 30})
    assert window["end_s"] == "the window's end (30 s) is not after its start (60 s)", window
