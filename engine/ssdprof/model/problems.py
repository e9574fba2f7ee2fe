"""Bad input, said once and in ssdprof's own words: each problem names the field (as a person reads it),
the flag that sets it, the value given, what is allowed and an example.

Every request model registers its fields' rules here (:func:`register`); :func:`from_validation`
turns pydantic's errors into these problems, so no face shows the validation library's wording and
the CLI, the RPC and the GUI say the same thing about the same value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple, get_args

from pydantic import BaseModel, ValidationError, model_validator

from ssdprof.model.value import Value

__all__ = ["RULES", "Choice", "FieldProblem", "FieldRule", "Problems", "WorkloadError", "from_validation",
           "problem", "register", "shown"]


class Choice(Value):
    """One value of a field with a fixed list (an engine, a pattern), and the name a person reads."""

    value: str
    label: str


class FieldRule(NamedTuple):
    """How a field is named and what it takes: ``allowed`` is a range or list, ``example`` one good value."""

    flag: str
    allowed: str
    label: str = ""
    example: str = ""
    choices: tuple[Choice, ...] = ()


RULES: dict[str, FieldRule] = {}
"""Every request field's rule, by field name (a field name means the same thing in every request)."""


def register(rules: Mapping[str, FieldRule]) -> None:
    RULES.update(rules)


class FieldProblem(Value):
    field: str
    flag: str
    message: str
    label: str = ""
    """The field as a person reads it ("queue depth"); filled from the field's rule when not given."""

    @model_validator(mode="after")
    def _labelled(self) -> FieldProblem:
        if not self.label:
            rule = RULES.get(self.field)
            object.__setattr__(self, "label", rule.label if rule and rule.label else self.field.replace("_", " "))
        return self

    def __str__(self) -> str:
        return f"{self.label} ({self.flag}): {self.message}" if self.flag not in ("", "-") else f"{self.label}: {self.message}"


class WorkloadError(ValueError):
    """One or more fields are invalid; ``problems`` names each field."""

    def __init__(self, problems: list[FieldProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @classmethod
    def single(cls, field: str, flag: str, message: str) -> WorkloadError:
        return cls([FieldProblem(field=field, flag=flag, message=message)])


class Problems:
    """Collects every problem of a request before one WorkloadError is raised for them all."""

    def __init__(self) -> None:
        self.found: list[FieldProblem] = []

    @contextmanager
    def collect(self) -> Iterator[None]:
        """Runs a check; its WorkloadError's problems are kept instead of raised."""
        try:
            yield
        except WorkloadError as exc:
            self.found.extend(p for p in exc.problems if p not in self.found)

    def add(self, *problems: FieldProblem) -> None:
        self.found.extend(problems)

    def raise_any(self) -> None:
        if self.found:
            raise WorkloadError(list(self.found))


def shown(value: Any) -> str:
    """A value as the user typed it: numbers bare, other text quoted, long text cut."""
    if value is None or isinstance(value, bool):
        return {None: "nothing", True: "true", False: "false"}[value]
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return repr(value if len(value) <= 80 else value[:77] + "...")
        return value.strip()
    return repr(value)


def problem(field: str, detail: str, *, flag: str | None = None, with_rule: bool = True) -> FieldProblem:
    """``detail`` (what is wrong with the value), then what the field allows and an example."""
    rule = RULES.get(field)
    message = detail
    if with_rule and rule is not None and rule.allowed:
        message += f"; allowed {rule.allowed}" + (f", e.g. {rule.example}" if rule.example else "")
    return FieldProblem(field=field, flag=flag or (rule.flag if rule else "-"), message=message)


_WHAT_IS_WRONG = {
    **dict.fromkeys(("greater_than", "greater_than_equal", "less_than", "less_than_equal", "too_short", "too_long",
                     "finite_number"), "{value} is out of range"),
    **dict.fromkeys(("int_parsing", "int_from_float", "int_type"), "{value} is not a whole number"),
    **dict.fromkeys(("float_parsing", "float_type"), "{value} is not a number"),
    **dict.fromkeys(("enum", "literal_error"), "{value} is not one of the choices"),
    **dict.fromkeys(("bool_parsing", "bool_type"), "{value} is not true or false"),
    "string_too_long": "is too long",
    "missing": "is required",
}
"""pydantic's error types, in ssdprof's words (the field's rule follows each)."""


_BOUNDS = {"gt": "above {}", "ge": "{} or more", "lt": "below {}", "le": "at most {}",
           "min_length": "at least {} long", "max_length": "at most {} long"}


def _detail(error: Mapping[str, Any], ruled: bool) -> str:
    kind = str(error.get("type", ""))
    if kind in ("value_error", "assertion_error"):  # our own validators' words
        return str(error.get("msg", "")).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    detail = _WHAT_IS_WRONG.get(kind, "{value} is not valid here").format(value=shown(error.get("input")))
    bounds = [text.format(shown(error["ctx"][key])) for key, text in _BOUNDS.items() if key in (error.get("ctx") or {})]
    return detail + (f"; allowed {' and '.join(bounds)}" if bounds and not ruled else "")


def _fields_at(model: type[BaseModel] | None, loc: list[str]) -> list[str]:
    """The field names of the (nested) model that holds ``loc``'s last name, for an unknown field."""
    for name in loc[:-1]:
        if model is None or name not in model.model_fields:
            return []
        inner = model.model_fields[name].annotation
        candidates = [inner, *get_args(inner)]
        model = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
    return list(model.model_fields) if model is not None else []


def _item(loc: list[str], field: str | None) -> str:
    """Which item of a list field is wrong, and its part: ``points.2.iops`` reads "item 3, iops: "
    (one bad cell among many is found by its row)."""
    inner = loc[loc.index(field) + 1 :] if field in loc else []
    if not inner or not inner[0].isdigit():
        return ""
    part = ".".join(inner[1:])
    return f"item {int(inner[0]) + 1}" + (f", {part}" if part else "") + ": "


def from_validation(exc: ValidationError, model: type[BaseModel] | None = None) -> list[FieldProblem]:
    """pydantic's errors as problems: the field is the innermost name in the error's location that
    has a rule (``sweep.base.queue_depth`` is ``queue_depth``); a model-level rule's message starts
    with the field it is about (``"read_pct: ..."``)."""
    problems: list[FieldProblem] = []
    for error in exc.errors():
        loc = [str(part) for part in error.get("loc", ())]
        if error.get("type") == "extra_forbidden":
            names = ", ".join(_fields_at(model, loc))
            problems.append(FieldProblem(field=(loc[-1] if loc else "") or "params", flag="-", message="is not a field here"
                                         + (f"; known fields are {names}" if names else "")))
            continue
        field = next((part for part in reversed(loc) if part in RULES), None)
        detail = _item(loc, field) + _detail(error, ruled=field is not None)
        named, _, rest = detail.partition(": ")
        if named in RULES and rest:  # a model-level rule names the field it is about (inside a ruled one too)
            problems.append(problem(named, rest, with_rule=False))
            continue
        if field is None:
            field = ".".join(loc) or "params"
        found = problem(field, detail)
        if found not in problems:
            problems.append(found)
    return problems
