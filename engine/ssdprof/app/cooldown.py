"""The cool-down gate between a sweep's points: the request as every face types it
(:class:`CoolDownRequest`, in a :class:`~ssdprof.app.planner.SweepRequest`), planned by one rule
into the sweep's :class:`~ssdprof.model.cooldown.CoolDownSpec`; the wait itself before each point
(:func:`cool_down`), told live as :class:`~ssdprof.model.events.Cooling` and kept with the run
(:func:`with_wait`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ssdprof.model.cooldown import (
    COOL_TO_RANGE_C,
    WAIT_RANGE_S,
    CoolDownEnd,
    CoolDownSpec,
    CoolDownWait,
)
from ssdprof.model.events import Cooling, RunEvent
from ssdprof.model.problems import FieldRule, Problems, problem, register, shown
from ssdprof.model.quantities import parse_duration_s
from ssdprof.model.results import RunResult, Severity, ValidityWarning
from ssdprof.target.health_run import Reading, read_temperature

__all__ = ["DEFAULT_MAX_S", "CoolDownRequest", "Thermometer", "cool_down", "gate_before",
           "plan_cool_down", "with_wait"]

DEFAULT_MAX_S = 300.0
"""The longest wait for a temperature when none is given: five minutes cool most drives from a
throttling temperature; a drive that needs longer is named on its point."""

_LOW_C, _HIGH_C = COOL_TO_RANGE_C
_LOW_S, _HIGH_S = WAIT_RANGE_S
register({
    "cool_to_c": FieldRule("--cool-to", f"{_LOW_C:g}–{_HIGH_C:g} °C", "cool down to", "45"),
    "cool_idle_s": FieldRule("--cool-idle", f"{_LOW_S:g} s–{_HIGH_S / 3600:g} h",
                             "idle between points", "30s"),
    "cool_max_s": FieldRule("--cool-max", f"{_LOW_S:g} s–{_HIGH_S / 3600:g} h, at least the idle "
                            f"time (default {DEFAULT_MAX_S:g} s with a temperature to wait for)",
                            "wait at most", "300s"),
})

Thermometer = Callable[[], Reading]
"""Reads the drive's temperature now (target.health_run.read_temperature, bound to a device)."""


class CoolDownRequest(BaseModel):
    """The gate as typed: a temperature (``45``), an idle time and a limit (``30``, ``"30s"``,
    ``"2m"``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cool_to_c: float | str | None = None
    cool_idle_s: float | str | None = None
    cool_max_s: float | str | None = None


def plan_cool_down(request: CoolDownRequest | None, *, on_hosts: bool) -> CoolDownSpec | None:
    """The gate of a sweep; raises WorkloadError naming every bad field at once."""
    if request is None or all(v in (None, "") for v in request.model_dump().values()):
        return None
    problems = Problems()
    to_c = _number(problems, "cool_to_c", request.cool_to_c, COOL_TO_RANGE_C, float)
    idle_s = _number(problems, "cool_idle_s", request.cool_idle_s, WAIT_RANGE_S, parse_duration_s)
    max_s = _number(problems, "cool_max_s", request.cool_max_s, WAIT_RANGE_S, parse_duration_s)
    given = {k: v not in (None, "") for k, v in request.model_dump().items()}
    if not given["cool_to_c"] and not given["cool_idle_s"]:
        problems.add(problem("cool_to_c", "a cool-down limit needs a temperature to wait for "
                             "(Cool down to, --cool-to) or an idle time (Or idle for, --cool-idle)"))
    if given["cool_to_c"] and on_hosts:
        problems.add(problem("cool_to_c", "the temperature is read from this machine's drive, not "
                             "the hosts'; give an idle time (Or idle for, --cool-idle) to let the "
                             "hosts' drives rest between points", with_rule=False))
    if idle_s is not None and max_s is not None and idle_s > max_s:
        problems.add(problem("cool_max_s", f"{max_s:g} s is shorter than the idle time "
                             f"({idle_s:g} s): the idle time would never pass"))
    problems.raise_any()
    if to_c is None and idle_s is None:
        return None  # only a bad value was given, and named above
    most = max_s if max_s is not None else (
        idle_s if to_c is None and idle_s is not None else max(DEFAULT_MAX_S, idle_s or 0.0))
    return CoolDownSpec(to_c=to_c, idle_s=idle_s, max_s=most)


def _number(problems: Problems, field: str, given: float | str | None, allowed: tuple[float, float],
            parse: Callable[[str], float]) -> float | None:
    if given is None or given == "":
        return None
    try:
        value = float(given) if isinstance(given, (int, float)) else parse(given.strip())
    except ValueError:
        problems.add(problem(field, f"{shown(given)} is not a number"))
        return None
    if not allowed[0] <= value <= allowed[1]:
        problems.add(problem(field, f"{shown(given)} is out of range"))
        return None
    return value


def gate_before(spec: CoolDownSpec, *, device: str, on_hosts: bool, number: int,
                emit: Callable[[RunEvent], None], cancel: threading.Event,
                sys_root: Path | None = Path("/sys")) -> CoolDownWait:
    """The wait before point ``number``: this machine's drive (``device``, e.g. nvme0n1) is read
    (hwmon under ``sys_root``, else SMART); hosts' drives are not, so their points idle."""
    if not device:
        why = ("the hosts' drives are not read between points" if on_hosts
               else "the drive beneath the target is not known")
        return cool_down(spec, number=number, read=None, emit=emit, cancel=cancel, no_sensor=why)
    return cool_down(spec, number=number, emit=emit, cancel=cancel,
                     read=lambda: read_temperature(device, sys_root=sys_root))


