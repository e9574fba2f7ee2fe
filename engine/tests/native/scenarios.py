"""Correctness scenarios every build of the compiled loop must pass, whatever its queue or OS: each
writes into (or reads from) a 4 MiB file whose region is the middle 2 MiB, and checks the file's
bytes and the program's counts. Called by test_native_program.py (Linux, each queue) and
test_native_cross.py (the Windows build under wine). PYTEST_DONT_REWRITE is not set: plain asserts.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from native.stamps import KIB, MIB, Launcher, check_counts, sector_stamps, zeroed_file

__all__ = ["REGION", "mixed_reads_find_their_own_offsets", "random_writes_land_on_whole_blocks_in_the_region",
           "sequential_jobs_write_disjoint_slices", "sequential_write_stamps_every_sector_once",
           "stamped_file", "the_read_check_catches_a_wrong_offset"]

FILE_BYTES = 4 * MIB
REGION = (1 * MIB, 2 * MIB)  # offset, size
_REGION_ARGS = ("--offset", str(REGION[0]), "--size", str(REGION[1]))


def _outside_region_untouched(stamps: list[tuple[int, int, int]]) -> None:
    start, size = REGION
    assert all(start <= position < start + size for position, _, _ in stamps)


def sequential_write_stamps_every_sector_once(launch: Launcher, folder: Path) -> Path:
    path = zeroed_file(folder / f"seq-{launch.name}.dat", FILE_BYTES)
    run = launch.run(path, *_REGION_ARGS, "--bs", "4096", "--pattern", "seq", "--read-pct", "0", "--iodepth", "8",
                     "--io-bytes", str(REGION[1]), "--runtime", "60", "--ramp", "0")
    check_counts(run, 4096)
    assert run.result["write"]["ios"] == run.result["issued_write_ios"] == REGION[1] // 4096
    stamps = sector_stamps(path)
    assert len(stamps) == REGION[1] // 512  # every sector of the region, nothing outside it
    _outside_region_untouched(stamps)
    assert all(position == offset for position, offset, _ in stamps)
    per_write = Counter(number for _, _, number in stamps)
    assert len(per_write) == REGION[1] // 4096 and set(per_write.values()) == {8}  # each 4 KiB once, as one write
    return path


def stamped_file(launch: Launcher, folder: Path) -> Path:
    return sequential_write_stamps_every_sector_once(launch, folder)


def random_writes_land_on_whole_blocks_in_the_region(launch: Launcher, folder: Path) -> None:
    path = zeroed_file(folder / f"rand-{launch.name}.dat", FILE_BYTES)
    block = 8 * KIB
    run = launch.run(path, *_REGION_ARGS, "--bs", str(block), "--pattern", "rand", "--read-pct", "0", "--iodepth", "4",
                     "--io-bytes", str(1 * MIB), "--runtime", "60", "--ramp", "0")
    check_counts(run, block)
    assert run.result["write"]["ios"] == 1 * MIB // block
    stamps = sector_stamps(path)
    _outside_region_untouched(stamps)
    assert all(position == offset for position, offset, _ in stamps)
    blocks: dict[int, set[int]] = {}
    for position, _, number in stamps:
        blocks.setdefault((position - REGION[0]) // block, set()).add(number)
    # a block written more than once holds its last write whole: one number across its 16 sectors
    assert all(len(numbers) == 1 for numbers in blocks.values())
    assert len(stamps) == len(blocks) * (block // 512)
    assert 1 < len(blocks) <= run.result["write"]["ios"]


def sequential_jobs_write_disjoint_slices(launch: Launcher, folder: Path) -> None:
    path = zeroed_file(folder / f"jobs-{launch.name}.dat", FILE_BYTES)
    run = launch.run(path, *_REGION_ARGS, "--bs", "4096", "--pattern", "seq", "--read-pct", "0", "--iodepth", "2",
                     "--jobs", "2", "--io-bytes", str(REGION[1]), "--runtime", "60", "--ramp", "0")
    check_counts(run, 4096)
    half = REGION[0] + REGION[1] // 2
    for position, _, number in sector_stamps(path):
        assert number >> 52 == (0 if position < half else 1), f"sector {position} written by job {number >> 52}"


def mixed_reads_find_their_own_offsets(launch: Launcher, stamped: Path) -> None:
    """Reads check each sector's stamp against the offset they asked for, while 30 % writes re-stamp blocks."""
    run = launch.run(stamped, *_REGION_ARGS, "--bs", "4096", "--pattern", "rand", "--read-pct", "70", "--iodepth", "16",
                     "--check-reads", "--runtime", "1", "--ramp", "0.2")
    check_counts(run, 4096)
    read, write = run.result["read"]["ios"], run.result["write"]["ios"]
    assert read > 0 and write > 0
    assert 0.55 < read / (read + write) < 0.85
    assert run.of("progress")[0]["elapsed_ns"] == 1_000_000_000


def the_read_check_catches_a_wrong_offset(launch: Launcher, stamped: Path) -> None:
    """Reading the unstamped first MiB with the check on fails, naming the offset: the check can fail."""
    run = launch.run(stamped, "--offset", "0", "--size", str(1 * MIB), "--bs", "4096", "--pattern", "seq",
                     "--check-reads", "--runtime", "5", "--ramp", "0")
    assert run.returncode == 1
    [error] = run.result["errors"]
    assert "returned the sector stamped for offset 0" in error and run.result["stopped"] == "error"
