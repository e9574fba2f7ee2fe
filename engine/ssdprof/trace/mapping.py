"""A trace's offsets laid onto a target of a given size: kept as recorded where the trace fits; otherwise refused,
or (when chosen) wrapped modulo the target or scaled in proportion onto it, and said. Direct I/O needs each
offset and size to be a multiple of the target's logical block: an I/O that is not is named."""

from __future__ import annotations

import numpy as np

from ssdprof.model.quantities import format_amount, format_size
from ssdprof.model.replay import OffsetMapping
from ssdprof.model.trace import TraceError
from ssdprof.trace.records import TraceRecords

__all__ = ["ReplayRefused", "map_offsets"]


class ReplayRefused(TraceError):
    """A trace that cannot be replayed on this target as asked, and what would let it; ``about`` names the
    choice that would: mapping (wrap or scale), timing, direct (buffered I/O) or target (a larger one)."""

    def __init__(self, message: str, *, about: str):
        super().__init__(message)
        self.about = about


def map_offsets(records: TraceRecords, target_bytes: int, mapping: OffsetMapping, *, align_bytes: int | None) -> TraceRecords:
    """The I/Os with offsets that fit ``target_bytes``; ``align_bytes`` is direct I/O's block (None: buffered)."""
    largest = int(records.size_bytes.max())
    if largest > target_bytes:
        raise ReplayRefused(f"its largest I/O ({format_size(largest)}) is larger than the target "
                            f"({format_size(target_bytes)})", about="target")
    end = int((records.offset_bytes + records.size_bytes).max())
    if end <= target_bytes:
        if align_bytes is not None:
            _check_aligned(records, align_bytes)
        return records
    if mapping is OffsetMapping.EXACT:
        raise ReplayRefused(f"the trace reaches {format_amount(end)} into its disk and the target holds "
                            f"{format_amount(target_bytes)}: choose wrap (offsets modulo the target) or scale (offsets "
                            f"× {target_bytes / end:.3g}), or a larger target", about="mapping")
    step = align_bytes or 1
    if mapping is OffsetMapping.WRAP:
        offsets = records.offset_bytes % target_bytes
        note = f"offsets wrapped modulo the target's {format_amount(target_bytes)} (the trace reaches {format_amount(end)})"
    else:
        offsets = (records.offset_bytes * (target_bytes / end)).astype(np.int64)
        note = (f"offsets scaled by {target_bytes / end:.4g}: the trace's {format_amount(end)} onto the target's "
                f"{format_amount(target_bytes)}")
    offsets = offsets // step * step
    over = offsets + records.size_bytes > target_bytes
    if bool(over.any()):  # an I/O that would cross the end ends at the target's (last aligned) end instead
        offsets = np.where(over, (target_bytes - records.size_bytes) // step * step, offsets)
        note += f"; {int(over.sum())} I/O{'s' if int(over.sum()) != 1 else ''} crossing the end moved back to fit"
    mapped = records.with_offsets(offsets, note=note)
    if align_bytes is not None:
        _check_aligned(mapped, align_bytes)
    return mapped


def _check_aligned(records: TraceRecords, align_bytes: int) -> None:
    bad = (records.offset_bytes % align_bytes != 0) | (records.size_bytes % align_bytes != 0)
    if not bool(bad.any()):
        return
    first = int(np.argmax(bad))
    where = records.format.position_word
    raise ReplayRefused(
        f"{int(bad.sum())} I/O{'s are' if int(bad.sum()) != 1 else ' is'} not aligned to the target's {align_bytes}-byte "
        f"block (first: {where} {int(records.line[first])}, offset {int(records.offset_bytes[first])}, "
        f"{int(records.size_bytes[first])} bytes); direct I/O needs aligned I/O: replay buffered instead", about="direct")
