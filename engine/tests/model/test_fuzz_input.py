"""Property-based: whatever a user types, the workload model and the CLI answer with a message that
names the field, and nothing crashes."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssdprof.cli.main import main
from ssdprof.model.workload import FIELD_RULES, Workload, WorkloadError, parse_workload
from ssdprof.remote.addresses import parse_host

NASTY_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["4k", "0", "-1", "1e9", "nan", "inf", "1GiB", "$(reboot)", "; rm -rf /", "-oProxyCommand=x", "../../etc",
                     "\x00", "4096\n", "٣", "１２８k", "9" * 400]),
)
VALUES = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**20, max_value=10**20),
                   st.floats(allow_nan=True, allow_infinity=True), NASTY_TEXT, st.lists(st.integers(), max_size=3))
FIELDS = st.one_of(st.sampled_from(sorted(FIELD_RULES)), st.text(max_size=12))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(FIELDS, VALUES, max_size=6))
def test_any_workload_input_is_accepted_or_refused_naming_its_fields(raw: dict[str, Any]) -> None:
    try:
        workload = parse_workload(raw)
    except WorkloadError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.field in FIELD_RULES or problem.field in raw
            assert problem.message
    else:
        assert isinstance(workload, Workload)
        assert workload.block_size_bytes % 512 == 0 and 1 <= workload.queue_depth <= 4096 and workload.runtime_s > 0


FLAGS = ["--bs", "--qd", "--jobs", "--rw", "--read-pct", "--runtime", "--ramp", "--size", "--engine", "--vary", "--repeat", "--tag",
         "--host", "--rbd", "--remote-dir"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(FLAGS), NASTY_TEXT.filter(lambda t: "\x00" not in t)), max_size=4))
def test_any_cli_flags_give_exit_0_or_2_with_a_message_and_no_traceback(pairs: list[tuple[str, str]]) -> None:
    argv = ["sweep", "--estimate", "--db", ":memory:", "--preset", "quick"]
    for flag, value in pairs:
        argv += [flag, value] if flag != "--vary" else [flag, f"qd={value}"]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = int(exc.code or 0)
    assert code in (0, 2), err.getvalue()
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert err.getvalue().strip()


@settings(max_examples=300, deadline=None)
@given(NASTY_TEXT)
def test_host_names_are_either_plain_or_refused(text: str) -> None:
    try:
        host = parse_host(text)
    except WorkloadError as exc:
        assert exc.problems[0].field == "host"
    else:
        assert not text.startswith("-")
        assert all(c.isalnum() or c in "._-@:[]" for c in text)
        assert host.host
