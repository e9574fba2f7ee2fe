"""Property-based: whatever a client sends over JSON-RPC, the engine answers with a JSON-RPC
response (a result, or an error whose problems name the field), and never crashes or reports an
internal error. Methods that start measurements or contact hosts are left out of the free fuzzing:
they would write or send traffic where the fuzzer, not a user, chose (their validation is fuzzed
through ``sweep.estimate``, which checks the same parameters and runs nothing).

By type, every method is covered, those too: each field of its params, and each field of an object
field, is sent a value of every JSON type its schema does not allow, and must be refused as
invalid params naming the field, before the method's handler runs. For the methods with side
effects only ill-typed params are sent, and their handlers are replaced by a guard that fails the
test if reached (the guard is what keeps a well-typed start from measuring; it fakes nothing the
test checks)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FIO_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from ssdprof.app.contract.errors import ERROR_CODES
from ssdprof.app.contract.methods import METHODS
from ssdprof.app.rpc import EngineService, RpcError, handle_message
from ssdprof.store.interchange import import_fio_output

SIDE_EFFECTS = {
    # measurements: a fuzzed sustain.start took its defaults and filled the scratch folder's disk
    # with a 73 GB test file in CI (a cancelled sustained write keeps its file for resume)
    "sweep.start", "sweep.resume", "pts.start", "pts.resume", "curve.start", "slo.start",
    "sustain.start", "sustain.resume", "replay.start", "replay.resume",
    # hosts reached over SSH, and a local drive's own word (smartctl, nvme-cli on this machine)
    "hosts.add", "hosts.test", "hosts.ceph_osd_hosts", "drive.show",
    "report.pdf",
}
SAFE_METHODS = sorted(set(METHODS) - SIDE_EFFECTS)
FIELD_NAMES = sorted({name for m in METHODS.values() for name in m.params.model_fields} | {"workload", "base", "target"})

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12), st.floats(allow_nan=False),
                    st.text(max_size=30), st.sampled_from(["4k", "-oProxyCommand=touch /tmp/pwned", "$(reboot)", "; rm -rf /",
                                                          "../../../etc/passwd", "9" * 300, "\x00", "randread", "1", "h1"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.sampled_from(FIELD_NAMES), inner, max_size=4)), max_leaves=8)
PARAMS = st.one_of(st.none(), VALUES, st.dictionaries(st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=8)), VALUES, max_size=5))


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineService]:
    folder = tmp_path_factory.mktemp("rpc-fuzz")
    service = EngineService(folder / "results.sqlite3", lambda method, payload: None, default_dir=folder / "scratch",
                            spec_folders=(None,))
    for run in import_fio_output(FIO_DATA / "fio-3.33_cs_2clients.jsonplus.json"):
        service.store.add_run(run)
    yield service
    service.close()


def _no_existing_targets(value: Any, scratch: Path) -> Any:
    """Any "target" naming an existing path is pointed into the scratch folder: the fuzzer must not
    have the engine probe real folders of this machine."""
    if isinstance(value, dict):
        return {k: (str(scratch / "missing") if k == "target" and isinstance(v, str) and v and _exists(v)
                    else _no_existing_targets(v, scratch)) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_existing_targets(v, scratch) for v in value]
    return value


def _exists(text: str) -> bool:
    try:
        return Path(text).expanduser().exists()
    except (OSError, ValueError, RuntimeError):  # too long, NUL bytes, no home for "~user"
        return False


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.one_of(st.sampled_from(SAFE_METHODS), st.text(max_size=16)), params=PARAMS)
def test_any_request_gets_a_response_naming_what_is_wrong(service: EngineService, method: str, params: Any) -> None:
    if method in SIDE_EFFECTS:
        return
    message = {"jsonrpc": "2.0", "id": 7, "method": method, "params": _no_existing_targets(params, service.db_path.parent)}
    response = handle_message(service, message)
    json.dumps(response)  # a transport can always send it
    assert response["id"] == 7
    if "result" in response:
        return
    error = response["error"]
    assert error["code"] != ERROR_CODES["internal_error"], error
    assert error["code"] in ERROR_CODES.values() and error["message"]
    if error["code"] == ERROR_CODES["invalid_params"]:
        problems = error.get("data", {}).get("problems", [])
        assert problems and all(p["field"] and p["message"] for p in problems), error


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=st.one_of(VALUES, st.lists(VALUES, max_size=3)))
def test_any_message_shape_gets_an_error_not_a_crash(service: EngineService, message: Any) -> None:
    response = handle_message(service, message)
    json.dumps(response)
    for one in response if isinstance(response, list) else [response] if response is not None else []:
        assert "error" in one or "result" in one


def test_the_fuzzed_methods_are_every_method_without_side_effects() -> None:
    assert set(SAFE_METHODS) | SIDE_EFFECTS == set(METHODS)
    # a method added later that starts or resumes work is left out without being listed here
    assert {m for m in METHODS if m.endswith((".start", ".resume"))} <= SIDE_EFFECTS
    assert isinstance(METHODS["engine.info"].params, type) and issubclass(METHODS["engine.info"].params, BaseModel)


# ------------------------------------------------------------------------------------ by type

TYPED_VALUES: dict[str, list[Any]] = {
    "null": [None], "boolean": [True, False], "integer": [7, -3, 10**15], "number": [-1.5, 1e300],
    "string": ["x", "", "-oProxyCommand=touch /tmp/pwned"], "array": [[], [1, "a"], [[{}]]],
    "object": [{}, {"k": 1}, {"tags": 7}],
}
"""A JSON value of each type, none of which pydantic takes for another type ("x" is no number,
-1.5 no integer)."""


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if len(schema.get("allOf", [])) == 1:
        return _resolve(schema["allOf"][0], defs)
    return schema


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def allowed_types(schema: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    """The JSON types a schema takes (an integer is a number too)."""
    schema = _resolve(schema, defs)
    if "anyOf" in schema or "oneOf" in schema:
        return set().union(*(allowed_types(s, defs) for s in schema.get("anyOf", schema.get("oneOf", []))))
    if "const" in schema:
        return {_json_type(schema["const"])}
    if "enum" in schema:
        return {_json_type(v) for v in schema["enum"]}
    given = schema.get("type")
    if given is None:
        return set(TYPED_VALUES)
    types = set(given if isinstance(given, list) else [given])
    return types | {"integer"} if "number" in types else types


def typed_cases(method: str) -> Iterator[tuple[tuple[str, ...], Any, bool]]:
    """(path to a field, a value, whether the field's type takes it): every field of the method's
    params and of their object fields, each sent a value of every JSON type."""
    full = METHODS[method].params.model_json_schema()
    defs = full.get("$defs", {})

    def fields(schema: dict[str, Any], path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
        for name, field in _resolve(schema, defs).get("properties", {}).items():
            yield (*path, name), field
            inner = [_resolve(s, defs) for s in field.get("anyOf", [field])]
            for one in inner:
                if len(path) < 1 and "properties" in one:
                    yield from fields(one, (*path, name))

    for path, field in fields(full, ()):
        takes = allowed_types(field, defs)
        for kind, values in TYPED_VALUES.items():
            for value in values:
                yield path, value, kind in takes


def _nested(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    params: Any = value
    for name in reversed(path):
        params = {name: params}
    return params


@pytest.fixture(scope="module")
def guarded(service: EngineService) -> Iterator[tuple[EngineService, list[str]]]:
    """The service, its methods with side effects answered by a guard that records being reached."""
    reached: list[str] = []
    kept = dict(service._handlers)

    def guard_of(name: str) -> Any:
        def guard(_: Any) -> Any:
            reached.append(name)
            raise RpcError("busy", "the fuzz test's guard: this method's handler was reached")
        return guard

    for name in SIDE_EFFECTS:
        service._handlers[name] = guard_of(name)
    yield service, reached
    service._handlers.update(kept)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_field_of_every_method_refuses_a_value_of_the_wrong_type_before_the_method_runs(
        guarded: tuple[EngineService, list[str]], method: str) -> None:
    service, reached = guarded
    sent = 0
    for path, value, takes in typed_cases(method):
        if takes and method in SIDE_EFFECTS:
            continue  # well typed: it could start a measurement or reach a host
        params = _no_existing_targets(_nested(path, value), service.db_path.parent)
        response = handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        sent += 1
        json.dumps(response)
        error = response.get("error")
        assert error is None or error["code"] != ERROR_CODES["internal_error"], (path, value, error)
        if takes:
            continue
        assert error is not None and error["code"] == ERROR_CODES["invalid_params"], (path, value, response)
        problems = error["data"]["problems"]
        assert problems and all(p["field"] and p["message"] for p in problems), (path, value, error)
        assert reached == [], f"{method}'s handler ran with {'.'.join(path)} = {value!r}"
    assert sent or not METHODS[method].params.model_fields, f"{method}: no field was sent a value"


def test_every_method_with_params_is_fuzzed_by_type() -> None:
    with_fields = {m for m, spec in METHODS.items() if spec.params.model_fields}
    typed = {m for m in METHODS if any(not takes for _, _, takes in typed_cases(m))}
    assert with_fields <= typed
