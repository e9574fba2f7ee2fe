"""A trace's offsets laid on the target: kept, refused, wrapped or scaled, and said."""

import pytest

from ssdprof.model.replay import OffsetMapping
from ssdprof.trace.mapping import ReplayRefused, map_offsets
from ssdprof.trace.msr import read_msr

MiB = 1 << 20


def trace(*ios: tuple[int, int]):  # type: ignore[no-untyped-def]
    return read_msr([f"{128166372003061629 + i},hm,0,Read,{offset},{size},10" for i, (offset, size) in enumerate(ios)],
                    "t.csv")


def test_a_trace_that_fits_keeps_its_offsets() -> None:
    records = trace((0, 4096), (MiB - 4096, 4096))
    assert map_offsets(records, MiB, OffsetMapping.EXACT, align_bytes=512) is records


def test_a_trace_beyond_the_target_is_refused_unless_wrapped_or_scaled() -> None:
    with pytest.raises(ReplayRefused, match=r"reaches 4\.19 MB .* holds 1\.05 MB: choose wrap .* or scale .*× 0\.25"):
        map_offsets(trace((0, 4096), (4 * MiB - 4096, 4096)), MiB, OffsetMapping.EXACT, align_bytes=512)


def test_wrapped_offsets_are_taken_modulo_the_target() -> None:
    mapped = map_offsets(trace((0, 4096), (MiB + 8192, 4096), (3 * MiB + 4096, 8192)), MiB, OffsetMapping.WRAP,
                         align_bytes=512)
    assert mapped.offset_bytes.tolist() == [0, 8192, 4096]
    assert "wrapped modulo the target's 1.05 MB" in mapped.notes[-1]


def test_scaled_offsets_shrink_in_proportion_and_stay_aligned() -> None:
    mapped = map_offsets(trace((0, 4096), (2 * MiB, 4096), (4 * MiB - 4096, 4096)), MiB, OffsetMapping.SCALE,
                         align_bytes=4096)
    assert mapped.offset_bytes.tolist() == [0, MiB // 2, MiB - 4096]
    assert "scaled by 0.25" in mapped.notes[-1]


def test_an_io_crossing_the_end_after_mapping_is_moved_back_to_fit() -> None:
    mapped = map_offsets(trace((MiB - 4096, 65536), (0, 4096)), MiB, OffsetMapping.WRAP, align_bytes=512)
    assert mapped.offset_bytes.tolist() == [MiB - 65536, 0]
    assert "1 I/O crossing the end moved back to fit" in mapped.notes[-1]


def test_an_io_larger_than_the_target_is_refused() -> None:
    with pytest.raises(ReplayRefused, match=r"largest I/O .*is larger than the target"):
        map_offsets(trace((0, 2 * MiB)), MiB, OffsetMapping.WRAP, align_bytes=512)


def test_unaligned_ios_are_refused_for_direct_io_naming_the_first() -> None:
    with pytest.raises(ReplayRefused, match=r"2 I/Os are not aligned to the target's 4096-byte block \(first: line 2, "
                                            r"offset 512, 4096 bytes\)"):
        map_offsets(trace((0, 4096), (512, 4096), (8192, 1024)), MiB, OffsetMapping.EXACT, align_bytes=4096)
    assert len(map_offsets(trace((512, 4096)), MiB, OffsetMapping.EXACT, align_bytes=None)) == 1  # buffered
