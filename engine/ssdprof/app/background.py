"""What browser mode loads once it listens: the engine's session, then the PDF machinery.

``ssdprof serve`` prints its URL as soon as its socket is bound (the interpreter and the HTTP
server, a tenth of a second) and loads the rest on a thread while the browser fetches the page: the
engine (the store opened, migrations checked, every RPC model) and then the report's charts, fonts
and styles, so that the first Export PDF costs what the second does. A request that needs the
engine before it is ready waits for it; a session that could not be made says why on every request.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ssdprof.app.rpc import EngineService
    from ssdprof.app.service.engine import Notify
    from ssdprof.remote.ssh import SshSettings

__all__ = ["BackgroundEngine"]

LOG = logging.getLogger(__name__)

READY_TIMEOUT_S = 300.0
"""How long a request waits for the engine: migrating a big store on first start takes minutes."""
QUIET_S = 1.0
"""Warming waits until no request has been answered for this long and none is being answered: the
page's first calls (the app opening, a view's data) go first, and the warming's imports do not hold
them up."""


class EngineUnavailable(RuntimeError):
    """The engine's session could not be made (its reason is the message)."""


class BackgroundEngine:
    """The engine's session (``EngineService``'s arguments), made on a thread from :meth:`start` on;
    :meth:`get` and :meth:`answer` wait for it."""

    def __init__(self, db_path: Path, notify: Notify, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None, warm: bool = True):
        self._db_path, self._notify, self._default_dir, self._fio, self._ssh = db_path, notify, default_dir, fio_executable, ssh
        self._warm = warm
        self._service: EngineService | None = None
        self._failure: BaseException | None = None
        self._ready = threading.Event()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._load, name="ssdprof-engine-load", daemon=True)
        self._started = threading.Lock()
        self._busy = 0
        self._last_answer = time.monotonic()
        self._calls = threading.Lock()
        self.warmed = threading.Event()
        """Set once the PDF machinery is ready (or warming was not asked for, or failed)."""

    def start(self) -> None:
        """Starts loading (once; later calls do nothing)."""
        if self._started.acquire(blocking=False):
            self._thread.start()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def get(self, timeout_s: float = READY_TIMEOUT_S) -> EngineService:
        """The session, once made (loading starts now if it had not); EngineUnavailable with the reason when
        it could not be."""
        self.start()
        if not self._ready.wait(timeout_s):
            raise EngineUnavailable(f"the engine is still starting after {timeout_s:.0f} s")
        if self._service is None:
            raise EngineUnavailable(f"the engine could not start: {self._failure}")
        return self._service

    def answer(self, message: Any, *, text: bool = False) -> Any:
        """The JSON-RPC answer to ``message`` (``text``: as JSON text, a result serialised straight to it,
        ``rpc.answer_text``): waits while the engine loads; a failed start is said as an internal error,
        with its reason."""
        with self._calls:
            self._busy += 1
        try:
            return self._answer(message, text)
        finally:
            with self._calls:
                self._busy -= 1
                self._last_answer = time.monotonic()

    def _answer(self, message: Any, text: bool) -> Any:
        try:
            service = self.get()
        except EngineUnavailable as exc:
            from ssdprof.app.contract.errors import ERROR_CODES

            request_id = message.get("id") if isinstance(message, dict) else None
            return {"jsonrpc": "2.0", "id": request_id, "error": {"code": ERROR_CODES["internal_error"], "message": str(exc)}}
        from ssdprof.app.rpc import answer_text, handle_message

        return answer_text(service, message) if text else handle_message(service, message)

    def close(self) -> None:
        """Closes the session (made or still being made: then once it is). Warming, which only draws in
        memory, is left to end with the process."""
        self._closing.set()
        if self._thread.is_alive():
            self._ready.wait()
        if self._service is not None:
            self._service.close()

    def _load(self) -> None:
        try:
            from ssdprof.app.rpc import EngineService

            self._service = EngineService(self._db_path, self._notify, default_dir=self._default_dir,
                                          fio_executable=self._fio, ssh=self._ssh)
        except Exception as exc:  # the reason goes to every request, and to the log once
            self._failure = exc
            from ssdprof.store.errors import StoreError

            if isinstance(exc, StoreError):  # the results store's own one line says it all
                LOG.error("the engine could not start: %s", exc)
            else:
                LOG.exception("the engine could not start")
        finally:
            self._ready.set()
        try:
            if self._warm and self._service is not None:
                self._warm_when_quiet()
        finally:
            # what is loaded by now lives as long as the process: left out of the collector's full passes,
            # which otherwise walk it (matplotlib, SciPy, the store's summaries) inside whichever request
            # allocates next (0.11 s of Results' first opening of a 100-run sweep)
            gc.freeze()
            self.warmed.set()

    def _quiet_for(self) -> float:
        """How long no request has been answered (0 while one is)."""
        with self._calls:
            return 0.0 if self._busy else time.monotonic() - self._last_answer

    def _warm_when_quiet(self) -> None:
        while not self._closing.is_set() and (quiet := self._quiet_for()) < QUIET_S:
            self._closing.wait(QUIET_S - quiet)
        if self._closing.is_set():
            return
        started = time.monotonic()
        try:
            from ssdprof.report.warm import warm_up

            warm_up()
            LOG.info("PDF reports ready: their libraries, fonts and styles loaded in %.1f s", time.monotonic() - started)
        except Exception:  # a report that cannot be warmed still builds when asked, and says why then
            LOG.warning("warming the PDF report failed; the first report builds it from cold", exc_info=True)
