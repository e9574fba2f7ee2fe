"""What every RPC params and result model shares: params are frozen and refuse unknown fields; results are
frozen."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Result(BaseModel):
    model_config = ConfigDict(frozen=True)
