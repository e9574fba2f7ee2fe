"""The compiled I/O loop run for real on the disk: this machine's build through each of its Linux queues
(io_uring, libaio, a thread per I/O) and the Windows build (zig) under wine64 on its completion port:
right bytes at the right offsets for each pattern, every I/O counted once, bins that add up; then how
this machine's build stops, refuses and fails. (Under wine: correctness, not a Windows drive's speed.)"""

from __future__ import annotations

import json
import platform
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from infra.native_builds import Wine
from native.stamps import MIB, Launcher, ProgramRun, check_counts, zeroed_file

from native import scenarios

pytestmark = pytest.mark.skipif(platform.system() != "Linux", reason="this machine's build is tested where it runs: Linux")
LAUNCHERS = ["io_uring", "libaio", "sync", "iocp under wine"]


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ssdprof-native-", dir="/var/tmp"))  # direct I/O needs the disk, not tmpfs
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(params=LAUNCHERS)
def launch(request: pytest.FixtureRequest, native_program: Path) -> Launcher:
    if request.param != "iocp under wine":
        return Launcher(request.param, [str(native_program)], extra=["--engine", request.param])
    if platform.machine() != "x86_64":
        pytest.skip("the Windows x86-64 build runs under wine64 on x86-64 only")
    wine: Wine = request.getfixturevalue("wine")
    program = request.getfixturevalue("cross_builds")["x86_64-windows-gnu"]
    return Launcher("iocp", wine.argv(program), env=wine.environment(), name_path=Wine.path)


def test_a_sequential_write_stamps_every_sector_of_its_region_once(launch: Launcher, folder: Path) -> None:
    scenarios.sequential_write_stamps_every_sector_once(launch, folder)


def test_random_writes_land_on_whole_blocks_inside_the_region(launch: Launcher, folder: Path) -> None:
    scenarios.random_writes_land_on_whole_blocks_in_the_region(launch, folder)


def test_sequential_jobs_write_disjoint_slices(launch: Launcher, folder: Path) -> None:
    scenarios.sequential_jobs_write_disjoint_slices(launch, folder)


def test_a_mix_reads_the_bytes_each_offset_was_written_with(launch: Launcher, folder: Path) -> None:
    stamped = scenarios.stamped_file(launch, folder)
    scenarios.mixed_reads_find_their_own_offsets(launch, stamped)
    scenarios.the_read_check_catches_a_wrong_offset(launch, stamped)


def test_each_queue_is_the_one_asked_for_and_sync_runs_a_thread_per_io(launch: Launcher, folder: Path) -> None:
    path = zeroed_file(folder / f"which-{launch.name}.dat", 4 * MIB)
    run = launch.run(path, "--size", str(4 * MIB), "--bs", "4096", "--iodepth", "4", "--jobs", "2", "--runtime", "0.3",
                     "--ramp", "0")
    check_counts(run, 4096)
    assert run.start["engine"] == launch.name and run.result["engine"] == launch.name
    assert run.start["threads"] == (8 if launch.name == "sync" else 2)
    assert run.start["cache_bypass"] == ("NO_BUFFERING|WRITE_THROUGH" if launch.name == "iocp" else "O_DIRECT")
    assert run.result["read"]["ios"] > 0


