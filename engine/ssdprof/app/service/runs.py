"""Stored runs in the app: listed light (no time series, no bins), fetched whole, tagged, deleted, and
written as CSV."""

from __future__ import annotations

from dataclasses import dataclass

from ssdprof.app.contract.runs import (
    DeleteResult,
    ExportParams,
    ExportResult,
    RunIdParams,
    RunResultEnvelope,
    RunsListParams,
    RunsListResult,
    TagParams,
)
from ssdprof.app.service.registry import handles
from ssdprof.model.results import RunResult
from ssdprof.model.workload import WorkloadError
from ssdprof.store.db import RunFilter, Store
from ssdprof.store.interchange import export_csv

__all__ = ["Runs"]


@dataclass
class Runs:
    store: Store

    @handles("runs.list")
    def list(self, params: RunsListParams) -> RunsListResult:
        every = params.sweep_id is not None or params.run_ids is not None
        where = RunFilter(tag=params.tag or None, text=params.text or None, since=params.since or None,
                          sweep_id=params.sweep_id, limit=None if every else params.limit,
                          run_ids=tuple(params.run_ids) if params.run_ids is not None else None)
        return RunsListResult(runs=self.store.runs(where, light=True), total=self.store.count_runs(where))

    @handles("runs.get")
    def get(self, params: RunIdParams) -> RunResultEnvelope:
        return RunResultEnvelope(run=self.run(params.run_id))

    @handles("runs.tag")
    def tag(self, params: TagParams) -> RunResultEnvelope:
        bad = [k for k in params.tags if not k.strip()]
        if bad:
            raise WorkloadError.single("tags", "--tag", "a tag needs a key, e.g. interface=SATA")
        return RunResultEnvelope(run=self.store.set_tags(params.run_id, {k.strip(): v.strip() for k, v in params.tags.items()}))

    @handles("runs.delete")
    def delete(self, params: RunIdParams) -> DeleteResult:
        return DeleteResult(deleted=self.store.delete_run(params.run_id))

    @handles("export.csv")
    def export(self, params: ExportParams) -> ExportResult:
        runs = self.store.runs(RunFilter(sweep_id=params.sweep_id, limit=None)) if params.sweep_id is not None else []
        runs += [self.run(run_id) for run_id in params.run_ids]
        if not runs:
            raise WorkloadError.single("run_ids", "RUN_ID", "name at least one run id or a sweep id")
        name = f"ssdprof-sweep-{params.sweep_id}.csv" if params.sweep_id is not None else f"ssdprof-runs-{runs[0].id}.csv"
        return ExportResult(csv=export_csv(runs), filename=name, runs=len(runs))

    def run(self, run_id: int) -> RunResult:
        run = self.store.run(run_id)
        if run is None:
            raise KeyError(f"run {run_id} does not exist")
        return run

