"""fio as found: the asynchronous engine that works here, else psync with the queue depth as
jobs."""

from __future__ import annotations

import shutil

import pytest

from ssdprof.fio.install import FioInstall, detect_fio, plan_fio
from ssdprof.model.workload import Workload

NO_ASYNC = FioInstall(path="/nonexistent/fio", version="fio-3.33",
                      engines=frozenset({"psync", "sync"}))


def test_without_an_asynchronous_engine_the_queue_depth_runs_as_synchronous_jobs() -> None:
    plan = plan_fio(NO_ASYNC, Workload(queue_depth=8, numjobs=2), system="Linux")
    assert (plan.ioengine, plan.iodepth, plan.numjobs) == ("psync", 1, 16)
    assert "queue depth 8 x 2 job(s) runs as 16 synchronous jobs at QD1" in plan.reason


def test_qd1_needs_no_asynchronous_engine_and_keeps_its_jobs() -> None:
    plan = plan_fio(NO_ASYNC, Workload(queue_depth=1, numjobs=3), system="Darwin")
    assert (plan.ioengine, plan.iodepth, plan.numjobs) == ("psync", 1, 3)


def test_an_engine_listed_but_not_working_is_not_chosen() -> None:
    # listed is not usable: the probe runs this fio, which is not there
    listed = FioInstall(path="/nonexistent/fio", version="fio-3.33",
                        engines=frozenset({"io_uring", "libaio"}))
    assert plan_fio(listed, Workload(queue_depth=4), system="Linux").ioengine == "psync"


@pytest.mark.skipif(shutil.which("fio") is None,
                    reason="fio is not installed (npm test installs it)")
def test_the_installed_fio_names_its_version_and_a_working_engine_for_linux() -> None:
    found = detect_fio()
    assert found is not None and found.version.startswith("fio-") and "psync" in found.engines
    chosen = plan_fio(found, Workload(queue_depth=4), system="Linux").ioengine
    assert chosen in ("io_uring", "libaio", "psync")
