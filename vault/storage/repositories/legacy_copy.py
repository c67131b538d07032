"""The pre-upgrade copy that revision 0002 keeps in `legacy_athlete_memory`, and how to erase it.

Revision 0002 renames the engine guide's `athlete_memory` table instead of dropping it, so a downgrade
can restore it. That copy still holds the athlete's old facts as JSON text, so erasing a person
(`vault delete`) or forgetting something (`vault forget`) must drop their copy too:
`purge_legacy_copy` deletes the athlete's legacy row and its `legacy_adoption` record. A later
downgrade then leaves that athlete's vault rows in place (there is nothing to restore).
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, text

from vault.domain.engine_document import canonical_key
from vault.domain.legacy import RENAMED_TABLE
from vault.storage.repositories._sql import rowcount

ADOPTION_TABLE = "legacy_adoption"


def purge_legacy_copy(connection: Connection, athlete_id: str) -> int:
    """Delete `athlete_id`'s pre-upgrade row (and adoption record); return the rows deleted.

    Runs in the caller's transaction; a file without the legacy copy is left alone.
    """
    tables = set(inspect(connection).get_table_names())
    if RENAMED_TABLE not in tables:
        return 0
    deleted = _delete_keys_naming(connection, RENAMED_TABLE, athlete_id)
    if ADOPTION_TABLE in tables:
        deleted += _delete_keys_naming(connection, ADOPTION_TABLE, athlete_id)
    return deleted


def _delete_keys_naming(connection: Connection, table: str, athlete_id: str) -> int:
    """Delete the rows whose key names the athlete as vault spells ids (trimmed, NFC: a key
    " ana" or a decomposed "josé" is that athlete, as when the row was adopted)."""
    deleted = 0
    for (raw,) in connection.execute(text(f"SELECT DISTINCT athlete_id FROM {table}")).all():
        if canonical_key(raw) == athlete_id:
            statement = text(f"DELETE FROM {table} WHERE athlete_id IS :raw")
            deleted += rowcount(connection.execute(statement, {"raw": raw}))
    return deleted
