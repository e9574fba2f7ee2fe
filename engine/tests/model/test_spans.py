"""The span each per-second sample covers: one rule, answered in the run's own document."""

from __future__ import annotations

from ssdprof.model.results import EngineInfo, ProgressSample, RunResult
from ssdprof.model.workload import Workload


def spans(*samples: ProgressSample) -> list[tuple[str, float | None, float]]:
    run = RunResult(engine=EngineInfo(name="fio"), workload=Workload(), progress=list(samples))
    return [(s.host, s.start_s, s.elapsed_s) for s in run.progress]


def test_fio_s_short_first_interval_begins_its_io_time_before_its_end() -> None:
    assert spans(ProgressSample(elapsed_s=1.0, interval_s=0.897), ProgressSample(elapsed_s=2.0, interval_s=1.0)) == [
        ("local", 0.103, 1.0), ("local", 1.0, 2.0)]


def test_a_sample_without_a_recorded_interval_covers_the_time_since_the_previous_one() -> None:
    assert spans(ProgressSample(elapsed_s=1.0), ProgressSample(elapsed_s=3.5)) == [
        ("local", 0.0, 1.0), ("local", 1.0, 3.5)]


def test_an_interval_longer_than_the_gap_begins_where_the_previous_sample_ended() -> None:
    assert spans(ProgressSample(elapsed_s=1.0, interval_s=1.0), ProgressSample(elapsed_s=1.5, interval_s=1.0))[1] == (
        "local", 1.0, 1.5)


def test_each_host_s_samples_are_spanned_on_their_own() -> None:
    found = spans(ProgressSample(elapsed_s=1.0, host="a"), ProgressSample(elapsed_s=1.1, host="b"),
                  ProgressSample(elapsed_s=2.0, host="a"), ProgressSample(elapsed_s=2.1, host="b"))
    assert found == [("a", 0.0, 1.0), ("b", 0.0, 1.1), ("a", 1.0, 2.0), ("b", 1.1, 2.1)]


def test_a_stored_start_is_kept_as_recorded() -> None:
    assert spans(ProgressSample(elapsed_s=1.0, interval_s=0.5, start_s=0.25)) == [("local", 0.25, 1.0)]