def cool_down(spec: CoolDownSpec, *, number: int, read: Thermometer | None,
              emit: Callable[[RunEvent], None], cancel: threading.Event,
              no_sensor: str = "") -> CoolDownWait:
    """Waits before point ``number`` as ``spec`` asks, telling each check; ``read`` None: no drive
    to read (``no_sensor`` says why), so the gate idles."""
    started = time.monotonic()
    now = read() if read is not None else Reading(None, None, no_sensor)
    start = now
    gauged = spec.to_c is not None and now.celsius is not None  # the temperature can end the wait
    most_s = spec.longest_s
    ended: CoolDownEnd
    while True:
        waited_s = time.monotonic() - started
        if gauged and spec.to_c is not None and (now.celsius or 0.0) <= spec.to_c:
            ended = "cool"
            break
        if waited_s >= most_s:
            ended = "idled" if spec.idle_s is not None or not gauged else "at_most"
            break
        emit(_event(spec, number=number, start=start, now=now, waited_s=waited_s, most_s=most_s,
                    done=False))
        if cancel.wait(min(spec.check_s, most_s - waited_s)):
            ended = "cancelled"
            break
        if read is not None and start.celsius is not None:
            now = read()
    waited_s = time.monotonic() - started
    note = _note(spec, ended, start, now, waited_s)
    last = _event(spec, number=number, start=start, now=now, waited_s=waited_s, most_s=most_s,
                  done=True)
    emit(last.model_copy(update={"text": f"cool-down before point {number}: {note}"}))
    return CoolDownWait(waited_s=round(waited_s, 1), start_c=start.celsius, end_c=now.celsius,
                        source=now.source or start.source, ended=ended, note=note)


def _c(value: float) -> str:
    return f"{value:.0f} °C"


def _event(spec: CoolDownSpec, *, number: int, start: Reading, now: Reading, waited_s: float,
           most_s: float, done: bool) -> Cooling:
    before = f"before point {number}"
    if spec.to_c is not None and now.celsius is not None:
        text = (f"cooling {before}: {_c(now.celsius)} → {_c(spec.to_c)}, {waited_s:.0f} s "
                f"(at most {most_s:.0f} s)")
    else:
        drive = f", the drive at {_c(now.celsius)}" if now.celsius is not None else ""
        why = f" (no temperature: {start.why_none})" if spec.to_c is not None else ""
        text = f"idling {before}: {waited_s:.0f} s of {most_s:.0f} s{drive}{why}"
    return Cooling(number=number, celsius=now.celsius, start_c=start.celsius, target_c=spec.to_c,
                   waited_s=round(waited_s, 1), most_s=most_s, done=done, text=text)


def _note(spec: CoolDownSpec, ended: CoolDownEnd, start: Reading, end: Reading,
          waited_s: float) -> str:
    took = f"{waited_s:.0f} s"
    if ended == "cancelled":
        return f"cancelled after {took} of cooling down"
    if start.celsius is None:
        if spec.to_c is None:
            return f"idled {took}"
        return f"no temperature from the drive ({start.why_none}): idled {took} in its place"
    went = (f"{_c(start.celsius)} → {_c(end.celsius)}" if end.celsius is not None
            else _c(start.celsius))
    if ended == "cool":
        return (f"the drive was at {_c(start.celsius)}, at or below {_c(spec.to_c or 0)}: no wait"
                if waited_s < 1 else f"cooled {went} in {took}")
    if spec.to_c is None:
        return f"idled {took} (the drive {went})"
    most = "the idle time" if ended == "idled" else "the longest wait"
    return f"waited {most}, {took}: the drive {went}, still above {_c(spec.to_c)}"


def with_wait(result: RunResult, wait: CoolDownWait, spec: CoolDownSpec) -> RunResult:
    """The run with the wait before it recorded, and a word where the drive was not cooled."""
    warnings = list(result.warnings)
    rates = ["read.iops", "write.iops", "read.bw_bytes_per_s", "write.bw_bytes_per_s"]
    if spec.to_c is not None and wait.start_c is None and wait.ended != "cancelled":
        warnings.append(ValidityWarning(
            code="cool_down_no_temperature", severity=Severity.INFO,
            message=f"the cool-down read no temperature, so it idled instead: {wait.note}"))
    elif spec.to_c is not None and wait.end_c is not None and wait.end_c > spec.to_c:
        warnings.append(ValidityWarning(
            code="cool_down_still_hot", concerns=rates,
            message=f"the drive was at {_c(wait.end_c)} when this point started, above the "
                    f"{_c(spec.to_c)} asked ({wait.note}): a hot drive may throttle; allow a "
                    "longer wait (Wait at most, --cool-max) or cool the drive"))
    return result.model_copy(update={"cool_down": wait, "warnings": warnings})
