"""The engine's RPC called as a transport would (``handle_message``), with the notifications it sends collected:
the client the RPC tests share (``client`` fixture in tests/app/conftest.py)."""

from __future__ import annotations

import queue
import time
from typing import Any

from ssdprof.app.rpc import EngineService, handle_message

SHORT = {"runtime_s": 1, "ramp_s": 0, "size_bytes": "32MiB"}
"""A workload's short settings for tests that measure for real."""


class Client:
    """Calls the service as a transport would, collecting its notifications."""

    def __init__(self, service: EngineService, notes: queue.Queue[dict[str, Any]]):
        self.service = service
        self.notes = notes
        self._id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._id, "method": method}
        if params is not None:
            message["params"] = params
        response = handle_message(self.service, message)
        assert response["id"] == self._id
        return dict(response)

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        response = self.request(method, params)
        assert "error" not in response, response["error"]
        return response["result"]

    def events_until(self, kind: str, timeout_s: float = 60, notification: str = "run.event") -> list[dict[str, Any]]:
        """The events of one notification (run.event, pts.event) up to the first of ``kind``."""
        events: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            note = self.notes.get(timeout=max(deadline - time.monotonic(), 0.01))
            if note["method"] == notification:
                events.append(note["params"]["event"])
                if events[-1]["kind"] == kind:
                    return events
        raise AssertionError(f"no {kind} event within {timeout_s} s; saw {[e['kind'] for e in events]}")
