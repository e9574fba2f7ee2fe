"""The base of ssdprof's recorded and computed values: frozen once made (a result, a setting, an
event's figures), so one is shared by every reader and never changed in place."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

__all__ = ["Entered", "Value"]


class Value(BaseModel):
    model_config = ConfigDict(frozen=True)


class Entered(Value):
    """A value a person or a file gives (a workload, a spec sheet): no field but its own. What it computes
    (its ``computed_field``s) it also sends, so what it sent may come back with them, e.g. a workload of a
    stored sweep or a sheet from the editor: those are dropped, not refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _computed_fields_are_not_input(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.keys().isdisjoint(cls.model_computed_fields):
            data = {k: v for k, v in data.items() if k not in cls.model_computed_fields}
        return data
