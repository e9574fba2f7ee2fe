"""A stored replay as every face reads it: the recorded answer the renderer's tests draw (src/test/replay-hosts.json,
a real replay split across the SSH test hosts) still reads as the engine's model, field for field."""

import json
from pathlib import Path
from typing import Any

from ssdprof.model.replay_results import ReplayResult

RECORDED = Path(__file__).resolve().parents[3] / "src" / "test" / "replay-hosts.json"
IOLOG = RECORDED.with_name("replay-iolog.json")
"""A real replay of a fio iolog (no recorded latency) on this machine: ssdprof replay trace.iolog --engine portable
--qd 4 --json."""


def keys(value: Any, at: str = "") -> set[str]:
    """Every key path in a JSON value (list items under '[]')."""
    if isinstance(value, dict):
        return {f"{at}.{k}" for k in value} | {p for k, v in value.items() for p in keys(v, f"{at}.{k}")}
    if isinstance(value, list):
        return {p for v in value for p in keys(v, f"{at}[]")}
    return set()


def test_the_renderers_recorded_replay_on_hosts_is_the_engines_model_field_for_field() -> None:
    recorded = json.loads(RECORDED.read_text())
    result = ReplayResult.model_validate(recorded)
    assert keys(json.loads(result.model_dump_json())) == keys(recorded), (
        "the model changed: record the answer again (ssdprof replay --host h1 --host h2 --split --json on the test hosts)")
    assert result.hosts_mode is not None and len(result.hosts) == 2
    assert sum(h.recorded_read_count + h.recorded_write_count for h in result.hosts) == result.spec.recorded.io_count


def test_the_renderers_recorded_replay_of_an_iolog_is_the_engines_model_field_for_field() -> None:
    recorded = json.loads(IOLOG.read_text())
    result = ReplayResult.model_validate(recorded)
    assert keys(json.loads(result.model_dump_json())) == keys(recorded), (
        "the model changed: record the answer again (ssdprof replay trace.iolog --engine portable --qd 4 --json)")
    assert all(b.trace_count and not b.recorded_count for b in result.latency)
