"""The cliff detector on synthetic per-second series (a cliff, none, two, noise, a dip,
throttling) and on real ones recorded on the lab node (tests/data/sustain/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ssdprof.analysis.sustain import confidence_of, detect
from ssdprof.analysis.sustain_series import GIB, fast_part, io_began_s, per_gib
from ssdprof.model.sustain_results import SustainSample, SustainThrottle


def series(bw: np.ndarray) -> list[SustainSample]:
    written = np.cumsum(bw)
    return [SustainSample(elapsed_s=i + 1.0, bytes_written=int(w), bw_bytes_per_s=float(b))
            for i, (b, w) in enumerate(zip(bw, written, strict=True))]


rng = np.random.default_rng(27)


def test_a_cache_cliff_is_placed_at_the_bytes_written_before_it_with_both_speeds() -> None:
    bw = np.r_[rng.normal(3e9, 1e8, 40), rng.normal(5e8, 5e7, 200)]
    found = detect(series(bw))
    assert found.verdict.kind == "cliff"
    assert found.verdict.cache_bytes == pytest.approx(bw[:40].sum(), rel=0.02)
    assert found.verdict.before_bw_bytes_per_s == pytest.approx(3e9, rel=0.02)
    assert found.verdict.after_bw_bytes_per_s == pytest.approx(5e8, rel=0.02)
    assert found.verdict.confidence_words == "high"
    assert [p.name for p in found.phases] == ["cache", "after the cache"]


def test_a_steady_series_is_no_cliff_and_never_forced_into_one() -> None:
    found = detect(series(rng.normal(1e9, 8e7, 300)))
    assert found.verdict.kind == "no_cliff"
    assert found.verdict.cache_bytes is None
    assert len(found.phases) == 1


def test_heavy_tailed_noise_without_a_change_is_no_cliff() -> None:
    found = detect(series(np.abs(rng.standard_t(2, 400) * 1e8 + 1e9)))
    assert found.verdict.kind == "no_cliff"


def test_two_cliffs_give_three_phases_and_the_cache_is_the_first() -> None:
    bw = np.r_[rng.normal(3e9, 1e8, 30), rng.normal(1.2e9, 6e7, 60), rng.normal(2e8, 2e7, 100)]
    found = detect(series(bw))
    assert [p.name for p in found.phases] == ["cache", "after the cache", "after the second drop"]
    assert len(found.verdict.drops) == 2
    assert found.verdict.cache_bytes == pytest.approx(bw[:30].sum(), rel=0.02)
    assert found.verdict.sustained_bw_bytes_per_s == pytest.approx(2e8, rel=0.03)


def test_a_short_dip_between_alike_phases_is_not_a_cliff() -> None:
    bw = np.r_[rng.normal(2e9, 1e8, 50), rng.normal(5e8, 1e7, 3), rng.normal(2e9, 1e8, 60)]
    assert detect(series(bw)).verdict.kind == "no_cliff"


def test_a_small_change_under_a_fifth_is_one_phase() -> None:
    bw = np.r_[rng.normal(1e9, 2e7, 100), rng.normal(0.9e9, 2e7, 100)]
    assert detect(series(bw)).verdict.kind == "no_cliff"


def test_a_drop_while_the_drive_throttled_is_named_throttling_not_a_cache() -> None:
    bw = np.r_[rng.normal(3e9, 1e8, 40), rng.normal(5e8, 5e7, 100)]
    throttle = SustainThrottle(throttled_s=90, transitions=1, overlaps_drop=True, text="the drive reported throttled 90 s")
    found = detect(series(bw), throttle)
    assert found.verdict.kind == "throttling"
    assert found.verdict.cache_bytes is None
    assert "not a cache cliff" in found.verdict.sentence


def test_a_long_series_is_segmented_to_the_second() -> None:
    bw = np.r_[rng.normal(3e9, 2e8, 600), rng.normal(5e8, 8e7, 5400)]
    found = detect(series(bw))
    assert found.verdict.drops[0].at_s == pytest.approx(600, abs=1.5)


def test_too_few_seconds_are_not_judged() -> None:
    assert detect(series(np.full(5, 1e9))).verdict.kind == "too_short"


def test_confidence_grows_with_the_separation_of_the_phases() -> None:
    assert confidence_of(1.0)[1] == "low"
    assert confidence_of(3.0)[1] == "moderate"
    assert confidence_of(5.0)[1] == "high"
    assert confidence_of(2.0)[0] < confidence_of(4.0)[0] < confidence_of(6.0)[0] <= 1


def test_per_gib_speeds_are_each_gib_over_the_time_it_took() -> None:
    bw = np.r_[np.full(4, GIB / 2), np.full(4, GIB / 4)]
    gibs = per_gib(series(bw))
    assert [g.gib for g in gibs] == [1, 2, 3]
    assert gibs[0].bw_bytes_per_s == pytest.approx(GIB / 2)
    assert gibs[2].bw_bytes_per_s == pytest.approx(GIB / 4)


LAB_DATA = Path(__file__).parents[1] / "data" / "sustain"


@pytest.mark.parametrize("name", ["lab_throttled_fill.json", "lab_throttled_fill_fast.json"])
def test_a_real_fill_on_the_lab_nodes_throttled_disk_has_its_cliff_where_qemu_lowered_the_limit(
        name: str) -> None:
    kept = json.loads((LAB_DATA / name).read_text())
    lowered = next(c for c in kept["changes"] if c["change"] == "lowered")
    found = detect([SustainSample(**s) for s in kept["fill"]])
    assert found.verdict.kind == "cliff" and found.verdict.confidence_words == "high"
    # the limit changed between two reads of QEMU's counter: the cliff lies within 1 % of them
    cache = found.verdict.cache_bytes
    assert cache is not None
    assert lowered["bytes_before"] * 0.99 <= cache <= lowered["bytes_after"] * 1.01
    # each phase's speed is its bytes over its time, its ends at the drop placed within its second
    cache_phase, after = found.phases
    assert found.verdict.before_bw_bytes_per_s == cache_phase.bytes_written / cache_phase.duration_s
    assert found.verdict.after_bw_bytes_per_s == after.bytes_written / after.duration_s
    assert (cache_phase.start_bytes + cache_phase.bytes_written, cache_phase.end_s) == (cache, after.start_s)
    assert found.verdict.after_bw_bytes_per_s == pytest.approx(kept["low_bytes_per_s"], rel=0.01)
    # these fills were kept before fio's first interval was: the cache phase's time holds the job's
    # start, the part of its first second that wrote nothing at the limit's rate
    start_s = 1 - kept["fill"][0]["bytes_written"] / kept["high_bytes_per_s"]
    running = cache_phase.bytes_written / (cache_phase.duration_s - start_s)
    assert running == pytest.approx(kept["high_bytes_per_s"], rel=0.01)
    assert [p.name for p in found.phases] == ["cache", "after the cache"]


def test_a_real_recovery_writes_at_the_fills_fast_speed_from_its_first_io_to_the_second_lowering() -> None:
    """The lab run's recovery wrote nothing in its first second (the job's start over SSH on TCG):
    its fast part's speed is its bytes over the time from its first I/O, as the fill's phases count
    theirs, not from the job's start (that read 94 MB/s for a 100 MB/s limit in CI)."""
    kept = json.loads((LAB_DATA / "lab_throttled_fill.json").read_text())
    samples = [SustainSample(**s) for s in kept["recovery_samples"]]
    assert samples[0].bytes_written == 0
    fill = detect([SustainSample(**s) for s in kept["fill"]]).verdict
    assert fill.before_bw_bytes_per_s is not None and fill.after_bw_bytes_per_s is not None
    lowered = next(c for c in kept["changes"] if c["change"] == "lowered again")
    recovered, fast_s = fast_part(samples, fill.before_bw_bytes_per_s, fill.after_bw_bytes_per_s,
                                  written=kept["recovery"]["bytes_written"], seconds=kept["recovery"]["seconds"])
    assert lowered["bytes_before"] * 0.99 <= recovered <= lowered["bytes_after"] * 1.01
    assert recovered / fast_s == pytest.approx(kept["high_bytes_per_s"], rel=0.03)
    assert io_began_s(samples) == samples[0].elapsed_s


def test_io_begins_within_the_first_second_that_wrote_where_fio_gave_its_interval() -> None:
    quiet = SustainSample(elapsed_s=1.0, bytes_written=0, bw_bytes_per_s=0.0)
    wrote = SustainSample(elapsed_s=2.0, bytes_written=50, bw_bytes_per_s=100.0, interval_s=0.5)
    assert io_began_s([quiet, wrote]) == 1.5
    assert io_began_s([wrote.model_copy(update={"elapsed_s": 1.0, "interval_s": 0.25})]) == 0.75
    assert io_began_s([wrote.model_copy(update={"interval_s": None})]) == 0.0
