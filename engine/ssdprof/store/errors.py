"""What can go wrong with a results store, each said in one line a user can act on: the command line
prints the message alone (no traceback) and exits non-zero; the RPC answers it as an error.

Only :class:`StoreUnavailable` is worth waiting for: the server went away and may come back, so a
run's writes are retried and then kept on this machine. A refusal (wrong password, no such
database) or a bad URL is said at once: waiting does not change it.
"""

from __future__ import annotations

__all__ = ["StoreError", "StoreRefused", "StoreUnavailable", "StoreUrlError", "SweepHeld"]


class StoreError(RuntimeError):
    """A store problem said in one line; never holds a password."""


class StoreUrlError(StoreError, ValueError):
    """The store's URL cannot name a database (said before anything connects)."""


class StoreUnavailable(StoreError):
    """The results server did not answer, or stopped answering: it may come back."""


class StoreRefused(StoreError):
    """The server answered and refused: a wrong password, an unknown user or database, no access
    from this machine, or a file that is not a results store."""


class SweepHeld(StoreError):
    """A sweep another live process holds (its lease is current), or one that cannot be resumed."""
