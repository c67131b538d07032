"""The engine's `athlete_memory` table, kept by vault: what the engine reads and writes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25

Purpose: the mobile engine keeps reading and writing memory with its own unchanged statements
(`CREATE TABLE IF NOT EXISTS athlete_memory ...`, `SELECT memory_json FROM athlete_memory WHERE
athlete_id = ?1`, `INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at)
VALUES (?1, ?2, CURRENT_TIMESTAMP)`). SQLite only: the engine is an SQLite program.

- `athlete_memory (athlete_id, memory_json, updated_at, written_by)`: a real table, so the
  engine's CREATE TABLE IF NOT EXISTS is a no-op and its INSERT OR REPLACE works as it always
  did. Vault rewrites an athlete's row (written_by = 'vault') in every write transaction that
  changes that athlete's facts, patterns or notes. A view with an INSTEAD OF trigger was the
  other choice; it was not taken because the row must hold exactly the items of the MEMORY
  block, which a token budget decides, and SQL cannot count tokens.
- `engine_inbox`: a BEFORE INSERT trigger copies every row the engine writes (written_by keeps
  its default 'engine') here, with the row it replaces (`previous_json`: what the engine had
  read), so two engine writes before vault runs are both kept. Vault applies the inbox in its
  next write transaction and deletes what it applied.
- `engine_dirty`: triggers on facts, patterns and notes record which athletes changed; vault
  republishes their rows before the transaction commits. A later batch migration that rebuilds
  one of those tables must create its triggers again.
- Adoption: the rows revision 0002 kept in `legacy_athlete_memory` that are not adopted yet
  (status `pending`, or `skipped` by an earlier vault), and the rows of a plain `athlete_memory`
  table an engine created after an earlier upgrade (it shadowed nothing vault wrote), are queued
  in `engine_inbox`; vault adopts them like any engine write. Every athlete is marked dirty, so
  the first vault write transaction (`vault upgrade` runs one) publishes every row.

Frozen: imports only SQLAlchemy and Alembic; the SQL is spelled here.
Downgrade drops the triggers and the three tables. It refuses while the engine's own writes
wait in the inbox (open the vault for a write first, e.g. `vault upgrade`, which applies them);
queued legacy rows are still in `legacy_athlete_memory`.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import context, op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENGINE_TABLE = "athlete_memory"
LEGACY_COPY = "legacy_athlete_memory"
ADOPTION_TABLE = "legacy_adoption"

CREATE_INBOX = (
    "CREATE TABLE engine_inbox (id INTEGER PRIMARY KEY AUTOINCREMENT, athlete_id TEXT, "
    "memory_json TEXT, previous_json TEXT, written_at TEXT, "
    "origin TEXT NOT NULL DEFAULT 'engine' CHECK (origin IN ('engine', 'legacy')), "
    "refused TEXT)"
)
CREATE_DIRTY = "CREATE TABLE engine_dirty (athlete_id TEXT PRIMARY KEY) WITHOUT ROWID"
CREATE_ENGINE_TABLE = (
    "CREATE TABLE athlete_memory (athlete_id TEXT PRIMARY KEY, memory_json TEXT NOT NULL, "
    "updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, "
    "written_by TEXT NOT NULL DEFAULT 'engine' CHECK (written_by IN ('engine', 'vault')))"
)
ENGINE_WRITE_TRIGGER = (
    "CREATE TRIGGER athlete_memory_engine_write BEFORE INSERT ON athlete_memory "
    "WHEN NEW.written_by = 'engine' BEGIN "
    "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
    "VALUES (NEW.athlete_id, NEW.memory_json, "
    "(SELECT memory_json FROM athlete_memory WHERE athlete_id = NEW.athlete_id), "
    "NEW.updated_at, 'engine'); END"
)
WATCHED = ("facts", "patterns", "notes")


def _dirty_triggers(table: str) -> list[tuple[str, str]]:
    mark = "INSERT OR IGNORE INTO engine_dirty (athlete_id) VALUES"
    return [
        (
            f"engine_dirty_{table}_insert",
            f"CREATE TRIGGER engine_dirty_{table}_insert AFTER INSERT ON {table} "
            f"BEGIN {mark} (NEW.athlete_id); END",
        ),
        (
            f"engine_dirty_{table}_update",
            f"CREATE TRIGGER engine_dirty_{table}_update AFTER UPDATE ON {table} "
            f"BEGIN {mark} (OLD.athlete_id); {mark} (NEW.athlete_id); END",
        ),
        (
            f"engine_dirty_{table}_delete",
            f"CREATE TRIGGER engine_dirty_{table}_delete AFTER DELETE ON {table} "
            f"BEGIN {mark} (OLD.athlete_id); END",
        ),
    ]


TRIGGERS = [("athlete_memory_engine_write", ENGINE_WRITE_TRIGGER)] + [
    pair for table in WATCHED for pair in _dirty_triggers(table)
]


def upgrade() -> None:
    if op.get_context().dialect.name != "sqlite":
        return
    shadow = False
    legacy = False
    if not context.is_offline_mode():
        tables = set(sa.inspect(op.get_bind()).get_table_names())
        shadow = ENGINE_TABLE in tables
        legacy = {LEGACY_COPY, ADOPTION_TABLE} <= tables
    op.execute(CREATE_INBOX)
    op.execute(CREATE_DIRTY)
    if shadow:
        _queue_shadow_rows()
    if legacy:
        _queue_legacy_rows()
    op.execute(CREATE_ENGINE_TABLE)
    for _, statement in TRIGGERS:
        op.execute(statement)
    op.execute("INSERT OR IGNORE INTO engine_dirty (athlete_id) SELECT id FROM athletes")


def _queue_shadow_rows() -> None:
    """A plain athlete_memory table (the engine made it after an earlier upgrade): queue its rows."""
    bind = op.get_bind()
    columns = {c["name"] for c in sa.inspect(bind).get_columns(ENGINE_TABLE)}
    written = "updated_at" if "updated_at" in columns else "NULL"
    op.execute(
        "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
        f"SELECT athlete_id, memory_json, NULL, {written}, 'engine' FROM {ENGINE_TABLE} "
        "ORDER BY rowid"
    )
    op.execute(f"DROP TABLE {ENGINE_TABLE}")


def _queue_legacy_rows() -> None:
    """The legacy rows not adopted yet, in the order the engine stored them."""
    bind = op.get_bind()
    columns = {c["name"] for c in sa.inspect(bind).get_columns(LEGACY_COPY)}
    written = "l.updated_at" if "updated_at" in columns else "NULL"
    op.execute(
        "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
        f"SELECT l.athlete_id, l.memory_json, NULL, {written}, 'legacy' FROM {LEGACY_COPY} AS l "
        f"WHERE NOT EXISTS (SELECT 1 FROM {ADOPTION_TABLE} AS a WHERE a.status = 'adopted' "
        "AND a.athlete_id = TRIM(CAST(l.athlete_id AS TEXT))) ORDER BY l.rowid"
    )


def downgrade() -> None:
    if op.get_context().dialect.name != "sqlite":
        return
    if not context.is_offline_mode():
        waiting = (
            op.get_bind()
            .execute(sa.text("SELECT COUNT(*) FROM engine_inbox WHERE origin = 'engine'"))
            .scalar_one()
        )
        if waiting:
            raise RuntimeError(
                f"cannot downgrade: {waiting} write(s) of the engine wait in engine_inbox; "
                "open the vault for writing first (e.g. `vault upgrade`), which applies them"
            )
    for name, _ in reversed(TRIGGERS):
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute(f"DROP TABLE {ENGINE_TABLE}")
    op.execute("DROP TABLE engine_dirty")
    op.execute("DROP TABLE engine_inbox")
