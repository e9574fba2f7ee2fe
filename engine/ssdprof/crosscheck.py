"""Unit cross-checks on imported figures: bandwidth must equal IOPS x access size.

The classic unit trap (fio's ``bw`` is KiB/s; tools divide by 1000 and print "MB/s"; a datasheet
says MB/s but means MiB/s) shows as a bandwidth 2.4 %, 4.9 % or 7.4 % away from what the IOPS
and the access size imply. Where all three figures are present, a bandwidth that matches the
other member of its unit pair (MB/s vs MiB/s, KB/s vs KiB/s, GB/s vs GiB/s) within 1 %, and not
its own, is read as that unit and said so; one that matches neither within 5 % is kept as given
and said so with both figures. Nothing is changed silently.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MATCH_TOLERANCE", "MISMATCH_TOLERANCE", "UNIT_BYTES", "BandwidthCheck", "check_bandwidth", "unit_label"]

MATCH_TOLERANCE = 0.01
"""A bandwidth within 1 % of IOPS x access size matches (figures in tables are rounded)."""
MISMATCH_TOLERANCE = 0.05
"""Beyond 5 % the figures contradict each other."""

UNIT_BYTES = {"b/s": 1.0, "kb/s": 1e3, "kib/s": 1024.0, "mb/s": 1e6, "mib/s": 1048576.0, "gb/s": 1e9, "gib/s": float(1 << 30)}
_OTHER = {"kb/s": "kib/s", "kib/s": "kb/s", "mb/s": "mib/s", "mib/s": "mb/s", "gb/s": "gib/s", "gib/s": "gb/s"}
_LABELS = {"b/s": "B/s", "kb/s": "KB/s", "kib/s": "KiB/s", "mb/s": "MB/s", "mib/s": "MiB/s", "gb/s": "GB/s", "gib/s": "GiB/s"}


@dataclass(frozen=True)
class BandwidthCheck:
    bw_bytes_per_s: float
    """The bandwidth as it will be stored: in the unit that matched, else as given."""
    unit: str
    """The unit the value was read in (a key of UNIT_BYTES)."""
    verdict: str
    """``match``, ``reinterpreted`` (read as the other unit of its pair), ``mismatch`` or ``unchecked``."""
    implied_bytes_per_s: float | None = None

    def message(self, where: str, given_unit: str) -> str | None:
        """What to tell the user about ``where`` (e.g. "table.csv row 3, read"), or None."""
        implied = self.implied_bytes_per_s or 0.0
        if self.verdict == "reinterpreted":
            return (f"{where}: bandwidth labelled {unit_label(given_unit)} matches IOPS x access size "
                    f"({implied / UNIT_BYTES[self.unit]:,.1f} {unit_label(self.unit)}) only as {unit_label(self.unit)}; "
                    f"read as {unit_label(self.unit)}")
        if self.verdict == "mismatch":
            return (f"{where}: bandwidth {self.bw_bytes_per_s / 1e6:,.2f} MB/s contradicts IOPS x access size "
                    f"= {implied / 1e6:,.2f} MB/s ({_off(self.bw_bytes_per_s, implied):+.1%}); kept as given")
        return None


def unit_label(unit: str) -> str:
    return _LABELS.get(unit, unit)


def check_bandwidth(value: float, unit: str, *, iops: float | None, block_size_bytes: int | None) -> BandwidthCheck:
    """``value`` in ``unit`` checked against ``iops`` x ``block_size_bytes`` (either missing: unchecked)."""
    given = value * UNIT_BYTES[unit]
    if not iops or not block_size_bytes or not value:
        return BandwidthCheck(given, unit, "unchecked")
    implied = iops * block_size_bytes
    if abs(_off(given, implied)) <= MATCH_TOLERANCE:
        return BandwidthCheck(given, unit, "match", implied)
    other = _OTHER.get(unit)
    if other is not None and abs(_off(value * UNIT_BYTES[other], implied)) <= MATCH_TOLERANCE:
        return BandwidthCheck(value * UNIT_BYTES[other], other, "reinterpreted", implied)
    verdict = "mismatch" if abs(_off(given, implied)) > MISMATCH_TOLERANCE else "match"
    return BandwidthCheck(given, unit, verdict, implied)


def _off(measured: float, expected: float) -> float:
    return measured / expected - 1.0
