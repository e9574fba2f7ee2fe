"""What every RPC params and result model shares: params are frozen and refuse unknown fields; results are
frozen. Each is built (its validator and serializer made) when first used, not when imported: the engine
loads every method's models and a session uses a few of them (defer_build; pydantic's rebuild is
thread-safe). A module of the contract declares its part as a :class:`Topic`."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

__all__ = ["MethodTable", "NoParams", "Params", "Result", "Topic"]

MethodTable = dict[str, tuple[type[BaseModel], type[BaseModel], str]]
"""Methods by name: (params, result, one-line summary)."""


class Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class NoParams(Params):
    pass


@dataclass(frozen=True)
class Topic:
    """A module's part of the contract (its ``TOPIC``): its methods and the notifications it sends.
    ``methods.py`` gathers every module's; a name declared twice is refused there."""

    methods: MethodTable
    notifications: dict[str, type[BaseModel]] = field(default_factory=dict)
