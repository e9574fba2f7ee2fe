"""The method registry: every method of the contract has exactly one handler, named where it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdprof.app.contract.base import Params
from ssdprof.app.contract.methods import METHODS
from ssdprof.app.contract.runs import CancelResult
from ssdprof.app.service.engine import EngineService
from ssdprof.app.service.registry import handlers_of, handles


def test_every_method_of_the_contract_has_a_handler_when_the_service_starts(tmp_path: Path) -> None:
    service = EngineService(tmp_path / "r.db", lambda method, payload: None, spec_folders=(None,))
    try:
        assert set(service._handlers) == set(METHODS)
    finally:
        service.close()


def test_a_name_outside_the_contract_cannot_be_handled() -> None:
    with pytest.raises(ValueError, match="not a method of the contract"):
        handles("sweep.stat")


class _Twice:
    @handles("sweep.cancel")
    def first(self, _: Params) -> CancelResult:
        return CancelResult(cancelled=False)

    @handles("sweep.cancel")
    def second(self, _: Params) -> CancelResult:
        return CancelResult(cancelled=False)


def test_a_method_answered_twice_or_not_at_all_stops_the_service_from_starting() -> None:
    with pytest.raises(RuntimeError, match="two handlers"):
        handlers_of([_Twice()])
    with pytest.raises(RuntimeError, match=r"without a handler: .*engine\.info"):
        handlers_of([])
