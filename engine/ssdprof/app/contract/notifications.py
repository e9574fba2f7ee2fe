"""The contract's notifications that belong to no test kind: the engine's log lines and the desktop
shell's word on the engine. Each kind's events are its own contract module's (``sweeps.py``'s
``run.event``, ``pts.py``'s ``pts.event``, ``sustain.py``'s ``sustain.event``)."""

from __future__ import annotations

from typing import Literal

from ssdprof.app.contract.base import Result

__all__ = ["EngineLog", "EngineStatus"]


class EngineLog(Result):
    """``engine.log``: something the user should know that belongs to no request."""

    level: Literal["info", "warning", "error"]
    message: str


class EngineStatus(Result):
    """``engine.status``: sent by the desktop shell when the engine process stops or restarts."""

    state: Literal["ready", "restarting", "stopped"]
    message: str

