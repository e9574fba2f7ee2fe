"""The cool-down gate between a sweep's points: what the user asked for (:class:`CoolDownSpec`, on
the sweep) and what each point's wait was (:class:`CoolDownWait`, on its run).

A hot drive throttles, so a point measured right after a long write may measure the hot drive. The
gate waits before each point after the first until the drive is at or below ``to_c``, or has idled
``idle_s``, whichever comes first, and never longer than ``max_s``. A drive that reports no
temperature is idled instead: ``idle_s``, else ``max_s``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ssdprof.model.health import HealthSource
from ssdprof.model.value import Value

__all__ = ["COOL_TO_RANGE_C", "WAIT_RANGE_S", "CoolDownEnd", "CoolDownSpec", "CoolDownWait"]

COOL_TO_RANGE_C = (20.0, 100.0)
"""Temperatures a gate may wait for: below a room's, it would always wait its most; above 100 °C,
past every drive's critical threshold, it would never wait."""
WAIT_RANGE_S = (1.0, 3600.0)
"""How long a gate may idle or wait at most: a second to an hour."""

CoolDownEnd = Literal["cool", "idled", "at_most", "cancelled"]
"""cool: the drive reached the temperature; idled: the idle time passed (or, with no temperature,
the time idled in its place); at_most: the longest wait passed first; cancelled: the user
stopped."""


class CoolDownSpec(Value):
    """Before each point after the first: wait until the drive is at or below ``to_c`` or has idled
    ``idle_s``, at most ``max_s``."""

    to_c: float | None = Field(
        default=None, description="wait until the drive is at or below this, °C")
    idle_s: float | None = Field(
        default=None, description="or until it has idled this long (with no temperature: the wait)")
    max_s: float = Field(description="never wait longer than this")
    check_s: float = Field(default=2.0, gt=0, description="how often the temperature is read "
                           "(hwmon; SMART is asked no more often than every 5 s)")

    @model_validator(mode="after")
    def _one_form(self) -> CoolDownSpec:
        if self.to_c is None and self.idle_s is None:
            raise ValueError("a cool-down needs a temperature to wait for or an idle time")
        return self

    @property
    def longest_s(self) -> float:
        """The longest one wait can take."""
        return min(self.idle_s, self.max_s) if self.idle_s is not None else self.max_s

    @property
    def counted_s(self) -> float:
        """What one wait adds to an estimate for certain: the idle time, when no temperature can end
        it sooner; 0 for the temperature form (a cool drive does not wait)."""
        return self.longest_s if self.to_c is None else 0.0

    @property
    def fallback_s(self) -> float:
        """The wait of a drive that reports no temperature."""
        return self.longest_s

    def words(self) -> str:
        """e.g. 'before each point after the first: until the drive is at or below 45 °C, at most
        300 s'."""
        until = []
        if self.to_c is not None:
            until.append(f"the drive is at or below {self.to_c:g} °C")
        if self.idle_s is not None:
            until.append(f"it has idled {self.idle_s:g} s")
        most = f", at most {self.max_s:g} s" if self.to_c is not None else ""
        return f"before each point after the first, wait until {' or '.join(until)}{most}"


class CoolDownWait(Value):
    """The wait before one point, as it went."""

    waited_s: float = Field(description="seconds waited before the point started")
    start_c: float | None = Field(
        default=None, description="the drive's temperature as the wait began")
    end_c: float | None = Field(default=None, description="its temperature as the point started")
    source: HealthSource | None = Field(default=None, description="where the temperature came from")
    ended: CoolDownEnd
    note: str = Field(description="the wait in words, e.g. 'cooled from 52 °C to 45 °C in 40 s'")
