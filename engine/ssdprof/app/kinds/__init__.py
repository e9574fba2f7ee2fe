"""The registry of test kinds: every module of this folder but ``kind.py`` is one kind (or a part of
one) and registers it with :func:`register` when imported; :func:`kinds` imports them all once. Nothing
else names the kinds: a new one is a new module here (see ARCHITECTURE.md, "How to add a test kind")."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any, TypeVar

from ssdprof.app.kinds.kind import JobKind, TestKind

__all__ = ["job_kind_of", "kind", "kinds", "register"]

K = TypeVar("K", bound=TestKind[Any])
_KINDS: dict[str, TestKind[Any]] = {}


def register(found: K) -> K:
    """Adds a kind to the registry (its module's last line: ``PTS = register(PtsKind())``)."""
    if found.name in _KINDS and type(_KINDS[found.name]) is not type(found):
        raise RuntimeError(f"two test kinds are named {found.name!r}")
    _KINDS[found.name] = found
    return found


def kinds() -> dict[str, TestKind[Any]]:
    """Every kind, by name (each module of this folder imported once)."""
    _import_all()
    return dict(sorted(_KINDS.items()))


@functools.cache
def _import_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name != "kind":
            importlib.import_module(f"{__name__}.{module.name}")


def kind(name: str) -> TestKind[Any]:
    found = kinds().get(name)
    if found is None:
        raise KeyError(f"no test kind {name!r}; known: {', '.join(kinds())}")
    return found


def job_kind_of(found: TestKind[Any]) -> JobKind[Any, Any, Any]:
    """The kind whose job runs ``found``'s plans: itself, or the kind it runs as."""
    runner = kind(found.runs_as) if found.runs_as else found
    if not isinstance(runner, JobKind):
        raise TypeError(f"test kind {runner.name!r} runs no job of its own")
    return runner
