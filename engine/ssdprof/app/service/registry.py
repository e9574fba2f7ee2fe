"""The method registry: each RPC method of the contract is answered by one handler that names it
(``@handles("sweep.start")``), so a search for the method's name leads from any call site to the code
that answers it; the service checks at start-up that every method of the contract has exactly one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from ssdprof.app.contract.errors import RpcError
from ssdprof.app.contract.methods import METHODS

__all__ = ["Handler", "RpcError", "handlers_of", "handles"]

Handler = Callable[[Any], BaseModel]
F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__rpc_method__"


def handles(method: str) -> Callable[[F], F]:
    """Marks a component's method as the handler of RPC ``method`` (a name of the contract's METHODS)."""
    if method not in METHODS:
        raise ValueError(f"{method!r} is not a method of the contract (app/contract/methods.py)")

    def mark(function: F) -> F:
        setattr(function, _MARK, method)
        return function

    return mark


def handlers_of(components: Iterable[object], bound: dict[str, Handler] | None = None) -> dict[str, Handler]:
    """Every marked method of the components and every ``bound`` handler (the test kinds', named by
    each kind), by RPC name; refuses a method answered twice or not at all."""
    found: dict[str, Handler] = {}
    for name, handler in (bound or {}).items():
        if name not in METHODS:
            raise ValueError(f"{name!r} is not a method of the contract (app/contract/methods.py)")
        found[name] = handler
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
