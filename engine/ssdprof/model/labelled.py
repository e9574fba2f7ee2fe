"""A fixed list of values (an engine, a trace format, a replay's timing), each with the words a person
reads for it, written beside it."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from typing_extensions import Self

__all__ = ["Labelled"]


class Labelled(str, enum.Enum):
    """A member is declared ``NAME = value, label``: ``value`` is what files, flags and the RPC carry,
    ``label`` what a form, the CLI and the report show. ``Kind(value)`` finds a member, as with any enum."""

    label: str

    if TYPE_CHECKING:  # what a type checker should read: Kind(value) is the look-up, a member's value its string

        @property
        def value(self) -> str: ...

    else:

        def __new__(cls, value: str, label: str) -> Self:
            member = str.__new__(cls, value)
            member._value_ = value
            member.label = label
            return member
