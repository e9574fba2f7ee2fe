"""A replay read back beside its trace: the timing in words, IOPS on the trace's own steps."""

from pathlib import Path

from trace_files import Io, write_msr

from ssdprof.analysis.replay import replay_result
from ssdprof.model.replay import IssueTiming, OffsetMapping, ReplaySpec, ReplayTiming
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
