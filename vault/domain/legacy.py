"""The engine's pre-vault `athlete_memory` table, as revision 0002 keeps it. Pure.

Revision 0002 renames the engine's table to `legacy_athlete_memory` and revision 0007 queues its
rows for adoption; what a row means is `vault.domain.engine_document`.
"""

from __future__ import annotations

from vault.domain.limits import ATHLETE_ID_MAX

LEGACY_TABLE = "athlete_memory"
RENAMED_TABLE = "legacy_athlete_memory"


class LegacyRowError(ValueError):
    """A legacy key that names no athlete."""


def athlete_of(raw: object) -> str:
    """The legacy primary key as a vault athlete id (SQLite lets TEXT keys hold NULL or numbers)."""
    if raw is None or isinstance(raw, (bytes, bool, float)):
        raise LegacyRowError(f"the athlete_id {raw!r} is not text")
    cleaned = str(raw).strip()
    if not cleaned or len(cleaned) > ATHLETE_ID_MAX:
        raise LegacyRowError(f"the athlete_id {raw!r} is not a vault athlete id")
    return cleaned
