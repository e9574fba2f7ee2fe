"""Which stored runs: the filter every listing, search and analysis shares, as SQL on both databases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["RunFilter", "where_sql"]


@dataclass(frozen=True)
class RunFilter:
    tag: str | None = None
    """``key=value`` or a bare value matched against any tag."""
    text: str | None = None
    """Matched against target, device model, engine and source; words of the form key=value are tags."""
    since: str | None = None
    sweep_id: int | None = None
    limit: int | None = 500
    """The newest ``limit`` matching runs (returned oldest first); None for all of them."""
    tags: tuple[str, ...] = ()
    """More ``key=value`` (or bare) tags, all of which must match."""
    measured_by: str | None = None
    """Runs stored by this user."""
    measured_on: str | None = None
    """Runs stored from this machine."""
    run_ids: tuple[int, ...] | None = field(default=None)
    """Only these runs (None: any)."""


def _tag_clause(tag: str, clauses: list[str], params: list[object]) -> None:
    key, _, value = tag.strip().partition("=")
    if value:
        clauses.append("EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND t.key = ? AND t.value = ?)")
        params += [key.strip(), value.strip()]
    else:
        clauses.append("EXISTS (SELECT 1 FROM run_tags t WHERE t.run_id = r.id AND (t.key = ? OR t.value = ?))")
        params += [key.strip(), key.strip()]


def _words(text: str) -> tuple[list[str], list[str]]:
    """A search's tags (key=value) and its other words."""
    words = [w for w in text.replace(",", " ").split() if w]
    return [w for w in words if "=" in w], [w for w in words if "=" not in w]


def where_sql(where: RunFilter) -> tuple[str, list[object]]:
    """The filter as a WHERE clause over ``runs r`` and its parameters."""
    clauses: list[str] = ["1 = 1"]
    params: list[object] = []
    if where.sweep_id is not None:
        clauses.append("r.sweep_id = ?")
        params.append(where.sweep_id)
    text_tags, words = _words(where.text or "")
    for tag in [*([where.tag] if where.tag else []), *where.tags, *text_tags]:
        if tag.strip():
            _tag_clause(tag, clauses, params)
    for word in words:
        clauses.append("(r.target LIKE ? OR r.device_model LIKE ? OR r.engine LIKE ? OR r.source LIKE ?)")
        params += [f"%{word}%"] * 4
    if where.since:
        clauses.append("r.started_at >= ?")
        params.append(where.since)
    for column, value in (("measured_by", where.measured_by), ("measured_on", where.measured_on)):
        if value:
            clauses.append(f"r.{column} = ?")
            params.append(value)
    if where.run_ids is not None:
        clauses.append(_ids_clause(where.run_ids, params))
    return " AND ".join(clauses), params


def _ids_clause(ids: Sequence[int], params: list[object]) -> str:
    if not ids:
        return "1 = 0"
    params += list(ids)
    return f"r.id IN ({', '.join('?' * len(ids))})"
