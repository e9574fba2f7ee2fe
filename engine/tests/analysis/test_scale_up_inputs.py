"""The scale-up profile's fields as typed: IOPS written as people write them, bad cells found by row."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ssdprof.analysis.scale_up_inputs import ScaleUpInputs, ScaleUpPoint
from ssdprof.model.problems import from_validation


def test_iops_are_read_as_typed_in_the_app_and_on_the_command_line() -> None:
    assert ScaleUpPoint.model_validate({"arrays": 6, "iops": "193k"}).iops == 193_000
    inputs = ScaleUpInputs.model_validate(
        {"target_ssds": 240, "points": [{"arrays": 1, "iops": "45k"}], "min_array_iops": "2k"})
    assert inputs.min_array_iops == 2_000


def test_a_bad_cell_among_the_points_is_named_by_its_row_and_column() -> None:
    with pytest.raises(ValidationError) as caught:
        ScaleUpInputs.model_validate({"target_ssds": 240, "points": [
            {"arrays": 1, "iops": "45k"}, {"arrays": 6, "iops": "193k"}, {"arrays": 8, "iops": "abc"}]})
    [problem] = from_validation(caught.value, ScaleUpInputs)
    assert problem.field == "points" and problem.flag == "--point"
    assert problem.message.startswith("item 3, iops: 'abc' is not a number; write it like 155000, 155k")
