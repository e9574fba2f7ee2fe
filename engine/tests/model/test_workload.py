import pytest

from ssdprof.model.workload import FIELD_RULES, EngineChoice, Pattern, Workload, WorkloadError, check_workload, parse_workload


def problems_of(raw: dict[str, object]) -> dict[str, str]:
    with pytest.raises(WorkloadError) as caught:
        parse_workload(raw)
    return {p.field: str(p) for p in caught.value.problems}


def test_defaults_are_a_4k_random_read_at_qd1() -> None:
    workload = parse_workload({})
    assert (workload.pattern, workload.block_size_bytes, workload.queue_depth, workload.read_pct) == (Pattern.RANDREAD, 4096, 1, 100)
    assert workload.direct


def test_units_are_converted_once_at_the_boundary() -> None:
    workload = parse_workload({"block_size_bytes": "128KiB", "size_bytes": "1GiB", "runtime_s": "2m", "ramp_s": "5s"})
    assert (workload.block_size_bytes, workload.size_bytes, workload.runtime_s, workload.ramp_s) == (131072, 1 << 30, 120.0, 5.0)


@pytest.mark.parametrize(("raw", "field", "words"), [
    ({"block_size_bytes": 1000}, "block_size_bytes", "1000 bytes is not a multiple of 512 bytes; allowed 512B to 64MiB"),
    ({"queue_depth": 0}, "queue_depth", "queue depth (--qd): 0 is out of range; allowed 1–4096, e.g. 32"),
    ({"pattern": "randrw", "read_pct": 101}, "read_pct", "101 is out of range; allowed 0 to 100 % reads"),
    ({"pattern": "randrw", "read_pct": -1}, "read_pct", "-1 is out of range"),
    ({"runtime_s": 0}, "runtime_s", "0 is out of range; allowed above 0 s"),
    ({"runtime_s": "0s"}, "runtime_s", "0 is out of range; allowed above 0 s"),
    ({"pattern": "randomread"}, "pattern", "'randomread' is not one of the choices; allowed randread, randwrite"),
    ({"numjobs": 0}, "numjobs", "jobs (--jobs): 0 is out of range; allowed 1–256, e.g. 4"),
    ({"queue_depth": "lots"}, "queue_depth", "'lots' is not a whole number; allowed 1–4096"),
    ({"size_bytes": "4q"}, "size_bytes", "e.g. 1GiB"),
    ({"engine": "fiio"}, "engine", "engine (--engine): 'fiio' is not one of the choices; allowed auto, fio or portable"),
])
def test_each_bad_value_gets_one_message_naming_field_flag_value_range_and_example(
        raw: dict[str, object], field: str, words: str) -> None:
    problems = problems_of(raw)
    assert list(problems) == [field]
    assert words in problems[field]
    assert "(--" in problems[field]
    assert "Input should" not in problems[field]


def test_several_bad_values_are_all_reported_at_once() -> None:
    assert set(problems_of({"queue_depth": 0, "numjobs": 0, "block_size_bytes": 100})) == {"queue_depth", "numjobs", "block_size_bytes"}


def test_a_value_that_is_not_a_size_does_not_hide_the_other_bad_fields() -> None:
    assert set(problems_of({"block_size_bytes": "4kk", "queue_depth": 0, "engine": "fiio"})) == {
        "block_size_bytes", "queue_depth", "engine"}


def test_the_nearest_good_workload_keeps_the_good_fields_for_the_target_check() -> None:
    checked = check_workload({"block_size_bytes": "4kk", "queue_depth": 0, "target": "/x", "size_bytes": "1GiB"})
    assert checked.workload is None
    assert (checked.nearest.target, checked.nearest.size_bytes, checked.nearest.queue_depth) == ("/x", 1 << 30, 1)


def test_engines_and_patterns_are_offered_as_lists_with_display_names() -> None:
    engines = {c.value: c.label for c in FIELD_RULES["engine"].choices}
    patterns = [c.value for c in FIELD_RULES["pattern"].choices]
    assert set(engines) == {e.value for e in EngineChoice} and engines["portable"].startswith("portable")
    assert sorted(patterns) == sorted(p.value for p in Pattern) and patterns[0] == "randread"
    assert FIELD_RULES["pattern"].choices[0].label == "random read"


def test_a_mix_on_a_pure_pattern_is_refused_with_the_fix() -> None:
    problems = problems_of({"pattern": "randread", "read_pct": 70})
    assert "use rw or randrw" in problems["read_pct"] and problems["read_pct"].startswith("read share (--read-pct): 70")


def test_pure_patterns_fix_the_mix_and_mixed_patterns_default_to_fifty_percent() -> None:
    assert parse_workload({"pattern": "write"}).read_pct == 0
    assert parse_workload({"pattern": "randrw"}).read_pct == 50
    base = parse_workload({"pattern": "randrw", "read_pct": 70})
    assert parse_workload({"block_size_bytes": "8k"}, base=base).read_pct == 70
    assert parse_workload({"pattern": "read"}, base=base).read_pct == 100


def test_unknown_fields_are_named() -> None:
    assert "known fields" in problems_of({"iodepth": 4})["iodepth"]


def test_size_must_hold_a_block_per_job() -> None:
    assert "smaller than one block per job" in problems_of({"size_bytes": 4096, "numjobs": 2})["size_bytes"]


def test_workload_key_ignores_cleanup_options_but_not_settings() -> None:
    a = Workload()
    assert a.key() == a.model_copy(update={"keep_file": True}).key()
    assert a.key() != a.model_copy(update={"queue_depth": 2}).key()


def test_label_reads_like_the_literature() -> None:
    assert parse_workload({"pattern": "randrw", "read_pct": 70, "queue_depth": 32}).label == "randrw 70%R 4KiB QD32 T1"
