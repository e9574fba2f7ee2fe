"""Where a sustained-write test runs on this machine: fio, the one engine that can stop a write after its
bytes, each point at the path its site opened, and the test file a folder target keeps between writes."""

from __future__ import annotations

from pathlib import Path

from ssdprof.app.engines import choose_engine
from ssdprof.app.sites import LocalSite, Site
from ssdprof.fio.runner import FioEngine
from ssdprof.model.problems import FieldProblem, WorkloadError
from ssdprof.model.sweep import SweepSpec
from ssdprof.model.workload import Workload
from ssdprof.target.plan import TEST_FILE_PREFIX

__all__ = ["local_engine", "site_point", "sustain_file"]


def local_engine(spec: SweepSpec, fio_executable: str = "fio") -> FioEngine:
    """fio, the one engine a test on this machine runs with; raises WorkloadError naming the engine
    field when the choice (or a missing fio) leaves the portable engine."""
    engine = choose_engine(spec.points[0].engine, fio_executable)
    if not isinstance(engine, FioEngine):
        raise WorkloadError([FieldProblem(field="engine", flag="--engine", message=(
            "a sustained-write test needs fio (it stops each write after its bytes; the portable "
            "engine cannot hand back a write stopped early): install fio (apt install fio) or use "
            "an SSH host with fio"))])
    return engine


def site_point(site: Site, spec: SweepSpec, number: int) -> Workload:
    """The point as this site runs it: on this machine, at the path the site opened (a folder's test file)."""
    workload = spec.points[number]
    return workload.model_copy(update={"target": str(site.path)}) if isinstance(site, LocalSite) else workload


def sustain_file(folder: Path, sustain_id: int) -> Path:
    """The test file a sustained-write test lays out in a folder target, named for the test: kept across its writes."""
    return folder / f"{TEST_FILE_PREFIX}sustain{sustain_id}.dat"
