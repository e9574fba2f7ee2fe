"""Browser mode's engine, loaded on a thread once the server listens: a request waits for it, a store
that cannot be opened is said on every request, and the PDF machinery is warm afterwards."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ssdprof.app.background import BackgroundEngine, EngineUnavailable

INFO = {"jsonrpc": "2.0", "id": 7, "method": "engine.info", "params": {}}


def test_a_request_made_while_the_engine_loads_waits_and_is_answered(tmp_path: Path) -> None:
    engine = BackgroundEngine(tmp_path / "db.sqlite3", lambda *_: None, warm=False)
    engine.start()
    try:
        answer = engine.answer(INFO)
        assert answer["id"] == 7 and "version" in answer["result"]
        assert engine.ready
    finally:
        engine.close()


def test_a_store_that_cannot_be_opened_is_said_on_every_request(tmp_path: Path) -> None:
    folder = tmp_path / "not-a-file.sqlite3"
    folder.mkdir()  # a folder where the store's file would be: SQLite cannot open it
    engine = BackgroundEngine(folder, lambda *_: None, warm=False)
    engine.start()
    try:
        for _ in range(2):
            answer = engine.answer(INFO)
            assert answer["id"] == 7 and answer["error"]["code"] == -32603
            assert answer["error"]["message"].startswith("the engine could not start: ")
        with pytest.raises(EngineUnavailable):
            engine.get()
    finally:
        engine.close()


def test_after_loading_the_pdf_machinery_is_warm(tmp_path: Path) -> None:
    """What the first report would import and prepare is there once the engine has loaded."""
    code = f"""
import sys, time
from pathlib import Path
from ssdprof.app.background import BackgroundEngine
engine = BackgroundEngine(Path({str(tmp_path / 'db.sqlite3')!r}), lambda *_: None)
engine.start()
engine.get()
engine.warmed.wait(120)
from ssdprof.report.layout import _registered_fonts
print(sorted(m for m in ("matplotlib", "reportlab", "ssdprof.report.pdf") if m in sys.modules),
      _registered_fonts.cache_info().currsize)
engine.close()
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, check=True)
    assert done.stdout.split() == ["['matplotlib',", "'reportlab',", "'ssdprof.report.pdf']", "1"]
