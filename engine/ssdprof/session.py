"""One client's session with the engine: the methods of ``contract.py``, whatever the transport.

A sweep runs in its own thread with its own store connection; its events go to ``notify`` as
``run.event`` notifications. ``rpc.py`` (stdio) and ``server.py`` (browser mode) wrap this.
"""

from __future__ import annotations

import platform
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from ssdprof import __version__
from ssdprof.ceph import parse_rbd
from ssdprof.contract import (
    ERROR_CODES,
    METHODS,
    CancelResult,
    DeleteResult,
    DevicesResult,
    EngineInfoResult,
    EngineLog,
    ExportParams,
    ExportResult,
    FieldRule,
    HostAddParams,
    HostParams,
    PlannedPoint,
    PresetInfo,
    PresetsResult,
    ReportParams,
    ResumeParams,
    RpcErrorData,
    RunEventNotification,
    RunResultEnvelope,
    RunsCompareParams,
    RunsListParams,
    RunsListResult,
    SpecCompareParams,
    SpecMatchParams,
    SweepEstimate,
    SweepInfo,
    SweepParams,
    SweepsResult,
    SweepStatus,
    TagParams,
    ValidateParams,
    ValidateResult,
    target_device,
)
from ssdprof.contract_analysis import CorrelationParams, ObserveParams, PredictParams, ScalingParams, SpecDeleteParams, SpecSaveParams
from ssdprof.devices import list_devices
from ssdprof.events import PointFinished, RunEvent, SweepFinished, SweepStarted
from ssdprof.fio import detect_fio
from ssdprof.hosts import SshSettings, parse_host
from ssdprof.interchange import export_csv
from ssdprof.portable import PortableUnavailable, portable_engine
from ssdprof.results import BIN_FIELDS, DirectionStats, RunResult
from ssdprof.runner import Runner
from ssdprof.session_analysis import Analysis
from ssdprof.session_hosts import Hosts
from ssdprof.session_predict import Models
from ssdprof.specs import bundled_spec_dir, default_user_spec_dir
from ssdprof.store import RunFilter, Store
from ssdprof.sweep import PRESETS, RemoteSpec, SweepSpec, build_sweep, estimate_s, preset
from ssdprof.targets import default_target_dir, device_region, plan_target, widest, with_whole_device
from ssdprof.workload import FIELD_RULES, FieldProblem, Workload, WorkloadError, parse_workload

__all__ = ["EngineService", "Notify", "RpcError"]

Notify = Callable[[str, BaseModel], None]
"""Sends a notification (method name, payload) to the client; must be safe from any thread."""

START_TIMEOUT_S = 120.0


class RpcError(Exception):
    def __init__(self, code: str, message: str, problems: list[FieldProblem] | None = None):
        super().__init__(message)
        self.code = code
        self.problems = problems or []

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": ERROR_CODES[self.code], "message": str(self)}
        if self.problems:
            error["data"] = RpcErrorData(problems=self.problems).model_dump(mode="json")
        return error


