"""JSON-RPC 2.0 over stdio for the desktop app (filled out with the GUI)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["serve_stdio"]


def serve_stdio(db_path: Path) -> int:
    raise NotImplementedError
