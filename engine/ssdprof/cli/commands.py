"""Which module of ``ssdprof.cli`` answers each command: one table, read by ``main`` to import
only the module of the command being run, and by each module for its ``COMMANDS``.

It imports nothing of ssdprof's: a study's ``compare`` on a big store answers within a second, and
importing every command's module (the runner, fio, SSH hosts, the PDF) would take half of that."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TABLE", "Command", "commands_of", "modules"]


@dataclass(frozen=True)
class Command:
    module: str
    """The module under ``ssdprof.cli`` that registers the command and answers it."""
    handler: str = "handle"
    """Its function answering the command: ``(args, store)``, or ``(args)`` without a store."""
    store: bool = True
    """False: the command opens no results store (it serves one, or needs none)."""


TABLE: dict[str, Command] = {  # in the order ``ssdprof --help`` lists them
    "run": Command("measure"),
    "sweep": Command("measure"),
    "curve": Command("curve"),
    "slo": Command("curve"),
    "runs": Command("runs"),
    "export": Command("runs"),
    "import": Command("runs"),
    "presets": Command("runs", handler="presets", store=False),
    "sweeps": Command("sweeps"),
    "hosts": Command("hosts"),
    "drive": Command("drive", store=False),
    "compare": Command("analysis"),
    "predict": Command("analysis"),
    "correlate": Command("analysis"),
    "specs": Command("specs"),
    "report": Command("report"),
    "import-table": Command("report"),
    "import-job": Command("report"),
    "pts": Command("pts"),
    "sustain": Command("sustain"),
    "replay": Command("replay"),
    "rpc": Command("serve", handler="rpc", store=False),
    "serve": Command("serve", handler="serve", store=False),
}

def commands_of(module: str) -> tuple[str, ...]:
    """The commands ``ssdprof.cli.<module>`` registers and answers."""
    return tuple(name for name, entry in TABLE.items() if entry.module == module)


def modules() -> tuple[str, ...]:
    """Every command module once, in the order of their first command."""
    return tuple(dict.fromkeys(entry.module for entry in TABLE.values()))
