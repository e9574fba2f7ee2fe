"""Where spec sheets live: the library shipped with ssdprof and the user's own folder. Nothing but
paths, so the command line's flags name them without loading the spec sheets' models."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs

__all__ = ["bundled_spec_dir", "default_user_spec_dir"]


def default_user_spec_dir() -> Path:
    return Path(platformdirs.user_data_dir("ssdprof")) / "specs"


def bundled_spec_dir() -> Path | None:
    """The shipped library: ``assets/specs`` of a source checkout or app bundle, else ``<prefix>/share/ssdprof/specs``."""
    for candidate in (Path(__file__).resolve().parents[3] / "assets" / "specs", Path(sys.prefix) / "share" / "ssdprof" / "specs"):
        if candidate.is_dir():
            return candidate
    return None
