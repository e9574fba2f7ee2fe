"""What every RPC params and result model shares: params are frozen and refuse unknown fields; results are
frozen. Each is built (its validator and serializer made) when first used, not when imported: the engine
loads every method's models and a session uses a few of them (defer_build; pydantic's rebuild is
thread-safe)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
