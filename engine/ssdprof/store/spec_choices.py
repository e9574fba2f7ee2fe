"""The store's part for spec sheets chosen per device: a choice made once (in the app or with
``--spec``) applies the next time runs of that device are compared, in the CLI and the app."""

from __future__ import annotations

from datetime import datetime, timezone

from ssdprof.store.backend import StorePart

__all__ = ["SpecChoiceRecords"]


class SpecChoiceRecords(StorePart):
    """Mixed into :class:`ssdprof.store.db.Store`, which gives the connection and transactions."""

    def spec_choice(self, device_key: str) -> str | None:
        """The spec sheet id chosen for the device, or None."""
        row = self._db.execute("SELECT spec_id FROM device_spec_choices WHERE device_key = ?",
                               (device_key,)).fetchone()
        return None if row is None else str(row[0])

    def set_spec_choice(self, device_key: str, description: str, spec_id: str | None) -> None:
        """Remembers ``spec_id`` for the device; None forgets the choice."""
        chosen_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._transaction() as db:
            if spec_id is None:
                db.execute("DELETE FROM device_spec_choices WHERE device_key = ?", (device_key,))
                return
            db.execute("INSERT INTO device_spec_choices (device_key, description, spec_id, chosen_at) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT (device_key) DO UPDATE SET description = excluded.description, "
                       "spec_id = excluded.spec_id, chosen_at = excluded.chosen_at",
                       (device_key, description, spec_id, chosen_at))
