"""Browser mode: the desktop app's renderer and RPC served on 127.0.0.1 with a per-launch token.

For headless lab servers reached through an SSH port-forward, and for the end-to-end tests.

- Binds 127.0.0.1 only. What each request must carry and what it gets: ``server_requests.py``.
- A client that closes its connection (a tab closed or reloaded) is a normal event: one info line
  in the log, never a traceback. Other errors keep the standard library's traceback.
- It listens, and prints its URL, before the engine has loaded (``app/background.py``): the page
  and its assets are served at once, and an RPC that arrives first waits for the engine.
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ssdprof.app.background import BackgroundEngine
from ssdprof.app.event_hub import EventHub
from ssdprof.app.server_requests import RequestHandler

if TYPE_CHECKING:  # the engine loads on a thread once the server listens
    from ssdprof.remote.ssh import SshSettings

__all__ = ["BrowserServer", "default_renderer_dir", "page_csp"]

LOG = logging.getLogger(__name__)

HOST = "127.0.0.1"
_CSP_META = re.compile(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"')
FALLBACK_CSP = "default-src 'none'"
"""Served when the renderer's index.html carries no policy: nothing loads, which is noticed at once."""


def page_csp(renderer_dir: Path) -> str:
    """The policy index.html declares (written once, there), plus what only a header can say: no framing."""
    try:
        found = _CSP_META.search((renderer_dir / "index.html").read_text())
    except OSError:
        found = None
    return f"{found.group(1)}; frame-ancestors 'none'" if found else FALLBACK_CSP


def default_renderer_dir() -> Path:
    """``dist/renderer`` of the source checkout this engine runs from."""
    return Path(__file__).resolve().parents[3] / "dist" / "renderer"


class BrowserServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, db_path: Path, *, port: int = 0, renderer_dir: Path | None = None,
                 default_dir: Path | None = None, fio_executable: str = "fio", ssh: SshSettings | None = None):
        super().__init__((HOST, port), RequestHandler)
        self.token = secrets.token_urlsafe(24)
        self.renderer_dir = (renderer_dir or default_renderer_dir()).resolve()
        self.csp = page_csp(self.renderer_dir)
        self.hub = EventHub()
        self.engine = BackgroundEngine(db_path, self.hub.publish, default_dir=default_dir, fio_executable=fio_executable, ssh=ssh)

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        """Serves, the engine loading meanwhile (started here: after ``serve`` has printed the URL)."""
        self.engine.start()
        super().serve_forever(poll_interval)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/?token={self.token}"

    def allowed_hosts(self) -> set[str]:
        return {f"{HOST}:{self.port}", f"localhost:{self.port}"}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Called by socketserver for an exception a request's handler let out."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):  # broken pipe, reset or aborted: the client went away
            host, port = client_address[:2] if isinstance(client_address, tuple) else (client_address, "")
            LOG.info("%s:%s closed its connection (%s); normal when a browser tab closes or reloads",
                     host, port, type(error).__name__)
            return
        super().handle_error(request, client_address)

    def close(self) -> None:
        """Stop streams, cancel a running sweep and wait for it, release the socket."""
        self.hub.close()
        self.engine.close()
        self.server_close()


def serve(db_path: Path, *, port: int = 0, renderer_dir: Path | None = None, ssh: SshSettings | None = None) -> int:
    """Run browser mode until Ctrl-C or SIGTERM; prints the URL (with its token) on stdout, its log on stderr."""
    import signal

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("ssdprof serve: %(levelname)s: %(message)s"))
    logs = [LOG, logging.getLogger("ssdprof.app.background")]  # the server's, and its engine's loading
    for log in logs:
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    server = BrowserServer(db_path, port=port, renderer_dir=renderer_dir, ssh=ssh)

    def stop(signum: int, frame: object) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()

    previous = signal.signal(signal.SIGTERM, stop)
    print(f"ssdprof is serving on {server.url}", flush=True)
    print("open that URL in a browser (over SSH: ssh -L PORT:127.0.0.1:PORT host); Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.close()
        for log in logs:
            log.removeHandler(handler)
    return 0
