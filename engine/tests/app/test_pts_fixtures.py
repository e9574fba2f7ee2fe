"""The PTS view's test fixtures (src/test/pts-*.json, recorded from the real engine by
scripts/gen_pts_fixtures.py) still parse as what the engine sends, so the renderer's tests cannot
drift from the contract."""

from __future__ import annotations

import json
from pathlib import Path

from ssdprof.app.contract.pts import PtsEstimate
from ssdprof.model.pts_results import PtsResult

FIXTURES = Path(__file__).resolve().parents[3] / "src" / "test"


def test_the_recorded_estimate_and_result_are_the_contracts_shapes() -> None:
    estimate = PtsEstimate.model_validate(json.loads((FIXTURES / "pts-estimate.json").read_text(encoding="utf-8")))
    result = PtsResult.model_validate(json.loads((FIXTURES / "pts-latency.json").read_text(encoding="utf-8")))
    assert not estimate.pts_compliant and "NOT PTS-compliant" in estimate.compliance_note
    assert result.test == "latency" and result.rounds and result.checks and result.matrix
    # a recorded test, not a hand-made one: every round's runs were stored, and the rule was applied to them
    assert all(r.runs for r in result.rounds) and result.steady_state.rounds == len(result.rounds)
