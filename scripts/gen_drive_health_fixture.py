"""Writes src/test/drive-health.json: the HealthRecord the engine builds from the lab node's real
nvme-cli output (engine/tests/data/health) for a 64 MiB write, then with the over-temperature
threshold set below the drive's temperature, so DrivePanel's test draws the engine's own words.

    engine/.venv/bin/python scripts/gen_drive_health_fixture.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine" / "tests"))

from ssdprof.model.health import TemperatureSample
from target.test_health import record  # the tests' replay of the real outputs

OUTPUT = ROOT / "src" / "test" / "drive-health.json"


def main() -> None:
    samples = [TemperatureSample(elapsed_s=float(t), celsius=49.85 + t / 10) for t in range(1, 4)]
    written = record("lab_nvme_smart_log.json", "lab_nvme_smart_log_after_64MiB.json", 64 << 20)
    hot = record("lab_nvme_smart_log_after_64MiB.json", "lab_nvme_smart_log_over_threshold.json", 0)
    answer = {"written": written.model_copy(update={"temperatures": samples}).model_dump(mode="json"),
              "hot": hot.model_dump(mode="json")}
    OUTPUT.write_text(json.dumps(answer, indent=1) + "\n")


if __name__ == "__main__":
    main()
