"""Keep the mobile engine's `athlete_memory` table (one JSON document per athlete) for adoption.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

Purpose: a device's vault.db written by the mobile engine holds `athlete_memory(athlete_id TEXT
PRIMARY KEY, memory_json TEXT NOT NULL, updated_at TIMESTAMP)` beside the engine's own tables.
This revision renames that table to `legacy_athlete_memory` (the pre-vault copy, which a
downgrade restores) and records one `legacy_adoption` row per legacy row with status
`pending`. It parses nothing and never refuses a row: revision 0007 queues the pending rows as
engine writes, and vault adopts them with the rules that apply to every write the engine makes
(the same categories, conflict keys and privacy filter as `remember`; values the engine's own
types allow are accepted, clamped or mapped and the adjustment recorded in `legacy_adoption`).
A file without the table: nothing happens.

Frozen: this file imports only the standard library, SQLAlchemy and Alembic, never `vault`.

Offline (`alembic upgrade head --sql`): renaming depends on whether the table exists, which a
SQL script cannot know. The script holds a comment saying so and a guard (CREATE then DROP a
table named `athlete_memory`) that stops it on a database holding the legacy table; elsewhere
0002 changes nothing, exactly as online.

Downgrade caveats: deletes every vault row of the athletes whose legacy row was adopted
(whatever was learned about them since is lost; export first), drops `legacy_adoption` and
renames the legacy table back. Athletes the vault did not adopt are kept.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import context, op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LEGACY_TABLE = "athlete_memory"
RENAMED_TABLE = "legacy_athlete_memory"
ADOPTION_TABLE = "legacy_adoption"
_VAULT_TABLES = ("fact_tags", "facts", "patterns", "notes", "archive", "forget_log", "athletes")


class LegacyAdoptionError(Exception):
    """The legacy table cannot be kept; env.py re-raises it as vault's LegacyImportError."""

    vault_error = "LegacyImportError"  # what env.py maps it to (a revision cannot import vault)


def upgrade() -> None:
    if context.is_offline_mode():
        _offline_guard(
            LEGACY_TABLE,
            "Revision 0002 keeps the engine's legacy athlete_memory table for adoption.",
            "That depends on the table's presence, which an offline SQL script cannot do: on a",
            "database that holds athlete_memory run `alembic upgrade head` (or `vault upgrade`).",
            "The next two statements stop this script there; elsewhere 0002 changes nothing.",
        )
        return
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if LEGACY_TABLE not in tables:
        return
    for clash in (RENAMED_TABLE, ADOPTION_TABLE):
        if clash in tables:
            raise LegacyAdoptionError(
                f"cannot adopt {LEGACY_TABLE}: a table named {clash} already exists in this file"
            )
    columns = {c["name"] for c in sa.inspect(bind).get_columns(LEGACY_TABLE)}
    if not {"athlete_id", "memory_json"} <= columns:
        raise LegacyAdoptionError(
            f"cannot adopt {LEGACY_TABLE}: expected columns athlete_id and memory_json, "
            f"found {', '.join(sorted(columns))}"
        )
    adoption = op.create_table(
        ADOPTION_TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("athlete_id", sa.String(128), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("facts", sa.Integer(), nullable=False),
        sa.Column("patterns", sa.Integer(), nullable=False),
        sa.Column("notes", sa.Integer(), nullable=False),
        sa.Column("archived", sa.Integer(), nullable=False),
        sa.CheckConstraint("status IN ('pending', 'adopted', 'skipped')", name="status"),
    )
    keys = bind.execute(sa.text(f"SELECT athlete_id FROM {LEGACY_TABLE} ORDER BY rowid")).scalars()
    pending = [
        {
            "athlete_id": _key_text(key),
            "status": "pending",
            "reason": None,
            "facts": 0,
            "patterns": 0,
            "notes": 0,
            "archived": 0,
        }
        for key in keys
    ]
    if pending:
        op.bulk_insert(adoption, pending)
    op.rename_table(LEGACY_TABLE, RENAMED_TABLE)


def downgrade() -> None:
    if context.is_offline_mode():
        _offline_guard(
            RENAMED_TABLE,
            "Downgrading revision 0002 removes the athletes adopted from legacy_athlete_memory;",
            "that reads the tables' rows, which an offline SQL script cannot do: on a database",
            "that holds legacy_athlete_memory run `alembic downgrade` against it.",
            "The next two statements stop this script there; elsewhere 0002 changes nothing.",
        )
        return
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if RENAMED_TABLE not in tables:
        return
    if LEGACY_TABLE in tables:
        raise LegacyAdoptionError(
            f"cannot restore {LEGACY_TABLE}: a newer table of that name exists; rename it first"
        )
    if ADOPTION_TABLE in tables:
        still_there = {
            _key_text(key)
            for key in bind.execute(sa.text(f"SELECT athlete_id FROM {RENAMED_TABLE}")).scalars()
        }
        adopted = bind.execute(
            sa.text(f"SELECT athlete_id FROM {ADOPTION_TABLE} WHERE status = 'adopted'")
        ).scalars()
        # an athlete whose legacy row was purged since keeps its vault rows (nothing to restore)
        for athlete in [a for a in adopted if a is not None and a in still_there]:
            _erase(bind, athlete)
        op.drop_table(ADOPTION_TABLE)
    op.rename_table(RENAMED_TABLE, LEGACY_TABLE)


def _key_text(raw: object) -> str | None:
    """The legacy key as vault names the athlete (SQLite lets TEXT keys hold NULL or numbers)."""
    if raw is None or isinstance(raw, bytes):
        return None
    return str(raw).strip()[:128] or None


def _offline_guard(table: str, *comment: str) -> None:
    """Explain in the script why nothing happens, and fail it where something should have."""
    lines = "".join(f"-- {line}\n" for line in comment)
    op.execute(f"{lines}CREATE TABLE {table} (offline_guard INTEGER)")
    op.execute(f"DROP TABLE {table}")


def _erase(bind: sa.Connection, athlete: str) -> None:
    """Delete one athlete from every vault table (foreign keys are off while migrating)."""
    params = {"athlete": athlete}
    bind.execute(
        sa.text(
            "DELETE FROM fact_tags "
            "WHERE fact_id IN (SELECT id FROM facts WHERE athlete_id = :athlete)"
        ),
        params,
    )
    for name in _VAULT_TABLES[1:-1]:
        bind.execute(sa.text(f"DELETE FROM {name} WHERE athlete_id = :athlete"), params)
    bind.execute(sa.text("DELETE FROM athletes WHERE id = :athlete"), params)
