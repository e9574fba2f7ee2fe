"""Per-second samples from fio's status documents (fio/progress.py), on real fio output with the
instants a slow host gives them: two documents at one instant, a document right at the ramp's
reset."""

from __future__ import annotations

import copy
import math
import subprocess
from pathlib import Path
from typing import Any

from conftest import FIO_DATA, requires_fio

from ssdprof.fio.output import split_documents
from ssdprof.fio.progress import ProgressTracker
from ssdprof.model.histogram import percentile, subtract
from ssdprof.model.results import ProgressSample


def documents(name: str) -> list[dict[str, Any]]:
    found, _ = split_documents((FIO_DATA / name).read_text())
    return found


def samples_of(tracker: ProgressTracker, sequence: list[dict[str, Any]]) -> list[ProgressSample]:
    return [sample for document in sequence for sample in tracker.update(document)]


def finite(sample: ProgressSample) -> bool:
    return all(
        math.isfinite(v)
        for v in (
            sample.read_iops,
            sample.write_iops,
            sample.read_bw_bytes_per_s,
            sample.write_bw_bytes_per_s,
        )
    )


def test_two_status_documents_with_the_same_elapsed_time_give_one_sample_not_a_crash() -> None:
    first, second, *rest = documents("fio-3.33_status_interval.jsonplus.txt")
    again = copy.deepcopy(
        second
    )  # a slow host: the status thread printed twice within one millisecond
    for ramp_s in (0.0, 1.0):
        tracker = ProgressTracker(ramp_s=ramp_s)
        samples = samples_of(tracker, [first, second, again, *rest])
        assert [s.elapsed_s for s in samples] == sorted({s.elapsed_s for s in samples}), (
            "one sample per instant"
        )
        assert len(samples) >= 3
        assert all(finite(s) and s.read_iops >= 0 for s in samples)


def test_a_status_document_right_at_the_end_of_the_ramp_is_skipped_not_divided_by_zero() -> None:
    # Real fio with a 1 s ramp; fio resets its counters when the ramp ends. On a slow host the next
    # document can come before any I/O completed since the reset: counts and runtime at zero.
    sequence = documents("fio-3.33_status_interval_ramp.jsonplus.txt")
    at_reset = copy.deepcopy(sequence[1])
    at_reset["timestamp_ms"] = sequence[0]["timestamp_ms"] + 500
    for job in at_reset["jobs"]:
        for direction in ("read", "write", "trim"):
            stats = job[direction]
            stats.update(
                io_bytes=0, io_kbytes=0, total_ios=0, runtime=0, bw=0, bw_bytes=0, iops=0.0
            )
            for latency in ("lat_ns", "clat_ns", "slat_ns"):
                stats[latency] = {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}
    tracker = ProgressTracker(ramp_s=1)
    samples = samples_of(tracker, [sequence[0], at_reset, *sequence[1:]])
    assert all(finite(s) for s in samples)
    assert [s for s in samples if not s.ramping], (
        "the seconds measured after the reset are still sampled"
    )


def test_the_first_second_is_a_rate_over_fios_io_time_not_the_whole_second() -> None:
    # Real fio: its first status document counts 17,336 reads in 897 ms of I/O, the job's start
    # taking the rest of the second. Over the whole second that read 10 % low beside the run.
    first, *rest = documents("fio-3.33_status_interval.jsonplus.txt")
    samples = samples_of(ProgressTracker(ramp_s=0.0), [first, *rest])
    assert samples[0].elapsed_s == 1.0 and samples[0].interval_s == 0.897
    assert math.isclose(samples[0].read_iops, 17_336 / 0.897, rel_tol=1e-6)
    assert samples[1].interval_s is not None and math.isclose(samples[1].interval_s, 1.0, abs_tol=0.01)
    assert math.isclose(samples[1].read_iops, (34_429 - 17_336) / samples[1].interval_s, rel_tol=1e-6)


@requires_fio
def test_each_seconds_latency_of_a_mixed_run_is_of_all_its_ios_as_fio_itself_counts_them(tmp_path: Path) -> None:
    # fio's unified_rw_reporting=both prints, beside read and write, its own "mixed": its bins over each
    # interval are the reads' and writes' together, what a second's p99 of all I/Os is read from.
    done = subprocess.run(
        ["fio", "--name=mix", f"--filename={tmp_path / 'f'}", "--size=16M", "--rw=randrw", "--rwmixread=70",
         "--bs=4k", "--iodepth=4", "--direct=1", "--runtime=3", "--time_based", "--lat_percentiles=1",
         "--unified_rw_reporting=both", "--status-interval=1", "--output-format=json+"],
        capture_output=True, text=True, check=True)
    sequence, _ = split_documents(done.stdout)
    tracker = ProgressTracker()
    earlier: dict[int, int] = {}
    checked = 0
    for document in sequence:
        mixed = {int(v): c for v, c in document["jobs"][0]["mixed"]["lat_ns"].get("bins", {}).items()}
        for sample in tracker.update(document):
            p99 = percentile(subtract(mixed, earlier), 99)
            assert sample.lat_ns_p99 == p99 and sample.read_lat_ns_p99 is not None and sample.write_lat_ns_p99 is not None
            assert min(sample.read_lat_ns_p99, sample.write_lat_ns_p99) <= p99 <= max(sample.read_lat_ns_p99,
                                                                                     sample.write_lat_ns_p99)
            checked += 1
        earlier = mixed
    assert checked >= 2


@requires_fio
def test_a_write_shorter_than_a_second_is_a_rate_over_its_own_io_time(tmp_path: Path) -> None:
    # A 32 MiB recovery write ends in a few ms on a fast disk: fio's one document counts it all. Over
    # the whole second it read 33.5 MB/s in the sustained-write chart beside its 1,118 MB/s.
    done = subprocess.run(
        ["fio", "--name=short", f"--filename={tmp_path / 'f'}", "--size=32M", "--io_size=32M", "--rw=write",
         "--bs=1M", "--iodepth=4", "--status-interval=1", "--output-format=json+"],
        capture_output=True, text=True, check=True)
    sequence, _ = split_documents(done.stdout)
    (sample,) = samples_of(ProgressTracker(), sequence)
    write = sequence[-1]["jobs"][0]["write"]
    io_s = write["runtime"] / 1000
    assert io_s < 0.25, "the write ran long enough here to be sampled as before; it tests nothing"
    assert sample.interval_s == round(io_s, 3)
    assert math.isclose(sample.write_bw_bytes_per_s, write["io_bytes"] / sample.interval_s, rel_tol=1e-6)
