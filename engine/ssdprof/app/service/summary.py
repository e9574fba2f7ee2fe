"""The student's summary (``runs.summary``) and the spec sheet remembered per device
(``specs.remember``): a sheet chosen once for a drive the OS does not name is applied the next
time, by the app, the CLI and the PDF alike (:func:`spec_for`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdprof.analysis.spec_choice import device_identity, drive_environment, no_spec
from ssdprof.analysis.spec_library import SpecLibrary
from ssdprof.analysis.summary import StudentSummary, summarize
from ssdprof.app.contract.runs import SummaryParams
from ssdprof.app.contract.specs import SpecRememberParams, SpecRememberResult
from ssdprof.app.service.registry import handles
from ssdprof.app.spec_sheets import spec_for
from ssdprof.model.results import RunResult
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store

__all__ = ["Summaries", "remember_spec", "spec_for", "summary_for"]


def summary_for(store: Store, library: SpecLibrary, runs: Sequence[RunResult],
                chosen_id: str | None = None, *, compare_spec: bool = True,
                pool_same_setting: bool = False) -> StudentSummary:
    """The summary of ``runs`` against the sheet :func:`spec_for` picks for their device."""
    environment = drive_environment(runs[0])
    spec, pick = (spec_for(store, library, environment, chosen_id) if compare_spec
                  else (None, no_spec(environment)))
    return summarize(runs, spec, pick, pool_same_setting)


def remember_spec(store: Store, library: SpecLibrary, run: RunResult, spec_id: str | None) -> str:
    """Keeps ``spec_id`` (None: forgets) for the run's device; returns the device's name."""
    if spec_id is not None:
        library.get(spec_id)  # a sheet that does not exist is not remembered (KeyError)
    identity = device_identity(drive_environment(run))
    store.set_spec_choice(identity.key, identity.description, spec_id)
    return identity.description


@dataclass
class Summaries:
    store: Store
    runs: Callable[[Sequence[int]], list[RunResult]]
    library: Callable[[], SpecLibrary]

    @handles("runs.summary")
    def summary(self, params: SummaryParams) -> StudentSummary:
        # light runs (no per-second progress, no bins): the summary reads figures only, and a 100-run
        # sweep's whole documents took 0.6 s to load where these take a fifth of it
        runs = (self.store.runs(RunFilter(sweep_id=params.sweep_id, limit=None), light=True)
                if params.sweep_id is not None else [])
        runs += self._light(params.run_ids)
        if not runs:
            raise WorkloadError.single("run_ids", "RUN_ID",
                                       "name at least one run id or a sweep id")
        return summary_for(self.store, self.library(), runs, params.spec_id,
                           compare_spec=params.compare_spec,
                           pool_same_setting=params.pool_same_setting)

    def _light(self, run_ids: Sequence[int]) -> list[RunResult]:
        """The runs named, light, in the order named; KeyError names the first that does not exist."""
        if not run_ids:
            return []
        found = {r.id: r for r in self.store.runs(RunFilter(run_ids=tuple(run_ids), limit=None), light=True)}
        missing = next((i for i in run_ids if i not in found), None)
        if missing is not None:
            raise KeyError(f"run {missing} does not exist")
        return [found[i] for i in run_ids]

    @handles("specs.remember")
    def remember(self, params: SpecRememberParams) -> SpecRememberResult:
        run = self.runs([params.run_id])[0]
        device = remember_spec(self.store, self.library(), run, params.spec_id)
        return SpecRememberResult(device=device, spec_id=params.spec_id)
