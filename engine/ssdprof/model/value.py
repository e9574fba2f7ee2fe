"""The base of ssdprof's recorded and computed values: frozen once made (a result, a setting, an
event's figures), so one is shared by every reader and never changed in place."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Value"]


class Value(BaseModel):
    model_config = ConfigDict(frozen=True)