class _ActiveSweep:
    """The sweep running in its own thread, with its own store connection."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cancel = threading.Event()
        self.started = threading.Event()
        self.announced: SweepStarted | None = None
        self.error: BaseException | None = None
        self.finished_points = 0
        self.thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()


class EngineService:
    """The engine's operations for a GUI; one instance per client session."""

    def __init__(self, db_path: Path, notify: Notify, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None, spec_folders: tuple[Path | None, ...] | None = None):
        self.db_path = db_path
        self.notify = notify
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.ssh = ssh or SshSettings()
        self.store = Store(db_path)
        folders = spec_folders if spec_folders is not None else (bundled_spec_dir(), default_user_spec_dir())
        analysis = Analysis(self.store, folders)
        models = Models(analysis.runs, analysis.library, folders[-1] if len(folders) > 1 else None)  # bundled first, user last
        hosts = Hosts(self.store, self.ssh)
        self._lock = threading.Lock()
        self._sweep: _ActiveSweep | None = None
        self._handlers: dict[str, Callable[[Any], BaseModel]] = {
            "engine.info": lambda _: self.engine_info(),
            "workload.validate": self.validate,
            "presets.list": lambda _: self.presets(),
            "devices.list": lambda _: DevicesResult(devices=[target_device(d) for d in list_devices()]),
            "sweep.estimate": self.estimate,
            "sweep.start": self.start,
            "sweep.resume": self.resume,
            "sweep.cancel": lambda _: self.cancel(),
            "sweep.status": lambda _: self.status(),
            "sweeps.list": lambda _: SweepsResult(sweeps=[SweepInfo(**s) for s in self.store.list_sweeps()]),
            "runs.list": self.runs_list,
            "runs.get": lambda p: RunResultEnvelope(run=self._run(p.run_id)),
            "runs.tag": self.runs_tag,
            "runs.delete": lambda p: DeleteResult(deleted=self.store.delete_run(p.run_id)),
            "export.csv": self.export,
            "specs.list": lambda _: analysis.specs_list(),
            "specs.match": lambda p: analysis.specs_match(cast(SpecMatchParams, p)),
            "specs.compare": lambda p: analysis.specs_compare(cast(SpecCompareParams, p)),
            "specs.save": lambda p: models.save_spec(cast(SpecSaveParams, p)),
            "specs.delete": lambda p: DeleteResult(deleted=models.delete_spec(cast(SpecDeleteParams, p))),
            "runs.compare": lambda p: analysis.runs_compare(cast(RunsCompareParams, p)),
            "analysis.predict": lambda p: models.predict(cast(PredictParams, p)),
            "analysis.scaling": lambda p: models.scaling(cast(ScalingParams, p)),
            "analysis.observe": lambda p: models.observe(cast(ObserveParams, p)),
            "analysis.correlation": lambda p: models.correlation(cast(CorrelationParams, p)),
            "report.pdf": lambda p: analysis.report_pdf(cast(ReportParams, p)),
            "hosts.list": lambda _: hosts.list(),
            "hosts.add": lambda p: hosts.add(cast(HostAddParams, p)),
            "hosts.test": lambda p: hosts.test(cast(HostParams, p)),
            "hosts.remove": lambda p: DeleteResult(deleted=hosts.remove(cast(HostParams, p))),
        }

    def call(self, method: str, raw_params: Any) -> BaseModel:
        """Validate ``raw_params`` against the contract and run the method; raises RpcError."""
        spec = METHODS.get(method)
        if spec is None:
            raise RpcError("method_not_found", f"unknown method {method!r}; known: {', '.join(METHODS)}")
        if raw_params is None:
            raw_params = {}
        if not isinstance(raw_params, dict):
            raise RpcError("invalid_params", "params must be an object with named members",
                           [FieldProblem(field="params", flag="-", message=f"expected an object, got {type(raw_params).__name__}")])
        try:
            params = spec.params.model_validate(raw_params)
        except ValidationError as exc:
            raise RpcError("invalid_params", "invalid params", [_problem_from(e) for e in exc.errors()]) from None
        with self._lock:
            try:
                return self._handlers[method](params)
            except WorkloadError as exc:
                raise RpcError("invalid_params", str(exc), exc.problems) from None
            except KeyError as exc:
                raise RpcError("not_found", str(exc.args[0]) if exc.args else "not found") from None

    def close(self) -> None:
        """Cancel a running sweep and wait for it (fio is stopped by the PID we started)."""
        active = self._sweep
        if active is not None and active.thread is not None:
            active.cancel.set()
            active.thread.join(timeout=60)
        self.store.close()

    # ------------------------------------------------------------------------------ methods

    def engine_info(self) -> EngineInfoResult:
        fio = detect_fio(self.fio_executable)
        try:
            portable_engine("probe")
            portable, portable_reason = True, "available"
        except PortableUnavailable as exc:
            portable, portable_reason = False, str(exc)
        return EngineInfoResult(
            version=__version__, fio_path=fio.path if fio else None, fio_version=fio.version if fio else None,
            portable_available=portable, portable_reason=portable_reason,
            default_target=str(self.default_dir or default_target_dir()), db_path=str(self.db_path),
            platform=f"{platform.system()} {platform.release()}", defaults=Workload(),
            field_rules={name: FieldRule(flag=flag, allowed=allowed) for name, (flag, allowed) in FIELD_RULES.items()})

    def validate(self, params: ValidateParams) -> ValidateResult:
        try:
            workload = parse_workload(with_whole_device(params.workload.raw()))
            if params.check_target:
                plan_target(workload, self.default_dir)
        except WorkloadError as exc:
            return ValidateResult(ok=False, problems=exc.problems)
        return ValidateResult(ok=True, problems=[], workload=workload, label=workload.label(),
                              duration_s=workload.duration_s())

    def presets(self) -> PresetsResult:
        base = Workload()
        return PresetsResult(presets=[PresetInfo(name=name, description=desc, points=len(preset(name, base).points))
                                      for name, (desc, _) in PRESETS.items()])

    def estimate(self, params: SweepParams) -> SweepEstimate:
        spec = _sweep_spec(params)
        region = device_region(spec.points) if spec.remote is None else None
        layout = 0 if region else max(p.size_bytes for p in spec.points)
        return SweepEstimate(name=spec.name, points=[PlannedPoint(label=p.label(), workload=p) for p in spec.points],
                             repeats=spec.repeats, total_points=spec.total_points(), estimated_s=estimate_s(spec, layout),
                             layout_bytes=layout, device=target_device(region.device) if region else None,
                             overwrite_bytes=region.size_bytes if region and region.writes else 0,
                             region=region.sentence() if region else "")

    def start(self, params: SweepParams) -> SweepStarted:
        spec = _sweep_spec(params)
        if spec.remote is None:
            plan_target(widest(spec.points), self.default_dir)  # fail fast, before a sweep is stored
        return self._launch(spec, None, params.tags)

    def resume(self, params: ResumeParams) -> SweepStarted:
        stored = self.store.sweep(params.sweep_id) if params.sweep_id is not None else self.store.last_unfinished_sweep()
        if stored is None:
            raise KeyError("no unfinished sweep to resume" if params.sweep_id is None else f"sweep {params.sweep_id} does not exist")
        return self._launch(stored.spec, stored.id, {})

    def cancel(self) -> CancelResult:
        active = self._sweep
        if active is None or not active.running:
            return CancelResult(cancelled=False)
        active.cancel.set()
        return CancelResult(cancelled=True, sweep_id=active.announced.sweep_id if active.announced else None)

    def status(self) -> SweepStatus:
        active = self._sweep
        if active is None or not active.running or active.announced is None:
            return SweepStatus(running=False)
        return SweepStatus(running=True, sweep_id=active.announced.sweep_id, name=active.name,
                           total_points=active.announced.total_points,
                           finished_points=active.announced.already_done + active.finished_points)

    def runs_list(self, params: RunsListParams) -> RunsListResult:
        where = RunFilter(tag=params.tag or None, text=params.text or None, since=params.since or None,
                          sweep_id=params.sweep_id, limit=None if params.sweep_id is not None else params.limit)
        return RunsListResult(runs=[_light(r) for r in self.store.runs(where, light=True)], total=self.store.count_runs(where))

    def runs_tag(self, params: TagParams) -> RunResultEnvelope:
        bad = [k for k in params.tags if not k.strip()]
        if bad:
            raise WorkloadError.single("tags", "--tag", "a tag needs a key, e.g. interface=SATA")
        return RunResultEnvelope(run=self.store.set_tags(params.run_id, {k.strip(): v.strip() for k, v in params.tags.items()}))

    def export(self, params: ExportParams) -> ExportResult:
        runs = self.store.runs(RunFilter(sweep_id=params.sweep_id, limit=None)) if params.sweep_id is not None else []
        runs += [self._run(run_id) for run_id in params.run_ids]
        if not runs:
            raise WorkloadError.single("run_ids", "RUN_ID", "name at least one run id or a sweep id")
        name = f"ssdprof-sweep-{params.sweep_id}.csv" if params.sweep_id is not None else f"ssdprof-runs-{runs[0].id}.csv"
        return ExportResult(csv=export_csv(runs), filename=name, runs=len(runs))

    def _run(self, run_id: int) -> RunResult:
        run = self.store.run(run_id)
        if run is None:
            raise KeyError(f"run {run_id} does not exist")
        return run

    # ------------------------------------------------------------------------------ sweeps

    def _launch(self, spec: SweepSpec, resume_id: int | None, tags: dict[str, str]) -> SweepStarted:
        if self._sweep is not None and self._sweep.running:
            raise RpcError("busy", "a sweep is already running; cancel it or wait for it to finish")
        active = _ActiveSweep(spec.name)
        active.thread = threading.Thread(target=self._run_sweep, args=(active, spec, resume_id, tags),
                                         name="ssdprof-sweep", daemon=True)
        self._sweep = active
        active.thread.start()
        if not active.started.wait(START_TIMEOUT_S):
            active.cancel.set()
            raise RpcError("internal_error", f"the sweep did not start within {START_TIMEOUT_S:.0f} s")
        if active.error is not None:
            if isinstance(active.error, WorkloadError):
                raise active.error
            raise RpcError("internal_error", f"the sweep could not start: {active.error}")
        assert active.announced is not None
        return active.announced

    def _run_sweep(self, active: _ActiveSweep, spec: SweepSpec, resume_id: int | None, tags: dict[str, str]) -> None:
        def on_event(event: RunEvent) -> None:
            if isinstance(event, SweepStarted):
                active.announced = event
                active.started.set()
            elif isinstance(event, PointFinished):
                active.finished_points += 1
            self.notify("run.event", RunEventNotification(event=event))

        store = Store(self.db_path)
        try:
            runner = Runner(store, default_dir=self.default_dir, fio_executable=self.fio_executable, ssh=self.ssh)
            runner.run_sweep(spec, resume_id=resume_id, tags=tags, on_event=on_event, cancel=active.cancel)
        except Exception as exc:  # reported to the client: a sweep thread must never die silently
            active.error = exc
            if active.started.is_set():
                self.notify("engine.log", EngineLog(level="error", message=f"the sweep stopped: {exc}"))
                self.notify("run.event", RunEventNotification(event=SweepFinished(
                    sweep_id=active.announced.sweep_id if active.announced else None, status="failed", run_ids=[],
                    wall_s=0.0, layout_s=0.0)))
        finally:
            active.started.set()
            store.close()


