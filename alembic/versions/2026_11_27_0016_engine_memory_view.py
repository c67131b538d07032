"""The engine's `athlete_memory` becomes a view computed when read; items keep their tokens.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27

Purpose: since revision 0007 every write transaction rendered the MEMORY block of each athlete
it changed and rewrote that athlete's row in the `athlete_memory` table, so that the engine's
next read saw it: about a fifth of every merge, on every vault, whether an engine ever reads
the file or not (issue 25; BENCHMARKS.md). Now the row is computed when the engine reads it.

- `facts`, `patterns`, `notes` (every dialect): `inline_text` (the item's text as the block
  shows it, NULL when that is its text), `inline_tokens` and `inline_tokens_last` (cl100k
  tokens of " text" and of " text\\n"). The MEMORY block's token budget is then a sum SQL can
  take. Vault fills them for every item it writes; the items already stored are counted by
  vault right after this revision (`vault upgrade`, or opening with upgrade=True): a revision
  imports no tokenizer. Until then an item is left out of the engine's row.
- SQLite: `athlete_memory` is a view (the document built with json_object from the items, the
  engine's latest waiting row shown until vault applies it; vault.storage.engine_view
  explains the SQL), and an INSTEAD OF INSERT trigger queues the engine's writes in
  `engine_inbox` as the table's BEFORE INSERT trigger did. The engine's CREATE TABLE IF NOT
  EXISTS is a no-op, its SELECT and INSERT OR REPLACE work unchanged. `engine_dirty`, its nine
  triggers and the rows vault wrote go: nothing publishes rows any more. The rows the engine
  wrote are all in `engine_inbox` already (the table's trigger queued each); a plain
  `athlete_memory` without that trigger (the engine made it after an earlier downgrade) has
  its rows queued first, as revision 0007 did.

Frozen: imports only SQLAlchemy and Alembic; the SQL is spelled here.
Downgrade (SQLite) refuses while the engine's writes wait in the inbox (apply them first:
`vault upgrade`), then puts back the table holding the rows the view showed, its trigger and
the dirty list, every athlete marked so the next write publishes their rows again; the token
columns are dropped everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import context, op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ITEM_TABLES = ("facts", "patterns", "notes")
TEXT_LENGTH = {"facts": 200, "patterns": 300, "notes": 300}
ENGINE_TABLE = "athlete_memory"

CREATE_VIEW = (
    "CREATE VIEW athlete_memory (athlete_id, memory_json, updated_at) AS SELECT w.athlete_id, "
    "w.memory_json, w.written_at FROM engine_inbox AS w WHERE w.refused IS NULL AND w.origin "
    "= 'engine' AND w.id = (SELECT MAX(x.id) FROM engine_inbox AS x WHERE x.athlete_id = "
    "w.athlete_id AND x.refused IS NULL AND x.origin = 'engine') UNION ALL SELECT a.id, "
    "(SELECT CASE WHEN MAX(kf + kn + kp) > 0 THEN json_object('key_facts', "
    "json_group_array(json_object('fact', shown, 'source', CASE source WHEN 'activity_note' "
    "THEN 'behavior' WHEN 'behavior' THEN 'behavior' WHEN 'pattern_analysis' THEN 'behavior' "
    "WHEN 'profile_change' THEN 'profile_change' ELSE 'conversation' END, 'confidence', "
    "confidence, 'learned_at', CASE WHEN substr(learned_at, 20, 7) = '.000000' THEN "
    "substr(learned_at, 1, 19) || 'Z' ELSE learned_at END)) FILTER (WHERE kind = 'f' AND r <= "
    "kf), 'patterns', json_group_array(shown) FILTER (WHERE kind = 'p' AND r <= kp), "
    "'coaching_notes', json_group_array(shown) FILTER (WHERE kind = 'n' AND r <= kn), "
    "'updated_at', CASE WHEN substr(a.updated_at, 20, 7) = '.000000' THEN "
    "substr(a.updated_at, 1, 19) || 'Z' ELSE a.updated_at END) END FROM (SELECT * FROM "
    "(SELECT *, COALESCE(f_fit, 0) AS kf, CASE WHEN f_fit IS NOT NULL THEN n_n ELSE "
    "COALESCE(n_fit, 0) END AS kn, CASE WHEN f_fit IS NOT NULL OR n_fit IS NOT NULL THEN p_n "
    "ELSE p_fit END AS kp FROM (SELECT *, CASE WHEN n_all + p_all <= 174 - 2 THEN "
    "COALESCE(MAX(CASE WHEN kind = 'f' AND cost + n_all + p_all <= 174 - 2 THEN r END) OVER "
    "(), 0) END AS f_fit, CASE WHEN p_all <= 174 - 2 THEN COALESCE(MAX(CASE WHEN kind = 'n' "
    "AND cost + p_all <= 174 - 2 THEN r END) OVER (), 0) END AS n_fit, COALESCE(MAX(CASE WHEN "
    "kind = 'p' AND cost + 0 <= 174 - 2 THEN r END) OVER (), 0) AS p_fit FROM (SELECT *, "
    "COALESCE(MAX(CASE kind WHEN 'p' THEN cost END) OVER (), 0) AS p_all, COALESCE(MAX(CASE "
    "kind WHEN 'n' THEN cost END) OVER (), 0) AS n_all, COALESCE(MAX(CASE kind WHEN 'p' THEN "
    "r END) OVER (), 0) AS p_n, COALESCE(MAX(CASE kind WHEN 'n' THEN r END) OVER (), 0) AS "
    "n_n FROM (SELECT *, CASE kind WHEN 'f' THEN 3 WHEN 'p' THEN 3 ELSE 3 END + "
    "COALESCE(SUM(t) OVER (PARTITION BY kind ORDER BY r ROWS BETWEEN UNBOUNDED PRECEDING AND "
    "1 PRECEDING), 0) + tl + 1 * (r - 1) AS cost FROM (SELECT * FROM (SELECT 'f' AS kind, "
    "row_number() OVER (ORDER BY confidence DESC, last_reinforced_at DESC, id) AS r, "
    "COALESCE(inline_text, text) AS shown, inline_tokens AS t, inline_tokens_last AS tl, "
    "confidence, source, learned_at FROM facts WHERE athlete_id = a.id AND inline_tokens IS "
    "NOT NULL AND COALESCE(inline_text, text) <> '' AND confidence >= 0.5) WHERE r <= 15 "
    "UNION ALL SELECT * FROM (SELECT 'p' AS kind, row_number() OVER (ORDER BY confidence "
    "DESC, last_reinforced_at DESC, id) AS r, COALESCE(inline_text, text) AS shown, "
    "inline_tokens AS t, inline_tokens_last AS tl, confidence, NULL AS source, NULL AS "
    "learned_at FROM patterns WHERE athlete_id = a.id AND inline_tokens IS NOT NULL AND "
    "COALESCE(inline_text, text) <> '') WHERE r <= 5 UNION ALL SELECT * FROM (SELECT 'n' AS "
    "kind, row_number() OVER (ORDER BY confidence DESC, last_reinforced_at DESC, id) AS r, "
    "COALESCE(inline_text, text) AS shown, inline_tokens AS t, inline_tokens_last AS tl, "
    "confidence, NULL AS source, NULL AS learned_at FROM notes WHERE athlete_id = a.id AND "
    "inline_tokens IS NOT NULL AND COALESCE(inline_text, text) <> '') WHERE r <= 5))))) ORDER "
    "BY kind, r)), replace(substr(a.updated_at, 1, 19), 'T', ' ') FROM athletes AS a WHERE "
    "NOT EXISTS (SELECT 1 FROM engine_inbox AS x WHERE x.athlete_id = a.id AND x.refused IS "
    "NULL AND x.origin = 'engine') AND COALESCE((SELECT inline_tokens_last + 3 FROM patterns "
    "WHERE athlete_id = a.id AND inline_tokens IS NOT NULL AND COALESCE(inline_text, text) <> "
    "'' ORDER BY confidence DESC, last_reinforced_at DESC, id LIMIT 1), (SELECT "
    "inline_tokens_last + 3 FROM notes WHERE athlete_id = a.id AND inline_tokens IS NOT NULL "
    "AND COALESCE(inline_text, text) <> '' ORDER BY confidence DESC, last_reinforced_at DESC, "
    "id LIMIT 1), (SELECT inline_tokens_last + 3 FROM facts WHERE athlete_id = a.id AND "
    "inline_tokens IS NOT NULL AND COALESCE(inline_text, text) <> '' AND confidence >= 0.5 "
    "ORDER BY confidence DESC, last_reinforced_at DESC, id LIMIT 1)) + 2 <= 174"
)
CREATE_TRIGGER = (
    "CREATE TRIGGER athlete_memory_engine_write INSTEAD OF INSERT ON athlete_memory BEGIN "
    "SELECT RAISE(ABORT, 'NOT NULL constraint failed: athlete_memory.memory_json') WHERE "
    "NEW.memory_json IS NULL; INSERT INTO engine_inbox (athlete_id, memory_json, "
    "previous_json, written_at, origin) VALUES (NEW.athlete_id, NEW.memory_json, (SELECT "
    "memory_json FROM athlete_memory WHERE athlete_id = NEW.athlete_id), "
    "COALESCE(NEW.updated_at, CURRENT_TIMESTAMP), 'engine'); END"
)
CREATE_INBOX_INDEX = "CREATE INDEX ix_engine_inbox_athlete_id ON engine_inbox (athlete_id, id)"

# revision 0007's table, its trigger and the dirty list, for the downgrade
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


DIRTY_TRIGGERS = [pair for table in ITEM_TABLES for pair in _dirty_triggers(table)]


def upgrade() -> None:
    for table in ITEM_TABLES:
        op.add_column(table, sa.Column("inline_text", sa.String(TEXT_LENGTH[table])))
        op.add_column(table, sa.Column("inline_tokens", sa.Integer()))
        op.add_column(table, sa.Column("inline_tokens_last", sa.Integer()))
        op.execute(f"CREATE INDEX ix_{table}_uncounted ON {table} (id) WHERE inline_tokens IS NULL")
    if op.get_context().dialect.name != "sqlite":
        return
    offline = context.is_offline_mode()
    if offline or sa.inspect(op.get_bind()).has_table(ENGINE_TABLE):
        _queue_shadow_rows(offline)
    for name, _ in DIRTY_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TRIGGER IF EXISTS athlete_memory_engine_write")
    op.execute(f"DROP TABLE IF EXISTS {ENGINE_TABLE}")
    op.execute("DROP TABLE engine_dirty")
    op.execute(CREATE_INBOX_INDEX)
    op.execute(CREATE_VIEW)
    op.execute(CREATE_TRIGGER)


def _queue_shadow_rows(offline: bool) -> None:
    """A plain athlete_memory without the trigger that queues the engine's writes (the engine
    made it after an earlier downgrade): its rows are queued first, the condition in SQL so
    that an offline script does the same."""
    written = "updated_at"  # the engine's own table has it; an older build's may not
    if not offline:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(ENGINE_TABLE)}
        written = "updated_at" if "updated_at" in columns else "NULL"
    op.execute(
        "INSERT INTO engine_inbox (athlete_id, memory_json, previous_json, written_at, origin) "
        f"SELECT athlete_id, memory_json, NULL, {written}, 'engine' FROM {ENGINE_TABLE} "
        "WHERE NOT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'trigger' "
        "AND name = 'athlete_memory_engine_write') ORDER BY rowid"
    )


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        if not context.is_offline_mode():
            waiting = (
                op.get_bind()
                .execute(
                    sa.text(
                        "SELECT COUNT(*) FROM engine_inbox "
                        "WHERE origin = 'engine' AND refused IS NULL"
                    )
                )
                .scalar_one()
            )
            if waiting:
                raise RuntimeError(
                    f"cannot downgrade: {waiting} write(s) of the engine wait in engine_inbox; "
                    "open the vault for writing first (e.g. `vault upgrade`), which applies them"
                )
        # the rows the view shows now (nothing waits: only vault's), so that the engine reads
        # them until the older vault's first write publishes every athlete again
        op.execute(f"CREATE TEMPORARY TABLE shown AS SELECT * FROM {ENGINE_TABLE}")
        op.execute("DROP TRIGGER athlete_memory_engine_write")
        op.execute(f"DROP VIEW {ENGINE_TABLE}")
        op.execute("DROP INDEX ix_engine_inbox_athlete_id")
        op.execute(CREATE_DIRTY)
        op.execute(CREATE_ENGINE_TABLE)
        op.execute(ENGINE_WRITE_TRIGGER)
        op.execute(
            f"INSERT INTO {ENGINE_TABLE} (athlete_id, memory_json, updated_at, written_by) "
            "SELECT athlete_id, memory_json, updated_at, 'vault' FROM shown"
        )
        op.execute("DROP TABLE shown")
        for _, statement in DIRTY_TRIGGERS:
            op.execute(statement)
        op.execute("INSERT OR IGNORE INTO engine_dirty (athlete_id) SELECT id FROM athletes")
    for table in ITEM_TABLES:
        op.execute(f"DROP INDEX ix_{table}_uncounted")
        for column in ("inline_tokens_last", "inline_tokens", "inline_text"):
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
