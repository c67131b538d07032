"""An episode's text may hold 20,000 characters: a real message is stored whole.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25

Purpose: episodes are what the athlete said or did, imported from real conversations; a
2,023-character message failed a 410-message import at the old 2,000 limit. `episodes.text` and
`episode_archive.text` become VARCHAR(20000).

- SQLite never enforces a VARCHAR length, and rebuilding `episodes` would mean rebuilding its
  full-text index, triggers and view. The declared type is changed in place instead, as SQLite's
  documentation describes for schema changes that leave the stored format alone
  (lang_altertable.html, "making other kinds of table schema changes"): writable_schema, the
  CREATE statement edited, schema_version bumped so every connection re-reads it.
- PostgreSQL refuses to retype a column that a generated column or a view reads: the
  `search` tsvector column, its GIN index and the `episode_list` view are dropped and made again
  exactly as revision 0005 made them (the tsvector is recomputed: one pass over the table).

Frozen: imports only Alembic; the SQL is spelled here. Downgrade returns to 2,000 characters
and fails on PostgreSQL while a longer text is stored (nothing is cut silently).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("episodes", "episode_archive")
EPISODE_LIST_POSTGRESQL = (
    "CREATE VIEW episode_list AS SELECT e.id, e.owner_id, e.ref, e.type, e.outcome, "
    "e.occurred_at, e.text, CAST(e.metadata AS json) ->> 'location' AS location, "
    "COALESCE(CAST(e.metadata AS json) ->> 'person', CAST(e.metadata AS json) ->> 'npc') AS person, "
    "CAST(e.metadata AS json) ->> 'item' AS item, CAST(e.metadata AS json) ->> 'day' AS day, "
    "e.metadata, e.created_at FROM episodes AS e"
)


def _retype(old: int, new: int) -> None:
    context = op.get_context()
    if context.dialect.name == "sqlite":
        op.execute("PRAGMA writable_schema = ON")
        for table in TABLES:
            op.execute(
                f"UPDATE sqlite_master SET sql = replace(sql, 'text VARCHAR({old}) NOT NULL', "
                f"'text VARCHAR({new}) NOT NULL') WHERE type = 'table' AND name = '{table}'"
            )
        if not context.as_sql:  # an offline script ends its connection, which re-reads it
            version = op.get_bind().exec_driver_sql("PRAGMA schema_version").scalar_one()
            op.execute(f"PRAGMA schema_version = {int(version) + 1}")
        op.execute("PRAGMA writable_schema = OFF")
        return
    op.execute("DROP VIEW episode_list")
    op.execute("DROP INDEX ix_episodes_search")
    op.execute("ALTER TABLE episodes DROP COLUMN search")
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN text TYPE VARCHAR({new})")
    op.execute(
        "ALTER TABLE episodes ADD COLUMN search tsvector "
        "GENERATED ALWAYS AS (to_tsvector('english', text)) STORED"
    )
    op.execute("CREATE INDEX ix_episodes_search ON episodes USING gin (search)")
    op.execute(EPISODE_LIST_POSTGRESQL)


def upgrade() -> None:
    _retype(2000, 20000)


def downgrade() -> None:
    _retype(20000, 2000)
