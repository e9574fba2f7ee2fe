"""Property-based, over real HTTP on 127.0.0.1: whatever a client sends to browser mode (any method,
path, headers, token, Origin and body, well-formed or not), the server answers with a status and a
message, never a CORS header and never a file outside the renderer; without the token it is 401,
with a wrong one 403, from another origin 403; and it keeps serving afterwards. Requests are written
as raw bytes so malformed ones (a Content-Length that is not a number, bodies that are not JSON or
not UTF-8) reach the server as a hostile client would send them."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ssdprof.app.contract.methods import METHODS
from ssdprof.app.server import BrowserServer

# would write or send traffic
SIDE_EFFECTS = {"sweep.start", "sweep.resume", "hosts.add", "hosts.test", "report.pdf", "specs.save", "specs.delete"}
SAFE_METHODS = sorted(set(METHODS) - SIDE_EFFECTS)
SECRET = "outside-the-renderer-secret"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserServer]:
    folder = tmp_path_factory.mktemp("server-fuzz")
    renderer = folder / "renderer"
    (renderer / "assets").mkdir(parents=True)
    (renderer / "index.html").write_text("<!doctype html><title>ssdprof</title>")
    (renderer / "assets" / "app.js").write_text("console.log('app')")
    (folder / "secret.txt").write_text(SECRET)
    running = BrowserServer(folder / "db.sqlite3", renderer_dir=renderer, default_dir=folder / "scratch")
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.close()
    thread.join(timeout=5)


def send_raw(server: BrowserServer, head: bytes, body: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request written byte for byte; the parsed response (status 0: the server closed without one)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(head + body)
        response = http.client.HTTPResponse(sock, method="HEAD" if head.startswith(b"HEAD ") else None)
        try:
            response.begin()
        except (http.client.RemoteDisconnected, ConnectionResetError):
            return 0, {}, b""
        headers = {k.lower(): v for k, v in response.getheaders()}
        if headers.get("content-type", "").startswith("text/event-stream"):
            return response.status, headers, b""  # the event stream (GET /events, authorised) never ends: its head is the answer
        return response.status, headers, response.read()


TOKENS = st.sampled_from(["right", "wrong", "missing", "empty"])
ORIGINS = st.one_of(st.none(), st.sampled_from(["self", "null", "http://evil.example", "http://127.0.0.1:1", "https://127.0.0.1",
                                                "file://", "http://localhost.evil.example"]))
PATHS = st.one_of(
    st.sampled_from(["/", "/rpc", "/events", "/index.html", "/assets/app.js", "/../secret.txt", "/assets/../../secret.txt",
                     "/%2e%2e/secret.txt", "//etc/passwd", "/" + "a" * 5000, "/assets/" + "b/" * 400, "/?token=", "/x?token=a&token=b"]),
    st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7e), max_size=60).map(lambda t: "/" + t),
)
CONTENT_LENGTHS = st.one_of(st.just("auto"), st.none(), st.sampled_from(["abc", "-5", "0", "99999999999", " 3", "1e3", "0x10"]))
JSON_BODIES = st.one_of(
    st.builds(lambda m, p: {"jsonrpc": "2.0", "id": 1, "method": m, "params": p},
              st.one_of(st.sampled_from(SAFE_METHODS), st.text(max_size=12)),
              st.one_of(st.none(), st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=20)), max_size=3))),
    st.lists(st.integers(), max_size=3), st.integers(), st.text(max_size=20),
)
BODIES = st.one_of(JSON_BODIES.map(lambda b: json.dumps(b).encode()), st.binary(max_size=200),
                   st.sampled_from([b"", b"{", b"\xff\xfe{}", b"[]", b"null", b'{"jsonrpc":"2.0","method":"engine.info"}']))


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    token: str = "right"  # right, wrong, missing or empty
    origin: str | None = None  # "self" for the server's own origin
    content_type: str | None = None
    content_length: str | None = "auto"  # "auto": the body's length; None: no header; else sent as written


def build(server: BrowserServer, r: Request, body: bytes) -> bytes:
    lines = [f"{r.method} {r.path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", "Connection: close"]
    if r.token != "missing":
        value = {"right": server.token, "wrong": server.token[:-1] + "x", "empty": ""}[r.token]
        lines.append(f"X-Ssdprof-Token: {value}")
    if r.origin is not None:
        lines.append(f"Origin: {server.origin if r.origin == 'self' else r.origin}")
    if r.content_type is not None:
        lines.append(f"Content-Type: {r.content_type}")
    if r.content_length is not None:
        lines.append(f"Content-Length: {len(body) if r.content_length == 'auto' else r.content_length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


CONTENT_TYPES = st.one_of(st.none(), st.sampled_from(["application/json", "text/plain", "application/json; charset=utf-8",
                                                      "multipart/form-data"]))
REQUESTS = st.builds(Request, method=st.sampled_from(["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"]), path=PATHS,
                     token=TOKENS, origin=ORIGINS, content_type=CONTENT_TYPES, content_length=CONTENT_LENGTHS)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(r=REQUESTS, body=BODIES)
def test_any_request_gets_a_status_and_never_cors_or_a_file_outside_the_app(server: BrowserServer, r: Request, body: bytes) -> None:
    if r.content_length not in ("auto", None) and r.method in ("POST", "PUT", "PATCH"):
        body = b""  # a lying Content-Length with a body would leave the server waiting for bytes that never come
    status, headers, answer = send_raw(server, build(server, r, body), body)
    method, path, token, origin = r.method, r.path, r.token, r.origin

    assert status != 0, "the server closed the connection without an answer"
    assert status < 500, (status, answer)
    assert not [h for h in headers if h.startswith("access-control-")], headers
    assert SECRET.encode() not in answer
    foreign = origin is not None and origin != "self"
    if foreign:
        assert status == 403, (status, answer)
    elif method in ("GET", "POST") and token == "missing" and "token=" not in path:
        assert status == 401, (status, answer)
    elif method == "POST" and token in ("wrong", "empty"):
        assert status in (401, 403), (status, answer)
        assert status == (401 if token == "empty" else 403)
    if method == "HEAD" and not foreign:
        assert status == 405, (status, answer)  # only GET and POST are served
    if status >= 400 and method != "HEAD":
        assert answer.strip(), "every refusal says why"
    if status == 200 and path == "/rpc" and method == "POST":
        reply = json.loads(answer)
        for one in reply if isinstance(reply, list) else [reply]:
            assert "result" in one or one["error"]["message"]


def test_the_server_still_answers_after_malformed_requests(server: BrowserServer) -> None:
    for garbage in (b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"POST /rpc HTTP/1.1\r\nContent-Length: nope\r\n\r\n",
                    b"\x00\xff\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
            sock.sendall(garbage)
            assert sock.recv(65536), "every request gets some answer, even when it is not HTTP/1.x"
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "engine.info", "params": {}}).encode()
    status, _, answer = send_raw(server, build(server, Request("POST", "/rpc", content_type="application/json"), body), body)
    assert status == 200 and "result" in json.loads(answer)


def test_a_content_length_that_is_not_a_number_is_refused_naming_the_header(server: BrowserServer) -> None:
    request = Request("POST", "/rpc", content_type="application/json", content_length="abc")
    status, _, answer = send_raw(server, build(server, request, b""), b"")
    assert status == 400 and b"Content-Length" in answer


def test_an_overlong_path_is_not_found_rather_than_an_error(server: BrowserServer) -> None:
    status, _, _ = send_raw(server, build(server, Request("GET", "/" + "a" * 5000, content_length=None), b""), b"")
    assert status == 404


def _post(server: BrowserServer, payload: Any) -> tuple[int, Any]:
    body = json.dumps(payload).encode()
    status, _, answer = send_raw(server, build(server, Request("POST", "/rpc", content_type="application/json"), body), body)
    return status, json.loads(answer) if status == 200 else answer


def test_rpc_over_http_names_the_field_for_bad_params(server: BrowserServer) -> None:
    bad = {"base": {"queue_depth": "-oProxyCommand=x"}}
    status, reply = _post(server, {"jsonrpc": "2.0", "id": 3, "method": "sweep.estimate", "params": bad})
    assert status == 200
    assert any("queue_depth" in p["field"] for p in reply["error"]["data"]["problems"]), reply


def test_an_existing_folder_is_never_listed_through_the_static_route(server: BrowserServer, tmp_path: Path) -> None:
    status, _, answer = send_raw(server, build(server, Request("GET", "/assets/", content_length=None), b""), b"")
    assert status == 404 and b"app.js" not in answer


def test_the_authorised_event_stream_answers_its_head_without_cors_and_the_server_serves_on_after_it_is_dropped(
        server: BrowserServer) -> None:
    status, headers, _ = send_raw(server, build(server, Request("GET", "/events", content_length=None), b""), b"")
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    assert not [h for h in headers if h.startswith("access-control-")], headers
    assert _post(server, {"jsonrpc": "2.0", "id": 1, "method": "engine.info", "params": {}})[0] == 200
