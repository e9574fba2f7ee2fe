import pytest

from ssdprof.model.workload import Pattern, Workload, WorkloadError, parse_workload


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
    ({"block_size_bytes": 1000}, "block_size_bytes", "multiple of 512"),
    ({"queue_depth": 0}, "queue_depth", "from 1 to 4096"),
    ({"pattern": "randrw", "read_pct": 101}, "read_pct", "0 to 100"),
    ({"pattern": "randrw", "read_pct": -1}, "read_pct", "0 to 100"),
    ({"runtime_s": 0}, "runtime_s", "above 0"),
    ({"runtime_s": "0s"}, "runtime_s", "above 0"),
    ({"pattern": "randomread"}, "pattern", "randread"),
    ({"numjobs": 0}, "numjobs", "from 1 to 256"),
    ({"queue_depth": "lots"}, "queue_depth", "from 1 to 4096"),
    ({"size_bytes": "4q"}, "size_bytes", "256MiB"),
])
def test_each_bad_value_gets_one_message_naming_field_flag_and_range(raw: dict[str, object], field: str, words: str) -> None:
    problems = problems_of(raw)
    assert list(problems) == [field]
    assert words in problems[field]
    assert "(--" in problems[field]


def test_several_bad_values_are_all_reported_at_once() -> None:
    assert set(problems_of({"queue_depth": 0, "numjobs": 0, "block_size_bytes": 100})) == {"queue_depth", "numjobs", "block_size_bytes"}


def test_a_mix_on_a_pure_pattern_is_refused_with_the_fix() -> None:
    problems = problems_of({"pattern": "randread", "read_pct": 70})
    assert "use rw or randrw" in problems["read_pct"]


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
