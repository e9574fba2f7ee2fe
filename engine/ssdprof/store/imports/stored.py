"""Imported runs kept: each under its source's key (``Provenance.uid``), so a file imported again is
recognised and its runs are not stored twice."""

from __future__ import annotations

from dataclasses import dataclass, field

from ssdprof.model.results import RunResult
from ssdprof.store.db import Store
from ssdprof.store.imports.recognise import Recognised

__all__ = ["StoredImport", "store_recognised"]


@dataclass
class StoredImport:
    source: str
    format: str
    stored: list[RunResult] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    """Runs of this source stored before (the same bytes imported again), by id."""
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line: what was stored and what was there already."""
        parts = []
        if self.stored:
            parts.append(f"{len(self.stored)} run(s) stored ({_ids([r.id or 0 for r in self.stored])})")
        if self.already:
            parts.append(f"{len(self.already)} already stored from the same content ({_ids(self.already)}): not stored again")
        return f"{self.source} ({self.format}): " + "; ".join(parts)


def _ids(ids: list[int]) -> str:
    ordered = sorted(ids)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"runs {ordered[0]}–{ordered[-1]}"
    return "run " + ", ".join(map(str, ordered)) if len(ordered) == 1 else "runs " + ", ".join(map(str, ordered))


def store_recognised(store: Store, batch: list[Recognised]) -> list[StoredImport]:
    """Every run not stored before, under its source's key; the ones stored before are named."""
    uids = [run.imported.uid for found in batch for run in found.runs if run.imported is not None]
    known = store.stored_uids(uids)
    done: list[StoredImport] = []
    for found in batch:
        kept = StoredImport(found.source, found.format, notes=list(found.notes))
        for run in found.runs:
            uid = run.imported.uid if run.imported is not None else None
            if uid is not None and uid in known:
                kept.already.append(known[uid])
                continue
            stored = store.add_run(run, uid=uid)
            if uid is not None:
                known[uid] = stored.id or 0
            kept.stored.append(stored)
        done.append(kept)
    return done