def _sweep_spec(params: SweepParams) -> SweepSpec:
    base = parse_workload(with_whole_device(params.base.raw()) if not params.hosts else params.base.raw())
    if params.preset and params.factors:
        raise WorkloadError.single("preset", "--preset", "give either a preset or factors to vary, not both")
    if params.preset:
        spec = preset(params.preset, base, repeats=params.repeats)
    elif params.factors:
        # build_sweep parses each value as the CLI's strings are parsed; numbers pass through unchanged
        factors = cast(dict[str, list[str]], {k: list(v) for k, v in params.factors.items()})
        spec = build_sweep(base, factors, params.mode, params.repeats)
    else:
        spec = SweepSpec(name="run", points=[base], repeats=params.repeats)
    return spec.model_copy(update={"name": params.name or spec.name, "tags": {**spec.tags, **params.tags},
                                   "remote": _remote(params)})


def _remote(params: SweepParams) -> RemoteSpec | None:
    """Remote options, each host name checked (no option or shell syntax reaches ssh)."""
    if not params.hosts:
        if params.rbd or params.remote_dirs or params.remote_dir or params.remote_devices:
            raise WorkloadError.single("hosts", "--host", "remote options need at least one host")
        return None
    names = [parse_host(h).name for h in params.hosts]
    unknown = sorted((set(params.remote_dirs) | set(params.remote_devices)) - set(names))
    if unknown:
        raise WorkloadError.single("remote_dirs", "--remote-dir", f"given for hosts not in the run: {', '.join(unknown)}")
    if params.rbd:
        parse_rbd(params.rbd, params.ceph_user, params.ceph_conf)
    if len(set(names)) != len(names):
        raise WorkloadError.single("hosts", "--host", "each host may be named only once")
    return RemoteSpec(hosts=names, target_dir=params.remote_dir, target_dirs=dict(params.remote_dirs),
                      devices=dict(params.remote_devices), rbd=params.rbd,
                      ceph_conf=params.ceph_conf, ceph_user=params.ceph_user)


def _light(run: RunResult) -> RunResult:
    """A run without its time series and histogram bins, for lists."""
    def strip(stats: DirectionStats) -> DirectionStats:
        return stats.model_copy(update={key: {} for key in BIN_FIELDS})

    hosts = [h.model_copy(update={"read": strip(h.read), "write": strip(h.write)}) for h in run.hosts]
    return run.model_copy(update={"progress": [], "read": strip(run.read), "write": strip(run.write), "hosts": hosts})


def _problem_from(error: Any) -> FieldProblem:
    loc = [str(part) for part in error.get("loc", ())]
    field = loc[1] if len(loc) > 1 and loc[0] in ("workload", "base") else ".".join(loc) or "params"
    flag, allowed = FIELD_RULES.get(field, ("-", ""))
    detail = str(error.get("msg", "invalid"))
    if error.get("type") == "extra_forbidden":
        detail = "unknown field" + (f"; known fields are {', '.join(FIELD_RULES)}" if field not in FIELD_RULES else "")
    message = f"must be {allowed}; got {error.get('input')!r} ({detail})" if allowed else detail
    return FieldProblem(field=field, flag=flag, message=message)
