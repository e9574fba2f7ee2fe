"""Records the PTS view's test fixtures from the real engine: a scaled-down PTS latency test run on
real fio against a test file on the local disk, asked through the RPC exactly as the GUI asks.

    engine/.venv/bin/python scripts/gen_pts_fixtures.py

Writes ``src/test/pts-estimate.json`` (``pts.estimate``) and ``src/test/pts-latency.json``
(``pts.get`` of the finished test). Measured numbers differ from run to run, so the files are not
compared with a new run; ``engine/tests/app/test_pts_fixtures.py`` checks that they still parse as
the contract's models, so they cannot drift from what the engine sends.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from ssdprof.app.rpc import EngineService, handle_message

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "test"


def main() -> None:
    with tempfile.TemporaryDirectory(dir="/var/tmp" if Path("/var/tmp").is_dir() else None) as scratch:
        folder = Path(scratch)
        service = EngineService(folder / "results.sqlite3", lambda method, payload: None, default_dir=folder)
        try:
            def call(method: str, params: dict[str, Any]) -> Any:
                reply = handle_message(service, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
                assert "error" not in reply, reply
                return reply["result"]

            request = {"test": "latency", "profile": "laptop", "target": str(folder), "size_bytes": "16m", "round_time_s": "0.5s",
                       "max_rounds": 6, "block_sizes": ["4k"], "mixes": [100, 0], "precondition": "none", "engine": "fio"}
            estimate = call("pts.estimate", request)
            started = call("pts.start", request)
            while call("pts.status", {})["running"]:
                time.sleep(0.2)
            result = call("pts.get", {"pts_id": started["pts_id"]})
        finally:
            service.close()
    for name, data in (("pts-estimate.json", estimate), ("pts-latency.json", result)):
        text = json.dumps(data, indent=1, ensure_ascii=False).replace(scratch, "/var/tmp/ssdprof-fixture")
        (OUT / name).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
