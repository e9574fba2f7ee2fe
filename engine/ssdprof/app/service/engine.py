"""One client's session with the engine: every method of the contract, whatever the transport.

The session is made of the test kinds' methods (``kinds.py``, through the one job layer) and of
components (runs, analysis, models, hosts, and the engine's own facts here), each answering the
methods it marks with ``@handles``; ``app/rpc.py`` (stdio) and ``app/server.py`` (browser mode) wrap it.
"""

from __future__ import annotations

import platform
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ssdprof import __version__
from ssdprof.analysis.spec_folders import bundled_spec_dir, default_user_spec_dir
from ssdprof.app.contract.base import Params
from ssdprof.app.contract.json_types import booleans_read_as_numbers
from ssdprof.app.contract.methods import METHODS
from ssdprof.app.contract.runs import (
    DevicesResult,
    EngineInfoResult,
    FieldRule,
    PresetsResult,
    ValidateParams,
    ValidateResult,
    field_conditions,
    target_device,
)
from ssdprof.app.jobs import Jobs, Notify
from ssdprof.app.kinds.kind import Context
from ssdprof.app.planner import check_base
from ssdprof.app.service.analysis import Analysis
from ssdprof.app.service.charts import Charts
from ssdprof.app.service.drive import Drives
from ssdprof.app.service.hosts import Hosts
from ssdprof.app.service.imports import Imports
from ssdprof.app.service.kinds import kind_handlers
from ssdprof.app.service.predict import Models
from ssdprof.app.service.registry import Handler, RpcError, handlers_of, handles
from ssdprof.app.service.run_queries import RunQueries
from ssdprof.app.service.runs import Runs
from ssdprof.app.service.scale_up import ScaleUp
from ssdprof.app.service.summary import Summaries
from ssdprof.app.service.trace import Traces
from ssdprof.fio.runner import detect_fio
from ssdprof.model.problems import RULES, from_validation
from ssdprof.model.workload import FieldProblem, Workload, WorkloadError
from ssdprof.portable import PortableUnavailable, portable_engine
from ssdprof.remote.ssh import SshSettings
from ssdprof.store.db import Store
from ssdprof.store.errors import StoreError, SweepHeld
from ssdprof.target.devices import list_devices
from ssdprof.target.plan import default_target_dir

__all__ = ["EngineService", "Notify", "RpcError"]


class EngineService:
    """The engine's operations for a GUI; one instance per client session."""

    def __init__(self, db_path: Path, notify: Notify, *, default_dir: Path | None = None, fio_executable: str = "fio",
                 ssh: SshSettings | None = None, spec_folders: tuple[Path | None, ...] | None = None):
        self.db_path = db_path
        self.default_dir = default_dir
        self.fio_executable = fio_executable
        self.store = Store(db_path)
        ssh = ssh or SshSettings()
        folders = spec_folders if spec_folders is not None else (bundled_spec_dir(), default_user_spec_dir())
        analysis = Analysis(self.store, folders)
        models = Models(analysis.summaries, analysis.library, folders[-1] if len(folders) > 1 else None)  # bundled first, user last
        ctx = Context(self.store, db_path=db_path, default_dir=default_dir, fio_executable=fio_executable, ssh=ssh,
                      library=analysis.library)
        self.jobs = Jobs(ctx, notify)
        """The one measurement running in this session, whatever its kind."""
        self._lock = threading.Lock()
        self._handlers: dict[str, Handler] = handlers_of(
            [self, Runs(self.store), analysis, models, Charts(analysis.summaries, analysis.runs, analysis.library,
                                                               self.store.latency_bins),
             Hosts(self.store, ssh), RunQueries(self.store), Summaries(self.store, analysis.runs, analysis.library),
             ScaleUp(analysis.runs), Drives(ssh), Imports(self.store), Traces()],
            kind_handlers(self.jobs, ctx))

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
            problems = booleans_read_as_numbers(raw_params, params)  # lax reading takes true for 1: refused
        except ValidationError as exc:
            problems = from_validation(exc, spec.params)
        if problems:
            raise RpcError("invalid_params", "; ".join(map(str, problems)), problems)
        with self._lock:
            try:
                return self._handlers[method](params)
            except WorkloadError as exc:
                raise RpcError("invalid_params", str(exc), exc.problems) from None
            except KeyError as exc:
                raise RpcError("not_found", str(exc.args[0]) if exc.args else "not found") from None
            except SweepHeld as exc:
                raise RpcError("busy", str(exc)) from None
            except StoreError as exc:  # the results store refused or stopped answering: said in its one line
                raise RpcError("store_error", str(exc)) from None

    def close(self) -> None:
        self.jobs.close()
        self.store.close()

    @handles("engine.info")
    def engine_info(self, _: Params) -> EngineInfoResult:
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
            field_rules={name: FieldRule(flag=rule.flag, allowed=rule.allowed, label=rule.label,
                                         example=rule.example, choices=list(rule.choices),
                                         applies_with=field_conditions().get(name, {}))
                         for name, rule in RULES.items()})

    @handles("workload.validate")
    def validate(self, params: ValidateParams) -> ValidateResult:
        workload, problems = check_base(params.workload.raw(), check_target=params.check_target,
                                        default_dir=self.default_dir)
        if workload is None or problems:
            return ValidateResult(ok=False, problems=problems)
        return ValidateResult(ok=True, problems=[], workload=workload, label=workload.label,
                              duration_s=workload.duration_s())

    @handles("presets.list")
    def presets(self, _: Params) -> PresetsResult:
        return PresetsResult.listed()

    @handles("devices.list")
    def devices(self, _: Params) -> DevicesResult:
        return DevicesResult(devices=[target_device(d) for d in list_devices()])