def _started(native_program: Path, path: Path, *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([str(native_program), "--target", str(path), "--size", str(4 * MIB), "--bs", "4096",
                                "--iodepth", "32", "--runtime", "60", "--ramp", "0", "--watch-stdin", *args],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert '"type":"start"' in process.stdout.readline()
    return process


def _ended(process: subprocess.Popen[str]) -> ProgramRun:
    assert process.stdout is not None and process.stderr is not None
    try:
        process.wait(timeout=10)
    finally:
        process.kill()
    out, err = process.stdout.read(), process.stderr.read()
    return ProgramRun(process.returncode, [json.loads(line) for line in out.splitlines() if line.startswith("{")], err)


@pytest.mark.parametrize("stop", ["SIGTERM", "stdin closed"])
def test_a_stop_drains_the_queue_and_still_reports(native_program: Path, folder: Path, stop: str) -> None:
    path = zeroed_file(folder / "stop.dat", 4 * MIB)
    process = _started(native_program, path)
    time.sleep(1.2)
    began = time.monotonic()
    if stop == "SIGTERM":
        process.send_signal(signal.SIGTERM)
    else:
        assert process.stdin is not None
        process.stdin.close()
    run = _ended(process)
    assert time.monotonic() - began < 3
    assert run.result["stopped"] == ("signal" if stop == "SIGTERM" else "stdin")
    check_counts(run, 4096)  # every issued I/O completed and was counted: nothing left in flight
    assert run.result["read"]["ios"] > 0


def test_bad_arguments_exit_2_naming_the_field(native_program: Path) -> None:
    done = subprocess.run([str(native_program), "--target", "/nonexistent", "--size", "1048576", "--bs", "1000"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stdout.startswith('{"type":"refused","field":"block_size_bytes"')
    assert "ssdprof-io: --bs 1000: give a multiple of 512 bytes" in done.stderr
    unknown = subprocess.run([str(native_program), "--frobnicate"], capture_output=True, text=True, check=False)
    assert unknown.returncode == 2 and "unknown argument --frobnicate" in unknown.stderr


def test_a_target_in_ram_is_refused_with_the_reason(native_program: Path) -> None:
    if not Path("/dev/shm").is_dir():
        pytest.skip("no tmpfs at /dev/shm")
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:
        path = zeroed_file(Path(ram) / "ram.dat", 1 * MIB)
        run = Launcher("auto", [str(native_program)]).run(path, "--size", str(1 * MIB), "--bs", "4096", "--runtime", "1")
        buffered = Launcher("auto", [str(native_program)]).run(path, "--size", str(1 * MIB), "--bs", "4096",
                                                               "--runtime", "0.2", "--buffered")
    assert run.returncode == 3
    [refused] = run.of("refused")
    assert refused["field"] == "target" and "is on tmpfs, which lives in RAM" in refused["message"]
    assert buffered.returncode == 0 and buffered.start["cache_bypass"] == "buffered"


def test_a_region_beyond_the_file_is_refused(native_program: Path, folder: Path) -> None:
    path = zeroed_file(folder / "short.dat", 1 * MIB)
    run = Launcher("auto", [str(native_program)]).run(path, "--size", str(2 * MIB), "--bs", "4096", "--runtime", "1")
    assert run.returncode == 3 and run.of("refused")[0]["field"] == "size_bytes"
    assert "ends beyond" in run.of("refused")[0]["message"]


def test_an_offered_rate_is_met_by_poisson_arrivals(native_program: Path, folder: Path) -> None:
    path = zeroed_file(folder / "paced.dat", 4 * MIB)
    run = Launcher("auto", [str(native_program)]).run(path, "--size", str(4 * MIB), "--bs", "4096", "--iodepth", "8",
                                                      "--rate", "1000", "--runtime", "2", "--ramp", "0")
    check_counts(run, 4096)
    achieved = run.result["read"]["ios"] / (run.result["runtime_ns"] / 1e9)
    assert achieved == pytest.approx(1000, rel=0.15)  # ~2000 arrivals: a Poisson count's spread is ~2 %


def _refuse_io_uring() -> None:
    """preexec_fn: a seccomp filter that answers io_uring_setup with EPERM, as a container's profile does."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]

    io_uring_setup, eperm = 425, 1  # the same number on x86-64 and arm64
    rules = (Filter * 4)(Filter(0x20, 0, 0, 0), Filter(0x15, 0, 1, io_uring_setup),  # load nr; nr == io_uring_setup?
                         Filter(0x06, 0, 0, 0x00050000 | eperm), Filter(0x06, 0, 0, 0x7FFF0000))  # ERRNO(EPERM); ALLOW
    program = Program(4, rules)
    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(program), 0, 0):  # NO_NEW_PRIVS; SECCOMP filter
        raise OSError(ctypes.get_errno(), "seccomp")


def test_where_io_uring_is_refused_libaio_measures_and_the_refusal_is_named(native_program: Path, folder: Path) -> None:
    path = zeroed_file(folder / "refused.dat", 4 * MIB)
    done = subprocess.run([str(native_program), "--target", str(path), "--size", str(4 * MIB), "--bs", "4096",
                           "--iodepth", "8", "--runtime", "0.3", "--ramp", "0"], capture_output=True, text=True, timeout=60,
                          preexec_fn=_refuse_io_uring, check=False)
    run = ProgramRun(done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr)
    check_counts(run, 4096)
    assert run.start["engine"] == "libaio" and run.result["read"]["ios"] > 0
    assert run.start["refusals"] == "io_uring refused: Operation not permitted (kernel.io_uring_disabled or a seccomp filter)"


@pytest.mark.parametrize("engine", ["io_uring", "libaio"])  # one queue a thread; sync's thread per I/O wakes when scheduled
def test_the_queue_is_kept_full_as_fio_keeps_it_so_latency_is_its_depth_over_its_rate(
        native_program: Path, folder: Path, engine: str) -> None:
    """Little's law: I/Os outstanding = rate x mean latency. fio's lat holds it at the queue depth (it reaps one
    completion and fills its slot before taking the next); the loop once reaped a batch and refilled it slot by
    slot, the batch's slots empty meanwhile, and held 27.3 of 32 (its p50 15 % under fio's at the same IOPS)."""
    path = zeroed_file(folder / f"little-{engine}.dat", 32 * MIB)
    run = Launcher(engine, [str(native_program)], extra=["--engine", engine]).run(
        path, "--size", str(32 * MIB), "--bs", "4096", "--iodepth", "16", "--runtime", "2", "--ramp", "0")
    check_counts(run, 4096)
    read = run.result["read"]
    outstanding = read["ios"] / (run.result["runtime_ns"] / 1e9) * read["mean_ns"] / 1e9
    assert outstanding == pytest.approx(16, rel=0.03), (engine, outstanding)
