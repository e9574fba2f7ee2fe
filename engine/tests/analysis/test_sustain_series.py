"""A sustained write's per-second series (analysis/sustain_series.py): bytes counted over the time
each second's rate covers."""

from __future__ import annotations

from conftest import FIO_DATA

from ssdprof.analysis.sustain_series import samples_of
from ssdprof.model.results import ProgressSample, RunResult
from ssdprof.store.interchange import import_fio_output

MB = 1e6


def write_run(*samples: ProgressSample) -> RunResult:
    """A real fio write run carrying the given per-second samples."""
    run = import_fio_output(FIO_DATA / "fio-3.33_randread_qd1.jsonplus.json")[0]
    return run.model_copy(update={"progress": list(samples)})


def test_the_first_seconds_bytes_are_its_rate_over_the_io_time_it_covers() -> None:
    # fio's first interval: 0.9 s of I/O at 1,000 MB/s (the job's start took the rest) = 900 MB
    run = write_run(ProgressSample(elapsed_s=1.0, interval_s=0.9, write_bw_bytes_per_s=1000 * MB),
                    ProgressSample(elapsed_s=2.0, interval_s=1.0, write_bw_bytes_per_s=800 * MB))
    found = samples_of(run)
    assert [s.bytes_written for s in found] == [900 * MB, 1700 * MB]
    assert found[0].bw_bytes_per_s == 1000 * MB


def test_runs_stored_before_intervals_were_kept_count_whole_seconds() -> None:
    run = write_run(ProgressSample(elapsed_s=1.0, write_bw_bytes_per_s=500 * MB),
                    ProgressSample(elapsed_s=2.0, write_bw_bytes_per_s=500 * MB))
    assert [s.bytes_written for s in samples_of(run)] == [500 * MB, 1000 * MB]
