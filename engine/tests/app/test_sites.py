"""Where points run: the hosts' site measures the RBD image the planner read, as it read it; only a
sweep whose spec is all there is (resumed, or grown as it runs) has its image read from the spec."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ssdprof.app import planner
from ssdprof.app.engines import choose_engine
from ssdprof.app.planner import SweepRequest, preflight
from ssdprof.app.runner import Runner
from ssdprof.app.sites import LocalSite, RemoteSite
from ssdprof.model.problems import WorkloadError
from ssdprof.model.workload import EngineChoice
from ssdprof.remote.ceph import RbdTarget
from ssdprof.remote.ssh import SshSettings

REQUEST = {"hosts": ["h1", "h2"], "rbd": "rbd/img-{host}", "ceph_user": "lab"}


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every reading of an RBD name, from here on."""
    found: list[str] = []
    parse = planner.parse_rbd
    monkeypatch.setattr(planner, "parse_rbd", lambda *given: found.append(given[0]) or parse(*given))
    yield found


def site_rbd(site: RemoteSite) -> RbdTarget | None:
    try:
        return site.hosts.options.rbd
    finally:
        site.hosts.close()


def test_the_hosts_site_measures_the_image_the_planner_read_without_reading_it_again(
        reads: list[str]) -> None:
    planned = preflight(SweepRequest.model_validate(REQUEST))
    assert reads == ["rbd/img-{host}"]
    assert site_rbd(RemoteSite(planned.spec, SshSettings(), rbd=planned.rbd)) is planned.rbd
    assert reads == ["rbd/img-{host}"]


def test_the_runner_hands_the_planned_image_to_the_hosts_site(reads: list[str]) -> None:
    planned = preflight(SweepRequest.model_validate(REQUEST))
    site = Runner(None)._site(planned.spec, planned.target, planned.rbd)
    assert isinstance(site, RemoteSite) and site_rbd(site) is planned.rbd
    assert len(reads) == 1


def test_a_resumed_sweep_reads_its_image_from_its_stored_spec_by_the_same_rule(reads: list[str]) -> None:
    stored = preflight(SweepRequest.model_validate(REQUEST)).spec  # the spec alone, as a store keeps it
    found = site_rbd(RemoteSite(stored, SshSettings()))
    assert found == RbdTarget(pool="rbd", image_pattern="img-{host}", client_name="lab")
    assert found is not None and found.fio_options("h2")[-1] == "rbdname=img-h2"
    assert len(reads) == 2  # the planner's, then the resumed site's: once per run


def test_a_folder_in_ram_is_refused_naming_the_views_switch_and_the_flag_for_measuring_memory() -> None:
    with tempfile.TemporaryDirectory(dir="/dev/shm") as ram:  # tmpfs: no device under it
        planned = preflight(SweepRequest.model_validate({"base": {"target": ram, "size_bytes": "1MiB"}}))
        with pytest.raises(WorkloadError) as refused:
            LocalSite(planned.spec, choose_engine(EngineChoice.AUTO), Path(ram))
    (said,) = [p.message for p in refused.value.problems if p.field == "target"]
    assert "which lives in RAM" in said
    assert said.endswith("(or measure memory, labelled as such: Measure through the page cache, --buffered)"), said
