"""Browser mode: loopback only, the per-launch token, foreign origins refused, RPC and events."""

from __future__ import annotations

import http.client
import json
import logging
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import requires_fio

from ssdprof.app.contract.notifications import EngineLog
from ssdprof.app.server import BrowserServer, page_csp

PROJECT_INDEX = Path(__file__).resolve().parents[3] / "index.html"


@pytest.fixture
def server(disk_dir: Path) -> Iterator[BrowserServer]:
    renderer = disk_dir / "renderer"
    (renderer / "assets").mkdir(parents=True)
    (renderer / "index.html").write_text(PROJECT_INDEX.read_text())  # its CSP is the one the server sends
    (renderer / "assets" / "app.js").write_text("console.log('app')")
    (disk_dir / "secret.txt").write_text("outside the renderer")
    running = BrowserServer(disk_dir / "db.sqlite3", renderer_dir=renderer, default_dir=disk_dir / "scratch")
    thread = threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.close()
    thread.join(timeout=5)


def request(server: BrowserServer, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Content-Type": "application/json"} if data is not None else {}
    connection.request(method, path, body=data, headers={**sent, **(headers or {})})
    response = connection.getresponse()
    result = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    connection.close()
    return result


def rpc(server: BrowserServer, method: str, params: dict[str, Any] | None = None, **headers: str) -> tuple[int, Any]:
    status, _, body = request(server, "POST", "/rpc", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}},
                              {"X-Ssdprof-Token": server.token, **headers})
    return status, json.loads(body) if status == 200 else body.decode()


