"""The method registry: each RPC method of the contract is answered by one handler that names it
(``@handles("sweep.start")``), so a search for the method's name leads from any call site to the code
that answers it; the service checks at start-up that every method of the contract has exactly one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from ssdprof.app.contract.errors import ERROR_CODES, RpcErrorData
from ssdprof.app.contract.methods import METHODS
from ssdprof.model.workload import FieldProblem

__all__ = ["Handler", "RpcError", "handlers_of", "handles"]

Handler = Callable[[Any], BaseModel]
F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__rpc_method__"


class RpcError(Exception):
    def __init__(self, code: str, message: str, problems: list[FieldProblem] | None = None):
        super().__init__(message)
        self.code = code
        self.problems = problems or []

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": ERROR_CODES[self.code], "message": str(self)}
        if self.problems:
            error["data"] = RpcErrorData(problems=self.problems).model_dump(mode="json")
        return error


def handles(method: str) -> Callable[[F], F]:
    """Marks a component's method as the handler of RPC ``method`` (a name of the contract's METHODS)."""
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a method of the contract (app/contract/methods.py)")

    def mark(function: F) -> F:
        setattr(function, _MARK, method)
        return function

    return mark


def handlers_of(components: Iterable[object]) -> dict[str, Handler]:
    """Every marked method of the components, by RPC name; refuses a method answered twice or not at all."""
    found: dict[str, Handler] = {}
    for component in components:
        for name in dir(type(component)):
            method = getattr(getattr(type(component), name, None), _MARK, None)
            if method is None:
                continue
            if method in found:
                raise RuntimeError(f"RPC method {method!r} has two handlers")
            found[method] = getattr(component, name)
    missing = sorted(set(METHODS) - set(found))
    if missing:
        raise RuntimeError(f"RPC method(s) without a handler: {', '.join(missing)}")
    return found
