"""Test files ssdprof could not remove from a host, because the host was gone when the run ended.

They are written down in a small JSON file in ssdprof's data folder, under the host as ssh reaches it
(user@hostname:port, whatever alias named it), and the next run that reaches that host removes them
first, so a dropped connection or a host that rebooted mid-run does not leave a test file for ever.
Only paths that name an ssdprof test file are ever recorded or removed.
"""

from __future__ import annotations

import json
import os
import posixpath
import tempfile
from pathlib import Path

import platformdirs

from ssdprof.target.plan import TEST_FILE_PREFIX

__all__ = ["Leftovers", "default_leftovers_path", "is_test_file"]


def default_leftovers_path() -> Path:
    return Path(platformdirs.user_data_dir("ssdprof")) / "remote_leftovers.json"


def is_test_file(path: str) -> bool:
    """An absolute path to an ssdprof test file, as a host sees it (POSIX)."""
    name = posixpath.basename(path)
    return posixpath.isabs(path) and name.startswith(TEST_FILE_PREFIX) and name.endswith(".dat") and "\n" not in path


class Leftovers:
    """Host -> test files still to remove. Updates replace the file whole; two ssdprof processes that
    update it at the same instant can lose one entry, which leaves one file to remove by hand, as before."""

    def __init__(self, path: Path):
        self.path = path

    def pending(self, host: str) -> list[str]:
        return [p for p in self._read().get(host, []) if is_test_file(p)]

    def add(self, host: str, path: str) -> None:
        if not is_test_file(path):
            return
        entries = self._read()
        if path not in entries.setdefault(host, []):
            entries[host].append(path)
        self._write(entries)

    def forget(self, host: str, paths: list[str]) -> None:
        entries = self._read()
        left = [p for p in entries.get(host, []) if p not in paths]
        if left == entries.get(host, []):
            return
        if left:
            entries[host] = left
        else:
            entries.pop(host, None)
        self._write(entries)

    def _read(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(h): [str(p) for p in paths] for h, paths in data.items() if isinstance(paths, list)}

    def _write(self, entries: dict[str, list[str]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".leftovers-")
        with os.fdopen(fd, "w") as out:
            json.dump(entries, out, indent=1, sort_keys=True)
        os.replace(temporary, self.path)
