"""Writes src/test/scale-up-answer.json: the real engine's analysis.scale_up answer for the published
profiling figures (45 K / 193 K / 155 K write IOPS at 1 / 6 / 8 arrays) sized to 240 SSDs within three
PCIe slots, so the Scale-up panel's test draws the engine's own numbers, never a hand-made copy.

    engine/.venv/bin/python scripts/gen_scale_up_fixture.py          # regenerate
    engine/.venv/bin/python scripts/gen_scale_up_fixture.py --check  # exit 1 when the file is stale

``engine/tests/app/test_service_scale_up.py`` runs ``--check``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ssdprof.analysis.scale_up_inputs import ScaleUpDesign, ScaleUpPoint
from ssdprof.analysis.scale_up_runs import size_array

OUTPUT = Path(__file__).resolve().parent.parent / "src" / "test" / "scale-up-answer.json"
PARAMS: dict[str, Any] = {
    "metric": "write_iops", "target_ssds": 240, "max_pcie_slots": 3,
    "points": [{"arrays": 1, "iops": 45_000}, {"arrays": 6, "iops": 193_000}, {"arrays": 8, "iops": 155_000}],
}


def answer() -> str:
    design = ScaleUpDesign.model_validate({k: v for k, v in PARAMS.items() if k in ScaleUpDesign.model_fields})
    points = [ScaleUpPoint.model_validate(p) for p in PARAMS["points"]]
    result = size_array(design, [], points, PARAMS["metric"])
    return json.dumps({"params": PARAMS, "result": result.model_dump(mode="json")}, indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = answer()
    if "--check" in argv:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run engine/.venv/bin/python scripts/gen_scale_up_fixture.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
