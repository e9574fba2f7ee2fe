"""A host's session readers (remote/session.py) on what a slow or odd host sends: a line they fail
on is named and the point keeps its data; a stream that cannot be read ends the point with what
came."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import FIO_DATA

from ssdprof.fio.output import parse_report
from ssdprof.model.results import ProgressSample
from ssdprof.remote.addresses import parse_host
from ssdprof.remote.host_results import reader_warnings
from ssdprof.remote.host_run import HostRun
from ssdprof.remote.session import HostSession

STATUS = FIO_DATA / "fio-3.33_status_interval.jsonplus.txt"


class LocalShell:
    """Stands in for Ssh: the 'host' is a local sh that waits for a line, then says its lines."""

    def __init__(self, script: str):
        self.script = script

    def argv(self, host: Any, command: list[str]) -> list[str]:
        return ["sh", "-c", self.script]


def session_saying(tmp_path: Path, stderr_lines: list[str]) -> HostSession:
    status = tmp_path / "status.txt"
    status.write_text("\n".join(stderr_lines) + "\n")
    script = (
        f"read -r _ && printf 'ssdprof-ready 1\\nssdprof-pid 42\\n' >&2 && cat '{STATUS}' && "
        f"cat '{status}' >&2 && echo ssdprof-point-end && read -r _"
    )
    return HostSession(LocalShell(script), parse_host("slowhost"))  # type: ignore[arg-type]


def run_point(session: HostSession, on_progress: Any) -> HostRun:
    run = HostRun(session.host)
    session.current, session.on_progress = run, on_progress
    assert session.process.stdin is not None
    session.process.stdin.write("go\n")
    session.process.stdin.flush()
    assert run.done.wait(20), "the point ends"
    return run


def test_a_progress_handler_that_fails_is_named_and_the_point_keeps_all_its_data(
    tmp_path: Path,
) -> None:
    def failing(sample: ProgressSample) -> None:
        raise ZeroDivisionError("division by zero")

    session = session_saying(tmp_path, ["ssdprof-pid not-a-number", "ssdprof-exit 0"])
    try:
        run = run_point(session, failing)
        result = run.result()
    finally:
        session.process.kill()
        session.process.wait()
    expected = parse_report(STATUS.read_text()).jobs[0].read
    assert result.error is None
    assert result.read.io_count == expected.io_count > 0, "fio's own report, not 'no I/O'"
    assert run.fio_exit == 0, "the lines after the failing one were still read"
    assert any("ZeroDivisionError" in e and "fio's output" in e for e in run.reader_errors)
    assert any("ValueError" in e and "status lines" in e for e in run.reader_errors)
    warnings = reader_warnings([run])
    assert warnings and all(
        w.code == "host_reader" and w.message.startswith("slowhost: ") for w in warnings
    )


class Breaks(io.StringIO):
    """A stream that gives some lines, then cannot be read any further."""

    def __init__(self, lines: list[str]):
        super().__init__()
        self._lines = lines

    def __iter__(self) -> Iterator[str]:
        yield from self._lines
        raise OSError(5, "Input/output error")


def test_a_stream_that_cannot_be_read_ends_the_point_with_the_data_up_to_then(
    tmp_path: Path,
) -> None:
    session = session_saying(tmp_path, [])
    run = HostRun(session.host)
    session.current = run
    lines = STATUS.read_text().splitlines(keepends=True)
    first_document = lines[: lines.index("}\n") + 1]
    try:
        session._read(Breaks(first_document), "fio's output", session._on_stdout)
        result = run.result()
    finally:
        session.process.kill()
        session.process.wait()
    assert run.done.is_set() and session.ended.is_set()
    assert (
        result.error is not None
        and "could not read fio's output" in result.error
        and "OSError" in result.error
    )
    assert "data up to then kept" in result.error
    assert result.read.io_count > 0, "the last status document's counts are kept"


def ended_by_sigint(*, stopped: bool) -> HostRun:
    run = HostRun(parse_host("h1"), stopped=stopped)
    for line in STATUS.read_text().splitlines(keepends=True):
        list(run.stream.feed(line))
    run.fio_exit = 128  # fio's own exit status after SIGINT, its report printed
    return run


def test_a_fio_ssdprof_stopped_is_no_failure_but_one_stopped_otherwise_is_named() -> None:
    asked = ended_by_sigint(stopped=True).result()
    assert asked.error is None and asked.read.io_count > 0
    unasked = ended_by_sigint(stopped=False).result()
    assert unasked.error == "h1: fio ended with exit status 128 mid-run; its data up to then kept"
