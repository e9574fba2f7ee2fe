"""How browser mode answers each HTTP request: who may ask, then the page and its assets, the RPC and the event stream.

- Requests whose ``Host`` is not the server's loopback address and port are refused (DNS rebinding),
  and so is any request carrying a foreign ``Origin``. No CORS headers are ever sent, so other
  sites' pages can neither read responses nor pass a preflight.
- The token is printed once, in the URL. Pages and assets accept it in the query or in the
  SameSite=Strict cookie set when the page is opened; ``POST /rpc`` needs it in the
  ``X-Ssdprof-Token`` header, which a cross-site form can never send. Missing: 401; wrong: 403.
- ``POST /rpc`` takes the JSON-RPC of ``rpc.py``; ``GET /events`` streams its notifications as
  server-sent events, numbered so a reconnecting client resumes where it left off.
"""

from __future__ import annotations

import hmac
import json
import mimetypes
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from ssdprof.app.server import BrowserServer

__all__ = ["RequestHandler"]

COOKIE = "ssdprof_token"
MAX_BODY_BYTES = 1 << 20
HEARTBEAT_S = 15.0


class RequestHandler(BaseHTTPRequestHandler):
    """One connection's requests, each refused or answered."""

    server: BrowserServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the URL carries the token: keep request lines out of logs

    # ----------------------------------------------------------------------------- routing

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if not self._allowed(url.query, header_only=False):
            return
        if url.path == "/events":
            self._events()
        else:
            self._static(url.path, url.query)

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if not self._allowed(url.query, header_only=True):
            return
        if url.path != "/rpc":
            self._send_text(HTTPStatus.NOT_FOUND, "no such endpoint; the RPC is POST /rpc")
            return
        self._rpc()

    def do_HEAD(self) -> None:
        if not self._same_origin():
            return
        self._send_text(HTTPStatus.METHOD_NOT_ALLOWED, "use GET for the app and POST /rpc for the engine", {"Allow": "GET, POST"})

    def do_OPTIONS(self) -> None:
        self._send_text(HTTPStatus.FORBIDDEN, "cross-origin requests are not allowed")

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS

    # -------------------------------------------------------------------------------- guard

    def _same_origin(self) -> bool:
        host = self.headers.get("Host", "")
        if host not in self.server.allowed_hosts():
            self._send_text(HTTPStatus.FORBIDDEN, "this server answers only on 127.0.0.1")
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in self.server.allowed_hosts()}:
            self._send_text(HTTPStatus.FORBIDDEN, "requests from other origins are refused")
            return False
        return True

    def _allowed(self, query: str, *, header_only: bool) -> bool:
        if not self._same_origin():
            return False
        from ssdprof.app.contract.errors import TOKEN_HEADER

        candidates = [self.headers.get(TOKEN_HEADER)]
        if not header_only:
            candidates += [*parse_qs(query).get("token", []), self._cookie_token()]
        given = [c for c in candidates if c]
        if not given:
            self._send_text(HTTPStatus.UNAUTHORIZED, "a token is required: open the URL that `ssdprof serve` printed")
            return False
        if not any(hmac.compare_digest(c.encode(), self.server.token.encode()) for c in given):
            self._send_text(HTTPStatus.FORBIDDEN, "wrong token: open the URL that `ssdprof serve` printed")
            return False
        return True

    def _cookie_token(self) -> str | None:
        cookie = SimpleCookie()
        try:
            cookie.load(self.headers.get("Cookie", ""))
        except Exception:
            return None
        morsel = cookie.get(COOKIE)
        return morsel.value if morsel else None

    # ---------------------------------------------------------------------------- handlers

    def _rpc(self) -> None:
        if self.headers.get_content_type() != "application/json":
            self._send_text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON-RPC as application/json")
            return
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not declared.isdigit():
            self.close_connection = True  # the body's end is unknown: do not read it as the next request
            self._send_text(HTTPStatus.BAD_REQUEST, f"Content-Length must be a whole number of bytes, not {declared[:40]!r}")
            return
        length = int(declared)
        if length <= 0 or length > MAX_BODY_BYTES:
            self._send_text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body of 1 to {MAX_BODY_BYTES} bytes")
            return
        try:
            message = json.loads(self.rfile.read(length))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            response: Any = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"not JSON: {exc}"}}
        else:
            response = self.server.engine.answer(message, text=True)
        if response is None:
            self._send(HTTPStatus.NO_CONTENT, b"", "application/json")
        else:
            text = response if isinstance(response, str) else json.dumps(response)
            self._send(HTTPStatus.OK, text.encode(), "application/json")

    def _events(self) -> None:
        last_id = self.headers.get("Last-Event-ID", "")
        seq = int(last_id) if last_id.isdigit() else self.server.hub.last
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.close_connection = True
        # A closed tab ends the stream with a ConnectionError at the next write: BrowserServer.handle_error logs it.
        self.wfile.write(b"retry: 1000\n\n")
        self.wfile.flush()
        while not self.server.hub.closed:
            events = self.server.hub.after(seq, HEARTBEAT_S)
            chunk = "".join(f"id: {n}\ndata: {data}\n\n" for n, data in events) or ": keep-alive\n\n"
            if events:
                seq = events[-1][0]
            self.wfile.write(chunk.encode())
            self.wfile.flush()

    def _static(self, path: str, query: str) -> None:
        root = self.server.renderer_dir
        index = root / "index.html"
        if not index.is_file():
            self._send_text(HTTPStatus.SERVICE_UNAVAILABLE, f"the app is not built ({index} is missing): run `npm run build`")
            return
        relative = path.lstrip("/") or "index.html"
        try:
            candidate = (root / relative).resolve()
            found = candidate.is_relative_to(root) and candidate.is_file()
        except (OSError, ValueError):  # a name too long for the file system, or a NUL byte
            found = False
        if not found:
            self._send_text(HTTPStatus.NOT_FOUND, "not found")
            return
        content_type = mimetypes.guess_type(candidate.name)[0] or "application/octet-stream"
        extra = {}
        if "token" in parse_qs(query):
            extra["Set-Cookie"] = f"{COOKIE}={self.server.token}; Path=/; HttpOnly; SameSite=Strict"
        self._send(HTTPStatus.OK, candidate.read_bytes(), content_type, extra)

    # ------------------------------------------------------------------------------ output

    def _send_text(self, status: HTTPStatus, text: str, extra: dict[str, str] | None = None) -> None:
        self._send(status, (text + "\n").encode(), "text/plain; charset=utf-8", extra)

    def _send(self, status: HTTPStatus, body: bytes, content_type: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", self.server.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cache-Control", "no-store")
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

