"""Write amplification from the drive's own counters: what it wrote to its flash (NAND) over what
the host asked it to write, for one run and for a sweep's runs together. One rule, here: a drive
that exposes no count of its flash writes gets no figure and a sentence saying so, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from ssdprof.model.health import HealthDelta

__all__ = ["NO_NAND_COUNTER", "sweep_write_amplification", "write_amplification"]

NO_NAND_COUNTER = ("the drive exposes no count of its flash (NAND) writes that ssdprof reads (e.g. "
                   "ATA NAND_Writes_32MiB): write amplification is not known")


def write_amplification(nand_bytes: int | None, host_bytes: int | None,
                        run_bytes: int) -> tuple[float | None, str]:
    """(flash bytes / host bytes, how it was found or why there is none) for one run. The host
    side is the drive's own count where it keeps one (the same counters, the same rounding), else
    the run's own count of the bytes it wrote."""
    if nand_bytes is None:
        return None, NO_NAND_COUNTER
    if host_bytes is None:
        if run_bytes <= 0:
            return None, "the run wrote nothing: no write amplification"
        return nand_bytes / run_bytes, ("flash writes by the drive's count / the run's own bytes "
                                        "written")
    if host_bytes <= 0:
        return None, ("the drive counted no host writes during the run (its counters move in "
                      "steps): write amplification is not known")
    return nand_bytes / host_bytes, "flash writes / host writes, both by the drive's own counters"


def sweep_write_amplification(deltas: Sequence[HealthDelta | None]) -> tuple[float | None, str]:
    """The sweep's figure: the runs' flash writes summed over their host writes summed, from the
    runs whose drive counted both; the note says how many runs that is."""
    counted = [d for d in deltas if d is not None and d.nand_written_bytes is not None
               and d.written_bytes is not None]
    host = sum(d.written_bytes or 0 for d in counted)
    if not counted:
        return None, NO_NAND_COUNTER
    if host <= 0:
        return None, ("the drive counted no host writes during these runs: write amplification is "
                      "not known")
    nand = sum(d.nand_written_bytes or 0 for d in counted)
    return nand / host, (f"flash writes / host writes by the drive's own counters, over "
                         f"{len(counted)} of {len(deltas)} run(s)")
