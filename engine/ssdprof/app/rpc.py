"""JSON-RPC 2.0 for the desktop app: the envelope, and stdio framing.

:func:`handle_message` turns one JSON-RPC request (or batch) into its response using an
:class:`~ssdprof.session.EngineService`; :func:`serve_stdio` reads one request per line on stdin
and writes responses and notifications, one per line, on stdout. Browser mode (``server.py``)
puts the same service behind HTTP.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

from pydantic import BaseModel

from ssdprof.app.service.engine import EngineService, RpcError

__all__ = ["EngineService", "RpcError", "answer_text", "handle_message", "notification", "serve_stdio"]


# ---------------------------------------------------------------------------------- envelope


class _Answer(NamedTuple):
    """A request's result, serialised only when sent (as a dict, or by pydantic straight to text)."""

    request_id: Any
    result: BaseModel

    def as_dict(self) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": self.request_id, "result": self.result.model_dump(mode="json")}

    def as_text(self) -> str:
        return f'{{"jsonrpc":"2.0","id":{json.dumps(self.request_id)},"result":{self.result.model_dump_json()}}}'


def handle_message(service: EngineService, message: Any) -> Any:
    """The response to one JSON-RPC request or batch; None for notifications (no id)."""
    found = _handle(service, message)
    if isinstance(found, list):
        return [r.as_dict() if isinstance(r, _Answer) else r for r in found]
    return found.as_dict() if isinstance(found, _Answer) else found


def answer_text(service: EngineService, message: Any) -> str | None:
    """:func:`handle_message`'s response as JSON text (UTF-8, not ASCII: for HTTP, not a console), each
    result serialised by pydantic straight to text (a 100-run sweep's list of 8-host runs, 2 MB: 8 ms,
    where a dict and json.dumps take 35 ms)."""
    found = _handle(service, message)
    if found is None:
        return None
    if isinstance(found, list):
        return f"[{','.join(r.as_text() if isinstance(r, _Answer) else json.dumps(r) for r in found)}]"
    return found.as_text() if isinstance(found, _Answer) else json.dumps(found)


def _handle(service: EngineService, message: Any) -> list[_Answer | dict[str, Any]] | _Answer | dict[str, Any] | None:
    if isinstance(message, list):
        responses = [r for r in (_handle_one(service, m) for m in message) if r is not None]
        if not message:
            return _error(None, RpcError("invalid_request", "an empty batch"))
        return responses or None
    return _handle_one(service, message)


def _handle_one(service: EngineService, message: Any) -> _Answer | dict[str, Any] | None:
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
        return _error(message.get("id") if isinstance(message, dict) else None,
                      RpcError("invalid_request", "expected {jsonrpc: '2.0', method, params?, id?}"))
    request_id = message.get("id")
    try:
        result = service.call(message["method"], message.get("params"))
    except RpcError as exc:
        return _error(request_id, exc) if "id" in message else None
    except Exception as exc:  # an engine bug must answer the request, not kill the session
        return _error(request_id, RpcError("internal_error", f"{type(exc).__name__}: {exc}")) if "id" in message else None
    if "id" not in message:
        return None
    return _Answer(request_id, result)


def _error(request_id: Any, error: RpcError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}


def notification(method: str, payload: BaseModel) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": payload.model_dump(mode="json")}


# ------------------------------------------------------------------------------------- stdio


class _Shutdown(Exception):
    pass


def serve_stdio(db_path: Path) -> int:
    """Serve until stdin closes or SIGTERM; a running sweep is cancelled and waited for first."""
    out = sys.stdout
    write_lock = threading.Lock()

    def send(payload: Any) -> None:
        line = json.dumps(payload, separators=(",", ":"))
        with write_lock:
            out.write(line + "\n")
            out.flush()

    service = EngineService(db_path, lambda method, payload: send(notification(method, payload)))

    def stop(signum: int, frame: FrameType | None) -> None:
        raise _Shutdown

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except json.JSONDecodeError as exc:
                send(_error(None, RpcError("parse_error", f"not JSON: {exc}")))
                continue
            response = handle_message(service, message)
            if response is not None:
                send(response)
    except (_Shutdown, KeyboardInterrupt):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        service.close()
    return 0
