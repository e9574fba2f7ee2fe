"""``ssdprof replay`` through the real command line: a trace described, a bad line named, a small replay run and
stored, its report page written, and read back."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import requires_fio
from trace_files import Io, random_ios, write_msr

from ssdprof.model.replay_results import ReplayResult
from ssdprof.model.trace import TraceSummary


def ssdprof(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ssdprof", "replay", *args], capture_output=True, text=True,
                          timeout=300, check=False)


def test_describe_says_what_the_trace_holds_and_writes_nothing(disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "hm_1.csv", random_ios(50, span_s=2, seed=31))
    done = ssdprof(str(trace), "--describe", "--db", str(disk_dir / "r.db"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hm_1.csv: SNIA IOTTA MSR-Cambridge CSV\n  50 I/Os: ")
    assert "span 2.000 s" in done.stdout and "recorded read latency p50" in done.stdout
    as_json = TraceSummary.model_validate_json(ssdprof(str(trace), "--describe", "--json").stdout)
    assert as_json.io_count == 50 and as_json.duration_s == 2.0


def test_describe_counts_one_io_in_flight_in_the_singular(disk_dir: Path) -> None:
    one_at_a_time = [Io(k * 10_000, False, k * 4096, 4096, 100) for k in range(5)]  # 100 µs each, 10 ms apart
    done = ssdprof(str(write_msr(disk_dir / "t.csv", one_at_a_time)), "--describe")
    assert done.returncode == 0, done.stderr
    assert "  at most 1 I/O in flight as recorded\n" in done.stdout


def test_a_malformed_line_is_named_and_the_exit_says_bad_input(disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(5, span_s=1, seed=32))
    trace.write_text(trace.read_text() + "x,hm,1,Read,0,4096,1\n")
    done = ssdprof(str(trace), "--target", str(disk_dir), "--db", str(disk_dir / "r.db"))
    assert done.returncode == 2 and "line 6: Timestamp 'x' is not a whole number" in done.stderr
    assert json.loads(ssdprof("--list", "--json", "--db", str(disk_dir / "r.db")).stdout) == []


@requires_fio
def test_a_small_replay_runs_is_stored_and_its_report_page_written(disk_dir: Path) -> None:
    trace = write_msr(disk_dir / "t.csv", random_ios(80, span_s=1, seed=33, region=4 << 20))
    db, pdf = str(disk_dir / "r.db"), disk_dir / "replay.pdf"
    done = ssdprof(str(trace), "--target", str(disk_dir), "--qd", "4", "--name", "nightly oltp", "--json", "--pdf", str(pdf),
                   "--db", db)
    assert done.returncode == 0, done.stderr
    result = ReplayResult.model_validate_json(done.stdout)
    assert result.status == "done" and result.read_io_count + result.write_io_count == 80
    assert pdf.read_bytes().startswith(b"%PDF") and f"replay {result.id}" in done.stderr
    shown = ssdprof("--show", str(result.id), "--db", db)
    assert shown.stdout.startswith(f"replay {result.id}: t.csv as recorded, 4 in flight at most")
    listed = ssdprof("--list", "--db", db).stdout  # the name --json lists is on the text line too
    assert listed.startswith(f"{result.id}  ") and listed.rstrip().endswith("  nightly oltp")


def test_the_parsers_choices_are_the_engines_own_words() -> None:
    from ssdprof.cli.replay import FORMATS, MAPPINGS, TIMINGS
    from ssdprof.model.replay import OffsetMapping, ReplayTiming
    from ssdprof.model.trace import TraceFormat

    assert tuple(f.value for f in TraceFormat) == FORMATS
    assert tuple(t.value for t in ReplayTiming) == TIMINGS and tuple(m.value for m in OffsetMapping) == MAPPINGS