def test_listens_on_loopback_only(server: BrowserServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/?token=")


def test_page_without_token_is_401_and_wrong_token_403(server: BrowserServer) -> None:
    assert request(server, "GET", "/")[0] == 401
    assert request(server, "GET", "/?token=guess")[0] == 403


def test_page_with_token_is_served_and_sets_a_strict_cookie(server: BrowserServer) -> None:
    status, headers, body = request(server, "GET", f"/?token={server.token}")
    assert status == 200 and b"ssdprof" in body
    assert "SameSite=Strict" in headers["set-cookie"] and "HttpOnly" in headers["set-cookie"]
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"


def test_the_page_policy_is_the_one_index_html_declares_and_framing_is_refused(server: BrowserServer) -> None:
    declared = re.search(r'Content-Security-Policy" content="([^"]+)"', PROJECT_INDEX.read_text())
    assert declared is not None
    _, headers, _ = request(server, "GET", f"/?token={server.token}")
    assert headers["content-security-policy"] == f"{declared.group(1)}; frame-ancestors 'none'"


def test_a_renderer_without_a_declared_policy_loads_nothing(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>no policy</title>")
    assert page_csp(tmp_path) == "default-src 'none'"


def test_assets_load_with_the_cookie(server: BrowserServer) -> None:
    status, headers, _ = request(server, "GET", "/assets/app.js", headers={"Cookie": f"ssdprof_token={server.token}"})
    assert status == 200 and headers["content-type"].endswith("javascript")
    assert request(server, "GET", "/assets/app.js")[0] == 401


def test_files_outside_the_renderer_are_not_served(server: BrowserServer) -> None:
    assert request(server, "GET", f"/../secret.txt?token={server.token}")[0] == 404
    assert request(server, "GET", f"/%2e%2e/secret.txt?token={server.token}")[0] == 404


def test_rpc_answers_with_the_token_header(server: BrowserServer) -> None:
    status, body = rpc(server, "presets.list")
    assert status == 200 and "student" in {p["name"] for p in body["result"]["presets"]}


def test_rpc_refuses_the_cookie_alone(server: BrowserServer) -> None:
    status, _, _ = request(server, "POST", "/rpc", {"jsonrpc": "2.0", "id": 1, "method": "presets.list"},
                           {"Cookie": f"ssdprof_token={server.token}"})
    assert status == 401


def test_rpc_refuses_a_wrong_token(server: BrowserServer) -> None:
    assert rpc(server, "presets.list", **{"X-Ssdprof-Token": "x" * 32})[0] == 403


def test_foreign_origin_is_refused_even_with_the_token(server: BrowserServer) -> None:
    status, _ = rpc(server, "presets.list", Origin="http://evil.example")
    assert status == 403
    assert rpc(server, "presets.list", Origin=server.origin)[0] == 200


def test_foreign_host_header_is_refused(server: BrowserServer) -> None:
    status, _ = rpc(server, "presets.list", Host=f"attacker.example:{server.port}")
    assert status == 403


def test_preflight_is_refused_and_no_cors_headers_are_sent(server: BrowserServer) -> None:
    status, headers, _ = request(server, "OPTIONS", "/rpc", headers={"Origin": "http://evil.example"})
    assert status == 403
    assert not any(name.startswith("access-control-") for name in headers)


def test_rpc_needs_json(server: BrowserServer) -> None:
    status, _, _ = request(server, "POST", "/rpc", None, {"X-Ssdprof-Token": server.token, "Content-Type": "text/plain",
                                                           "Content-Length": "2"})
    assert status == 415


def test_bad_params_come_back_as_field_problems(server: BrowserServer) -> None:
    _, body = rpc(server, "sweep.start", {"base": {"numjobs": 0}})
    assert body["error"]["data"]["problems"][0]["field"] == "numjobs"


def read_events(server: BrowserServer, count: int) -> list[dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("GET", f"/events?token={server.token}")
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    events: list[dict[str, Any]] = []
    while len(events) < count:
        line = response.fp.readline().decode()
        if line.startswith("data: "):
            events.append(json.loads(line[6:]))
    connection.close()
    return events


def test_events_stream_delivers_notifications(server: BrowserServer) -> None:
    threading.Timer(0.3, lambda: server.hub.publish("engine.log", EngineLog(level="info", message="hello"))).start()
    [event] = read_events(server, 1)
    assert event == {"jsonrpc": "2.0", "method": "engine.log", "params": {"level": "info", "message": "hello"}}


def test_events_need_the_token(server: BrowserServer) -> None:
    assert request(server, "GET", "/events")[0] == 401


@requires_fio
def test_a_sweep_started_over_http_streams_its_events(server: BrowserServer, disk_dir: Path) -> None:
    collected: list[list[dict[str, Any]]] = []
    reader = threading.Thread(target=lambda: collected.append(read_events(server, 4)))
    reader.start()
    threading.Event().wait(0.3)
    status, body = rpc(server, "sweep.start", {"base": {"runtime_s": 1, "ramp_s": 0, "size_bytes": "32MiB",
                                                        "target": str(disk_dir)}})
    assert status == 200 and body["result"]["count"]["total"] == 1
    reader.join(timeout=60)
    kinds = [e["params"]["event"]["kind"] for e in collected[0]]
    assert kinds[:3] == ["sweep_started", "layout_done", "point_started"]


def test_serve_command_prints_a_tokened_url_and_stops_on_sigterm(disk_dir: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "ssdprof", "serve", "--db", str(disk_dir / "db.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
    assert match, line
    connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=10)
    connection.request("GET", "/")
    assert connection.getresponse().status == 401
    connection.close()
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 0


def reset(connection: socket.socket) -> None:
    """Close as a closed browser tab often does: with a reset, not an orderly shutdown."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def open_raw(port: int, path: str) -> socket.socket:
    """A request whose first bytes of answer have arrived, on a connection the test closes itself."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    assert connection.recv(4096).startswith(b"HTTP/1.1 ")
    return connection


def test_a_closed_event_stream_is_one_info_line_and_no_traceback(server: BrowserServer, caplog: pytest.LogCaptureFixture,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.INFO, logger="ssdprof.app.server")
    reset(open_raw(server.port, f"/events?token={server.token}"))
    for _ in range(100):  # the handler notices the closed stream at its next write
        server.hub.publish("engine.log", EngineLog(level="info", message="tick"))
        if caplog.records:
            break
        threading.Event().wait(0.05)
    [record] = caplog.records
    assert record.levelno == logging.INFO and "closed its connection" in record.getMessage()
    assert "Traceback" not in capsys.readouterr().err


def test_serve_logs_a_closed_connection_as_one_info_line_never_a_traceback(disk_dir: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "ssdprof", "serve", "--db", str(disk_dir / "db.sqlite3")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", process.stdout.readline())
    assert match
    port, token = int(match.group(1)), match.group(2)
    stream, page = open_raw(port, f"/events?token={token}"), open_raw(port, "/")  # the page: 401, kept alive
    reset(page)
    reset(stream)
    threading.Event().wait(0.5)
    process.send_signal(signal.SIGTERM)
    _, log = process.communicate(timeout=20)
    assert "Traceback" not in log
    closed = [line for line in log.splitlines() if "closed its connection" in line]
    assert closed and all(line.startswith("ssdprof serve: INFO: 127.0.0.1:") for line in closed), log


def test_the_server_listens_before_the_engine_loads() -> None:
    """Its URL is printed once the socket is bound: the server's own modules load no engine, no model and none of
    the statistics and chart libraries (the engine loads on a thread, app/background.py)."""
    code = ("import sys, ssdprof.app.server, ssdprof.cli.main; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'numpy', 'scipy', 'matplotlib', "
            "'reportlab') or m.startswith(('ssdprof.app.rpc', 'ssdprof.app.service', 'ssdprof.model', 'ssdprof.store.db'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"


def test_serve_with_a_store_it_cannot_open_still_prints_its_url_and_says_why_on_each_call(disk_dir: Path) -> None:
    folder = disk_dir / "a-folder.sqlite3"
    folder.mkdir()
    process = subprocess.Popen([sys.executable, "-m", "ssdprof", "serve", "--db", str(folder)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", process.stdout.readline())
    assert match
    connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
    connection.request("POST", "/rpc", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "engine.info", "params": {}}),
                       headers={"Content-Type": "application/json", "X-Ssdprof-Token": match.group(2)})
    answer = json.loads(connection.getresponse().read())
    connection.close()
    process.send_signal(signal.SIGTERM)
    _, log = process.communicate(timeout=20)
    assert answer["error"]["message"].startswith("the engine could not start: ")
    assert "the engine could not start" in log
