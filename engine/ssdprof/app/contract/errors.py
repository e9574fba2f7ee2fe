"""The contract's errors: JSON-RPC's codes and ssdprof's own, each naming one failure; the problems
an invalid_params error carries; browser mode's token header."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ssdprof.app.contract.base import Result
from ssdprof.model.workload import FieldProblem

__all__ = ["ERROR_CODES", "TOKEN_HEADER", "RpcError", "RpcErrorData"]


ERROR_CODES: dict[str, int] = {
    "parse_error": -32700,
    "invalid_request": -32600,
    "method_not_found": -32601,
    "invalid_params": -32602,
    "internal_error": -32603,
    "not_found": -32001,
    "busy": -32002,
    "store_error": -32003,  # the results store refused or did not answer (its one line says which, and what to do)
    # Raised by the desktop shell and the renderer's transports, never by the engine: each names one failure.
    "file_not_written": -32093,
    "engine_gone": -32094,
    "bridge_missing": -32095,
    "download_refused": -32096,
    "http_error": -32097,
    "token_refused": -32098,
    "server_unreachable": -32099,
}

TOKEN_HEADER = "X-Ssdprof-Token"  # noqa: S105 - a header name, not a secret
"""Browser mode: the header carrying the per-launch token (the page's first load sets a cookie instead)."""


class RpcErrorData(Result):
    """``error.data`` of an invalid_params error: each problem names its field, as the CLI does."""

    problems: list[FieldProblem] = Field(default_factory=list)


class RpcError(Exception):
    """A failure the engine answers a request with: one of :data:`ERROR_CODES` by name, a message, and
    for invalid_params the problems field by field."""

    def __init__(self, code: str, message: str, problems: list[FieldProblem] | None = None):
        super().__init__(message)
        self.code = code
        self.problems = problems or []

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": ERROR_CODES[self.code], "message": str(self)}
        if self.problems:
            error["data"] = RpcErrorData(problems=self.problems).model_dump(mode="json")
        return error
