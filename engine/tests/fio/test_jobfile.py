"""Importing users' fio job files: what is translated, what is refused, and proof that a refused file runs nothing."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest
from conftest import FIO_DATA, requires_fio

from ssdprof.cli import report as cli_report
from ssdprof.fio.job_import import JobFileError, parse_job_file
from ssdprof.fio.jobfile import reproducible_job
from ssdprof.model.workload import Pattern
from ssdprof.store.db import Store
from ssdprof.store.interchange import import_fio_output

PLAIN = """\
; the student's job file
[global]
ioengine=libaio
direct=1
time_based
runtime=30
ramp_time=2
size=1g

[rand-read-4k]
rw=randread
bs=4k
iodepth=32
numjobs=2

# a mixed job
[mixed]
readwrite=randrw
rwmixread=70
blocksize=16KiB
"""


def parse(text: str, target: Path) -> list[tuple[str, object]]:
    return list(parse_job_file(text, str(target)).workloads)


def test_a_plain_job_file_becomes_workloads_on_the_chosen_target(tmp_path: Path) -> None:
    (name1, first), (name2, second) = parse_job_file(PLAIN, str(tmp_path)).workloads
    assert (name1, first.pattern, first.block_size_bytes) == ("rand-read-4k", Pattern.RANDREAD, 4096)
    assert (first.queue_depth, first.numjobs) == (32, 2)
    assert (first.runtime_s, first.ramp_s, first.size_bytes, first.direct, first.target) == (30, 2, 1 << 30, True, str(tmp_path))
    assert (name2, second.pattern, second.read_pct, second.block_size_bytes) == ("mixed", Pattern.RANDRW, 70, 16384)


def test_fio_sizes_are_1024_based_even_when_written_kb() -> None:
    (_, workload), = parse_job_file("[j]\nbs=4KB\nsize=64MB\nruntime=1\n", "/var/tmp").workloads
    assert (workload.block_size_bytes, workload.size_bytes) == (4096, 64 << 20)


def test_a_global_section_applies_only_to_the_jobs_after_it() -> None:
    imported = parse_job_file("[a]\nrw=read\n[global]\nbs=64k\n[b]\nrw=write\n", "/var/tmp")
    (_, a), (_, b) = imported.workloads
    assert (a.block_size_bytes, b.block_size_bytes) == (4096, 65536)


def test_what_is_assumed_or_changed_is_said() -> None:
    imported = parse_job_file("[a]\nrw=randread\nioengine=psync\niodepth=8\n[b]\nrw=read\n", "/var/tmp")
    notes = " ".join(imported.notes)
    assert imported.workloads[0][1].queue_depth == 1 and "psync ignores iodepth" in notes
    assert "buffered" in notes and imported.workloads[0][1].direct is False
    assert "fio would run these 2 jobs at the same time" in notes
    assert "10 s" in notes and "256 MiB" in notes


@pytest.mark.parametrize(("line", "reason"), [
    ("exec_prerun=touch /tmp/x", "runs a shell command"),
    ("exec_postrun=rm -rf ~", "runs a shell command"),
    ("ioengine=exec", "runs programs"),
    ("ioengine=external:/tmp/evil.so", "loads a shared library"),
    ("ioengine=/tmp/evil.so", "loads a shared library"),
    ("ioengine=net", "not a local file engine"),
    ("filename=/etc/passwd", "points outside the target"),
    ("filename=../../etc/shadow", "points outside the target"),
    ("filename=a:/etc/passwd", "points outside the target"),
    ("directory=/home", "points outside the target"),
    ("filename_format=/tmp/$jobname", "$-expansion"),
    ("write_bw_log=/tmp/bw", "writes a log"),
    ("write_lat_log=lat", "writes a log"),
    ("write_iops_log=iops", "writes a log"),
    ("write_hist_log=hist", "writes a log"),
    ("write_iolog=/tmp/iolog", "writes a log"),
    ("read_iolog=/tmp/iolog", "replays I/O"),
    ("pre_read=1", "page cache"),
    ("verify_state_save=1", "state files"),
    ("ioscheduler=none", "I/O scheduler"),
    ("size=${SIZE}", "$-expansion"),
    ("EXEC_PRERUN=id", "runs a shell command"),
    ("unknown_option=1", "is not imported"),
])
def test_each_dangerous_or_unknown_option_is_refused_with_its_reason(line: str, reason: str, tmp_path: Path) -> None:
    with pytest.raises(JobFileError) as caught:
        parse_job_file(f"[global]\nrw=read\n[job]\n{line}\n", str(tmp_path))
    assert len(caught.value.problems) == 1
    assert "line 4" in caught.value.problems[0] and reason in caught.value.problems[0]


def test_include_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    with pytest.raises(JobFileError, match="line 1: include pulls in another file"):
        parse_job_file("include /etc/fio/evil.fio\n[job]\nrw=read\n", str(tmp_path))


def test_a_filename_inside_the_target_is_accepted_but_a_symlink_out_of_it_is_not(tmp_path: Path) -> None:
    (tmp_path / "escape").symlink_to("/etc")
    assert parse(f"[j]\nfilename={tmp_path}/data.bin\n", tmp_path)
    assert parse("[j]\nfilename=data.bin\n", tmp_path)
    with pytest.raises(JobFileError, match="points outside the target"):
        parse_job_file(f"[j]\nfilename={tmp_path}/escape/passwd\n", str(tmp_path))


def test_options_outside_a_section_and_broken_headers_are_refused_naming_the_line() -> None:
    with pytest.raises(JobFileError) as caught:
        parse_job_file("rw=read\n[unclosed\n[j]\nbs=4k-16k\n", "/var/tmp")
    text = " ".join(caught.value.problems)
    assert "line 1: option 'rw' outside a [section]" in text and "line 2" in text and "ranges, lists" in text


def _cli(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ssdprof")
    cli_report.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


MALICIOUS = """\
[global]
rw=randwrite
exec_prerun=touch {canary}
exec_postrun=touch {canary}
write_bw_log={logs}/bw
write_lat_log={logs}/lat
[attack]
ioengine=exec
filename={outside}/victim
pre_read=1
"""


def test_a_malicious_job_file_is_refused_and_nothing_runs_or_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, outside, logs = tmp_path / "target", tmp_path / "outside", tmp_path / "logs"
    for folder in (target, outside, logs):
        folder.mkdir()
    canary = tmp_path / "canary"
    job = tmp_path / "evil.fio"
    job.write_text(MALICIOUS.format(canary=canary, logs=logs, outside=outside))
    store = Store(":memory:")
    code = cli_report.handle(_cli(["import-job", str(job), "--target", str(target), "--run"]), store)
    assert code == 2
    assert not canary.exists()
    assert [list(f.iterdir()) for f in (target, outside, logs)] == [[], [], []]
    assert store.runs() == []
    err = capsys.readouterr().err
    for option in ("exec_prerun", "exec_postrun", "write_bw_log", "write_lat_log", "ioengine", "filename", "pre_read"):
        assert f"] {option}" in err


@requires_fio
def test_an_accepted_job_file_is_measured_through_ssdprof(disk_dir: Path, fresh_store: Store,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    job = disk_dir.parent / f"ssdprof-test-{os.getpid()}.fio"
    job.write_text("[global]\ndirect=1\ntime_based\nruntime=1\nsize=32m\n[qd4]\nrw=randread\nbs=4k\niodepth=4\n")
    try:
        code = cli_report.handle(_cli(["import-job", str(job), "--target", str(disk_dir), "--run", "--tag", "lab=test"]), fresh_store)
    finally:
        job.unlink()
    assert code == 0
    (run,) = fresh_store.runs()
    assert (run.workload.queue_depth, run.workload.block_size_bytes, run.read.iops > 0) == (4, 4096, True)
    assert run.tags == {"job_file": job.name, "lab": "test"}
    assert list(disk_dir.iterdir()) == []
    assert "randread 4KiB QD4 T1" in capsys.readouterr().out


def test_an_offered_rate_is_split_over_jobs_and_hosts_with_poisson_arrivals() -> None:
    from ssdprof.fio.jobfile import FioPlan, job_file
    from ssdprof.model.workload import parse_workload

    workload = parse_workload({"numjobs": 4, "rate_iops": 20000})
    text = job_file(workload, "/var/tmp/f", FioPlan("io_uring", 1, 4, ""), hosts=2)
    assert "rate_iops=2500" in text.splitlines() and "rate_process=poisson" in text.splitlines()
    mixed = job_file(parse_workload({"pattern": "randrw", "read_pct": 70, "rate_iops": 1000}), "/var/tmp/f", FioPlan("io_uring", 1, 1, ""))
    assert "rate_iops=700,300" in mixed.splitlines()
    assert "rate_iops" not in job_file(parse_workload({}), "/var/tmp/f", FioPlan("io_uring", 1, 1, ""))


def test_fio_offers_more_than_asked_at_high_rates_per_job_as_its_whole_microsecond_gaps_make_it() -> None:
    from ssdprof.fio.jobfile import poisson_offered_iops
    from ssdprof.model.workload import parse_workload

    # fio 3.33 asked for 48,022 and 45,000 IOPS (one job, Poisson) measured 51,058 and 46,233 on this project's VM
    assert poisson_offered_iops(parse_workload({"rate_iops": 48022}), 1) == pytest.approx(51_271, abs=1)
    assert poisson_offered_iops(parse_workload({"rate_iops": 45000}), 1) == pytest.approx(46_503, abs=1)
    # split over 4 jobs on 2 hosts, each job's rate (2,500) is close to what it offers; a mix adds its directions
    assert poisson_offered_iops(parse_workload({"numjobs": 4, "rate_iops": 20000}), 4, 2) == pytest.approx(20_025, abs=1)
    mixed = parse_workload({"pattern": "randrw", "read_pct": 70, "rate_iops": 1000})
    assert poisson_offered_iops(mixed, 1) == pytest.approx(1000, rel=1e-3)


def test_an_imported_fio_run_carries_a_job_file_written_from_its_own_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = []
    for cwd in (tmp_path, Path("/")):  # where it is asked from changes nothing
        monkeypatch.chdir(cwd)
        (run,) = import_fio_output(FIO_DATA / "fio-3.33_randread_qd4_libaio_lat.json")
        texts.append(run.job_text)
    assert texts[0] == texts[1]
    lines = texts[0].splitlines()
    assert {"ioengine=libaio", "rw=randread", "bs=4096", "iodepth=4", "direct=1"} <= set(lines)
    assert "filename=/var/tmp/fiofix/lat.dat" in lines


def test_a_run_without_a_job_file_gets_the_async_engine_of_the_os_it_was_measured_on() -> None:
    (run,) = import_fio_output(FIO_DATA / "fio-3.33_randread_qd4_libaio_lat.json")
    bare = run.model_copy(update={"job_text": "", "engine": run.engine.model_copy(update={"name": "portable"}),
                                  "environment": run.environment.model_copy(update={"os": "macOS-14.5-arm64"})})
    assert "ioengine=posixaio" in reproducible_job(bare).splitlines()


def test_a_byte_bounded_write_ends_after_its_bytes_shared_by_its_jobs_in_whole_accesses() -> None:
    from ssdprof.fio.jobfile import FioPlan, job_options
    from ssdprof.model.workload import Workload

    bounded = Workload(pattern="write", read_pct=0, block_size_bytes=1 << 20, numjobs=3, runtime_s=600,
                       size_bytes=32 << 20, io_bytes_limit=100 << 20)
    argv = job_options(bounded, "/srv/t.dat", FioPlan("libaio", 8, 3, "")).as_argv()
    assert f"--io_size={34 << 20}" in argv  # 100 MiB over 3 jobs: 33.3 MiB, up to whole 1 MiB accesses
    assert "--time_based=1" not in argv and "--runtime=600" in argv  # the runtime only a cap
    timed = job_options(bounded.model_copy(update={"io_bytes_limit": None}), "/srv/t.dat", FioPlan("libaio", 8, 3, ""))
    assert "--time_based=1" in timed.as_argv() and not any(a.startswith("--io_size") for a in timed.as_argv())
