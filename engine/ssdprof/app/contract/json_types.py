"""A client's JSON values read by their JSON type: ``true`` and ``false`` are no numbers.

The params are read in pydantic's lax mode on purpose (a form sends "500000" or "4k" for a number
and the engine reads what was typed), and lax mode also reads ``true`` as 1 wherever a number is
asked. That one is a type confusion, never what a person typed: :func:`booleans_read_as_numbers`
finds where the validated params hold a number the client sent as true or false, by walking the
sent JSON beside what it became."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from ssdprof.model.problems import RULES, FieldProblem, problem

__all__ = ["booleans_read_as_numbers"]


def booleans_read_as_numbers(sent: Any, read: Any, path: tuple[str, ...] = ()) -> list[FieldProblem]:
    """A problem for each place ``sent`` holds true/false and ``read`` (the params) a number there."""
    if isinstance(sent, bool):
        if isinstance(read, int | float) and not isinstance(read, bool):
            where = next((part for part in reversed(path) if part in RULES), ".".join(path) or "params")
            return [problem(where, f"{str(sent).lower()} is true or false, not a number")]
        return []
    found: list[FieldProblem] = []
    for key, inner_sent, inner_read in _pairs(sent, read):
        found += booleans_read_as_numbers(inner_sent, inner_read, (*path, key))
    return found


def _pairs(sent: Any, read: Any) -> list[tuple[str, Any, Any]]:
    """The parts of ``sent`` beside what each became, where the shapes still match (a value a
    validator reshaped, such as tags typed as a list, is not followed)."""
    if isinstance(sent, dict) and isinstance(read, BaseModel):
        fields = type(read).model_fields
        names = {(f.alias or name): name for name, f in fields.items()} | {name: name for name in fields}
        return [(key, value, getattr(read, names[key])) for key, value in sent.items() if key in names]
    if isinstance(sent, dict) and isinstance(read, dict):
        return [(str(key), value, read[key]) for key, value in sent.items() if key in read]
    if isinstance(sent, list) and isinstance(read, list | tuple) and len(sent) == len(read):
        return [(str(i), s, r) for i, (s, r) in enumerate(zip(sent, read, strict=True))]
    return []
