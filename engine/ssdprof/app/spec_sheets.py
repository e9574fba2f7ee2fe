"""The user's own spec sheets saved and deleted: one rule for the app (``specs.save``,
``specs.delete``) and the CLI (``ssdprof specs add|delete``), in the same words; and the sheet for a
device (:func:`spec_for`), light enough for ``ssdprof compare`` to load without the RPC service."""

from __future__ import annotations

from pathlib import Path

from ssdprof.analysis.spec_choice import SpecPick, device_identity, pick_spec
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.specs import Spec, delete_spec, write_spec
from ssdprof.model.results import Environment
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import Store

__all__ = ["delete_own_spec", "save_own_spec", "spec_for"]


def spec_for(store: Store, library: SpecLibrary, environment: Environment,
             chosen_id: str | None = None) -> tuple[Spec | None, SpecPick]:
    """The sheet asked for, else the one remembered for the device, else the one matching it."""
    remembered = store.spec_choice(device_identity(environment).key)
    return pick_spec(library, environment, chosen_id, remembered)


def save_own_spec(library: SpecLibrary, folder: Path, spec: Spec, *, replace: bool) -> tuple[Path, bool]:
    """Writes ``spec`` into ``folder``; returns where, and whether it overrides a bundled sheet."""
    path = folder / f"{spec.id}.json"
    if path.exists() and not replace:
        raise WorkloadError.single("spec.id", "ID", f"you already have a spec sheet with id {spec.id!r}; "
                                   "choose another id, or save with replace to overwrite it")
    try:
        written = write_spec(spec, folder)
    except OSError as exc:
        raise WorkloadError.single("spec.id", "ID", f"cannot write {path}: {exc.strerror}") from None
    origin = library.origins.get(spec.id)
    return written, origin is not None and origin.parent != folder


def delete_own_spec(library: SpecLibrary, folder: Path, spec_id: str) -> None:
    """Deletes the user's sheet ``spec_id``; a bundled sheet is refused, an unknown one a KeyError."""
    if delete_spec(spec_id, folder):
        return
    if spec_id in library.specs:
        raise WorkloadError.single("spec_id", "ID", f"{spec_id!r} is a bundled spec sheet and cannot be "
                                   "deleted; save your own copy with the same id to override it")
    raise KeyError(f"no spec with id {spec_id!r}; see: ssdprof specs list")
