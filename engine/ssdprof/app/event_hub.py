"""Browser mode's notifications: kept in order with a sequence number, so a client that reconnects its
event stream picks up where it left off."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # browser mode starts serving before the engine has loaded
    from pydantic import BaseModel

__all__ = ["EventHub"]


class EventHub:
    """Notifications for browser clients: a bounded, numbered backlog that streams wait on."""

    def __init__(self, backlog: int = 5000) -> None:
        self._events: deque[tuple[int, str]] = deque(maxlen=backlog)
        self._seq = 0
        self._changed = threading.Condition()
        self.closed = False

    def publish(self, method: str, payload: BaseModel) -> None:
        from ssdprof.app.rpc import notification

        data = json.dumps(notification(method, payload), separators=(",", ":"))
        with self._changed:
            self._seq += 1
            self._events.append((self._seq, data))
            self._changed.notify_all()

    def after(self, seq: int, timeout_s: float) -> list[tuple[int, str]]:
        """Events numbered above ``seq``, waiting up to ``timeout_s`` for the first one."""
        with self._changed:
            self._changed.wait_for(lambda: self.closed or self._seq > seq, timeout=timeout_s)
            return [(n, data) for n, data in self._events if n > seq]

    @property
    def last(self) -> int:
        with self._changed:
            return self._seq

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()
