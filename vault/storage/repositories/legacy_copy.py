"""The pre-upgrade copy that revision 0002 keeps in `legacy_athlete_memory`, and how to erase it.

Revision 0002 renames seed 000's `athlete_memory` table instead of dropping it, so a downgrade
can restore it. That copy still holds the athlete's old facts as JSON text, so erasing a person
(`vault delete`) or forgetting something (`vault forget`) must drop their copy too:
`purge_legacy_copy` deletes the athlete's legacy row and its `legacy_adoption` record. A later
downgrade then leaves that athlete's vault rows in place (there is nothing to restore).
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, text

from vault.domain.legacy import RENAMED_TABLE, LegacyRowError, athlete_of
from vault.storage.repositories._sql import rowcount

ADOPTION_TABLE = "legacy_adoption"


def purge_legacy_copy(connection: Connection, athlete_id: str) -> int:
    """Delete `athlete_id`'s pre-upgrade row (and adoption record); return the rows deleted.

    Runs in the caller's transaction; a file without the legacy copy is left alone.
    """
    tables = set(inspect(connection).get_table_names())
    if RENAMED_TABLE not in tables:
        return 0
    deleted = 0
    for (raw,) in connection.execute(text(f"SELECT athlete_id FROM {RENAMED_TABLE}")).all():
        try:
            same = athlete_of(raw) == athlete_id
        except LegacyRowError:  # a NULL or malformed key never names this athlete
            continue
        if same:
            statement = text(f"DELETE FROM {RENAMED_TABLE} WHERE athlete_id = :raw")
            deleted += rowcount(connection.execute(statement, {"raw": raw}))
    if ADOPTION_TABLE in tables:
        statement = text(f"DELETE FROM {ADOPTION_TABLE} WHERE athlete_id = :athlete")
        deleted += rowcount(connection.execute(statement, {"athlete": athlete_id}))
    return deleted


# (table, row id, athlete, field, text) of what revision 0002 adopted
AdoptedText = tuple[str, int, str, str, str]

_ADOPTED = (
    "SELECT {table}.id, {table}.athlete_id, {columns} FROM {table} "
    "JOIN " + ADOPTION_TABLE + " AS adopted ON adopted.athlete_id = {table}.athlete_id "
    "AND adopted.status = 'adopted' ORDER BY {table}.id"
)


def adopted_texts(connection: Connection) -> list[AdoptedText]:
    """Every text the legacy adoption stored: the texts, source refs and tags of the adopted
    athletes' facts, patterns, notes and archive rows (in the caller's transaction)."""
    found: list[AdoptedText] = []
    for table, columns in (("facts", ("text", "source_ref")), ("patterns", ("text", "source_ref")),
                           ("notes", ("text", "source_ref")), ("archive", ("original_text",))):  # fmt: skip
        statement = text(_ADOPTED.format(table=table, columns=", ".join(f"{table}.{c}" for c in columns)))
        for row in connection.execute(statement):
            for column, value in zip(columns, row[2:]):
                if value:
                    found.append((table, int(row[0]), str(row[1]), column, str(value)))
    tags = text(
        "SELECT t.fact_id, f.athlete_id, t.tag FROM fact_tags AS t JOIN facts AS f ON f.id = t.fact_id "
        "JOIN " + ADOPTION_TABLE + " AS adopted ON adopted.athlete_id = f.athlete_id "
        "AND adopted.status = 'adopted' ORDER BY t.fact_id, t.tag"
    )
    found += [("facts", int(r[0]), str(r[1]), "tag", str(r[2])) for r in connection.execute(tags)]
    return found
