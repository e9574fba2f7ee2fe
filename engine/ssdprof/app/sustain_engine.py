"""An engine that stops after a byte count: the runner's engines measure for a time, so a sustained
write runs time-bounded and is stopped (fio's SIGINT, which still prints its full JSON) once its
per-second progress shows the bytes written: a second's worth more than asked at most, never less.
fio only, here and on hosts: the portable engine hands back nothing when stopped early."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ssdprof.app.engines import PointEngine
from ssdprof.model.results import Measurement, ProgressSample
from ssdprof.model.workload import Workload

__all__ = ["BytesBound"]


class BytesBound:
    """``inner`` stopped once ``limit_bytes`` are written; a user's cancel still cancels."""

    def __init__(self, inner: PointEngine, limit_bytes: int):
        self.inner = inner
        self.limit_bytes = limit_bytes
        self.name = inner.name
        self.reason = inner.reason

    @property
    def tool_versions(self) -> dict[str, str]:
        return self.inner.tool_versions

    def measure(self, workload: Workload, path: Path, *, is_device: bool,
                on_progress: Callable[[ProgressSample], None] | None, cancel: threading.Event) -> Measurement:
        enough = threading.Event()
        written = 0.0
        last_s: dict[str, float] = {}

        def progress(sample: ProgressSample) -> None:
            nonlocal written
            written += sample.write_bw_bytes_per_s * max(sample.elapsed_s - last_s.get(sample.host, 0.0), 0.0)
            last_s[sample.host] = sample.elapsed_s
            if on_progress is not None:
                on_progress(sample)
            if written >= self.limit_bytes:
                enough.set()

        finished = threading.Event()

        def watch() -> None:  # a cancel reaches the engine between progress samples too
            while not finished.wait(0.2):
                if cancel.is_set():
                    enough.set()
                    return

        watcher = threading.Thread(target=watch, daemon=True, name="ssdprof-sustain-watch")
        watcher.start()
        try:
            measurement = self.inner.measure(workload, path, is_device=is_device, on_progress=progress, cancel=enough)
        finally:
            finished.set()
            watcher.join(timeout=1)
        if cancel.is_set():
            return measurement
        return measurement.model_copy(update={"cancelled": False})
