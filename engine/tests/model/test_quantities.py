import pytest

from ssdprof.model.quantities import (
    format_duration,
    format_elapsed,
    format_size,
    parse_count,
    parse_duration_s,
    parse_size_bytes,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("4k", 4096), ("4K", 4096), ("4KiB", 4096), ("128KiB", 131072), ("1MiB", 1 << 20), ("1m", 1 << 20),
    ("256MiB", 256 << 20), ("1GiB", 1 << 30), ("512", 512), ("512B", 512), ("1MB", 10**6), ("4KB", 4000), ("1.5k", 1536),
])
def test_sizes_parse_with_binary_prefixes_and_explicit_decimal_units(text: str, expected: int) -> None:
    assert parse_size_bytes(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "4q", "-4k", "0.3"])
def test_bad_sizes_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(ValueError, match=r"4k|bytes|unit"):
        parse_size_bytes(text)


@pytest.mark.parametrize(("text", "expected"), [("5", 5.0), ("5s", 5.0), ("500ms", 0.5), ("2m", 120.0), ("1h", 3600.0)])
def test_durations_take_seconds_or_units(text: str, expected: float) -> None:
    assert parse_duration_s(text) == expected


def test_bad_duration_names_the_accepted_forms() -> None:
    with pytest.raises(ValueError, match="5s"):
        parse_duration_s("5 parsecs")


@pytest.mark.parametrize(("text", "expected"), [
    ("155000", 155_000.0), ("155k", 155_000.0), ("155K", 155_000.0), ("1.2M", 1_200_000.0),
    (" 45 k ", 45_000.0), ("1e5", 100_000.0), (9.5, 9.5),
])
def test_counts_take_decimal_k_and_m_as_iops_are_written(text: str | float, expected: float) -> None:
    assert parse_count(text) == expected


@pytest.mark.parametrize("text", ["", "abc", "5x", "1.2Mi", "-3k"])
def test_bad_counts_are_refused_with_examples(text: str) -> None:
    with pytest.raises(ValueError, match="155k"):
        parse_count(text)


def test_sizes_and_durations_format_exactly() -> None:
    assert format_size(4096) == "4KiB"
    assert format_size(1536) == "1536B"
    assert format_size(1 << 30) == "1GiB"
    assert format_duration(125) == "2m05s"
    assert format_duration(3725) == "1h02m05s"


def test_a_measured_amount_reads_in_decimal_units_to_three_figures() -> None:
    from ssdprof.model.quantities import format_amount

    assert format_amount(1_200_212 * 1024) == "1.23 GB"
    assert format_amount(64 << 20) == "67.1 MB"
    assert format_amount(512_000) == "512,000 B"
    assert format_amount(3.2e12) == "3.2 TB"


@pytest.mark.parametrize(("seconds", "expected"), [
    (0.4, "0.4s"), (0.0432, "0.043s"), (2.53, "2.5s"), (3.0, "3s"), (14.2, "14s"), (75.0, "1m15s"), (0.0, "0s"),
])
def test_a_measured_time_under_10_s_keeps_two_figures(seconds: float, expected: str) -> None:
    assert format_elapsed(seconds) == expected


@pytest.mark.parametrize(("size", "spelled"), [(4096, "4KiB"), (1536, "1536B"), (10**13, "10TB"), (2 * 10**9, "2GB"),
                                               (3 << 30, "3GiB"), (10**6, "1MB")])
def test_a_size_is_spelled_in_the_largest_unit_that_holds_it_whole_and_reads_back(size: int, spelled: str) -> None:
    assert format_size(size) == spelled and parse_size_bytes(spelled) == size
