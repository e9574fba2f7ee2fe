"""Hosts as the user names them: an ssh alias or user@host:port, checked before anything reaches ssh."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ssdprof.model.workload import WorkloadError

__all__ = ["HostAddress", "HostError", "parse_host"]

_USER = r"[A-Za-z_][A-Za-z0-9._-]{0,31}"
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,252})"
_IPV6 = r"\[[0-9A-Fa-f:.]{2,45}\]"
_HOST_RE = re.compile(rf"^(?:(?P<user>{_USER})@)?(?P<host>{_NAME}|{_IPV6})(?::(?P<port>[0-9]{{1,5}}))?$")


class HostError(RuntimeError):
    """A host cannot be used; the message says why and what to do."""


@dataclass(frozen=True)
class HostAddress:
    """What the user typed: an ssh alias (resolved by ssh itself) or user@host:port."""

    text: str
    host: str
    user: str | None = None
    port: int | None = None

    @property
    def name(self) -> str:
        return self.text


def parse_host(text: str) -> HostAddress:
    """Accept an ssh alias or user@host:port; refuse anything ssh could read as an option or a shell could run."""
    match = _HOST_RE.fullmatch(text)
    if not match or text.startswith("-") or len(text) > 300:
        raise WorkloadError.single("host", "--host", f"{text!r} is not a host: use an ssh alias or user@host:port "
                                   "(letters, digits, '.', '-', '_'; no spaces, options or shell characters)")
    port = int(match.group("port")) if match.group("port") else None
    if port is not None and not 1 <= port <= 65535:
        raise WorkloadError.single("host", "--host", f"{text!r}: port must be 1-65535")
    return HostAddress(text=text, host=match.group("host"), user=match.group("user"), port=port)
