"""A replay read back beside its trace: the timing in words, IOPS on the trace's own steps."""

from pathlib import Path

from trace_files import Io, write_msr

from ssdprof.analysis.replay import replay_result
from ssdprof.model.direction import DirectionStats
from ssdprof.model.replay import IssueTiming, OffsetMapping, ReplaySpec, ReplayTiming
from ssdprof.model.results import EngineInfo, RunResult
from ssdprof.model.workload import Workload
from ssdprof.trace.describe import describe
from ssdprof.trace.reader import load_trace


def spec(tmp_path: Path, timing: ReplayTiming, issued: IssueTiming | None = None) -> ReplaySpec:
    trace = write_msr(tmp_path / "t.csv", [Io(0, False, 0, 4096, 100), Io(500_000, True, 4096, 4096, 200),
                                           Io(1_500_000, False, 8192, 4096, 300), Io(2_000_000, False, 0, 4096, 400)])
    return ReplaySpec(trace_path=str(trace), trace_sha256="0" * 64, timing=timing, lanes=4, mapping=OffsetMapping.EXACT,
                      target_bytes=1 << 20, recorded=describe(load_trace(trace)), issued=issued)


def test_a_replay_not_run_yet_says_so_and_keeps_the_recorded_side(tmp_path: Path) -> None:
    result = replay_result(replay_id=1, created_at="", name="r", status="running", spec=spec(tmp_path, ReplayTiming.AS_RECORDED),
                           target="/tmp", run=None)
    assert result.timing_sentence == "not replayed yet" and result.replayed_span_s is None
    assert [(r.recorded_read_iops, r.replayed_read_iops) for r in result.rates] == [(1.0, None), (1.0, None), (1.0, None)]
    assert result.latency[0].recorded_count == 3 and result.latency[0].recorded_mean_ns == 266_666.6666666667


def test_issued_ios_are_counted_on_the_trace_steps_and_lateness_said(tmp_path: Path) -> None:
    issued = IssueTiming(issued=4, step_s=1, reads_per_step=[1, 0, 2], writes_per_step=[1, 0, 0], late_p50_ms=1.0,
                         late_p99_ms=12.0, late_max_ms=14.0, late_count=1)
    result = replay_result(replay_id=1, created_at="", name="r", status="done",
                           spec=spec(tmp_path, ReplayTiming.AS_RECORDED, issued), target="/tmp", run=None)
    assert [(r.replayed_read_iops, r.replayed_write_iops) for r in result.rates] == [(1.0, 1.0), (0.0, 0.0), (2.0, 0.0)]


def ran_for(span_ms: int, engine: str = "fio") -> RunResult:
    """A finished replay's run: its reads took ``span_ms`` (the test trace spans 2,000 ms)."""
    return RunResult(engine=EngineInfo(name=engine), workload=Workload(),
                     read=DirectionStats(io_count=3, runtime_ms=span_ms), write=DirectionStats(io_count=1, runtime_ms=span_ms))


def late(over_10ms: int, over_1ms: int | None, p99_ms: float) -> IssueTiming:
    return IssueTiming(issued=200, step_s=1, reads_per_step=[100, 100], writes_per_step=[0, 0], late_p50_ms=0.0,
                       late_p99_ms=p99_ms, late_max_ms=p99_ms, late_count=over_10ms, late_1ms_count=over_1ms)


def test_a_replay_on_time_overall_but_with_most_ios_issued_late_did_not_keep_the_recorded_timing(tmp_path: Path) -> None:
    result = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp", run=ran_for(2_060),
                           spec=spec(tmp_path, ReplayTiming.AS_RECORDED, late(over_10ms=145, over_1ms=190, p99_ms=86.0)))
    assert result.span_change_pct == 3.0000000000000027 and result.timing_kept is False
    assert (result.late_over_10ms_pct, result.late_over_1ms_pct, result.late_p99_ms) == (72.5, 95.0, 86.0)
    assert "kept the recorded timing" not in result.timing_sentence
    assert ("(+3.0 %): but the replay fell behind the recorded timing with at most 4 I/Os in flight"
            in result.timing_sentence)
    assert result.timing_sentence.endswith("72.5 % of I/Os were issued more than 10 ms after their recorded time, "
                                           "95.0 % more than 1 ms; 99 % within 86 ms")
    assert "fio's read_iolog waits out each I/O's gap from its lane's previous issue" in result.timing_sentence


def test_a_replay_whose_ios_were_issued_within_10_ms_kept_the_recorded_timing_and_says_how_late(tmp_path: Path) -> None:
    result = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp",
                           run=ran_for(2_000, engine="portable"),
                           spec=spec(tmp_path, ReplayTiming.AS_RECORDED, late(over_10ms=1, over_1ms=9, p99_ms=5.0)))
    assert result.timing_kept is True and (result.late_over_10ms_pct, result.late_over_1ms_pct) == (0.5, 4.5)
    assert result.timing_sentence == ("replayed in 2 s of the trace's 2 s (+0.0 %): the target kept the recorded "
                                      "timing: 0.5 % of I/Os were issued more than 10 ms after their recorded time, "
                                      "4.5 % more than 1 ms; 99 % within 5 ms")


def test_a_replay_without_an_issue_log_is_judged_by_its_span_and_says_so(tmp_path: Path) -> None:
    result = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp", run=ran_for(2_060),
                           spec=spec(tmp_path, ReplayTiming.AS_RECORDED))
    assert result.timing_kept is True and result.late_over_10ms_pct is None
    assert result.timing_sentence.endswith("the target kept the recorded timing (judged by the span only: no per-I/O "
                                           "issue times were logged)")


def test_a_replay_as_fast_as_possible_is_not_judged_for_timing(tmp_path: Path) -> None:
    result = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp", run=ran_for(500),
                           spec=spec(tmp_path, ReplayTiming.FASTEST))
    assert result.timing_kept is None and result.timing_sentence.startswith("replayed as fast as possible in 0.5 s")


def test_a_trace_without_recorded_latency_counts_its_ios_and_says_their_latency_was_not_recorded(tmp_path: Path) -> None:
    trace = tmp_path / "t.iolog"
    trace.write_text("fio version 3 iolog\n0 d add\n0 d open\n1000 d read 0 4096\n2000 d read 4096 4096\n"
                     "3000 d write 8192 4096\n4000 d close\n")
    timed = spec(tmp_path, ReplayTiming.AS_RECORDED).model_copy(update={"recorded": describe(load_trace(trace))})
    read, write = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp", run=None,
                                spec=timed).latency
    assert (read.trace_count, read.recorded_count, read.recorded_p50_ns) == (2, 0, None)
    assert read.recorded_said == "the trace records no latency for its 2 reads"
    assert (write.trace_count, write.recorded_said) == (1, "the trace records no latency for its 1 write")


def test_a_trace_with_every_latency_recorded_says_nothing_more(tmp_path: Path) -> None:
    read = replay_result(replay_id=1, created_at="", name="r", status="done", target="/tmp", run=None,
                         spec=spec(tmp_path, ReplayTiming.AS_RECORDED)).latency[0]
    assert (read.trace_count, read.recorded_count, read.recorded_said) == (3, 3, "")
