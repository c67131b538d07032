"""Episodes (what happened, when, where, with whom, how it turned out) and reference knowledge.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

Purpose: seed 003's episodic memory and static knowledge, in the same file as everything else.

- `episodes`: one row per remembered event of an owner (an athlete or an agent): text, type,
  outcome, occurred_at (canonical UTC text on SQLite), the app's own `ref` (unique per owner),
  `metadata` as JSON text (seed 003's keys: location, person / npc, item, outcome, day) and
  `owner_key`, a one-token hash of the owner id that the full-text index holds so that a query
  is restricted to one owner *inside* FTS5 (an AND on a short posting list) instead of by a
  join after matching every owner's rows.
- SQLite: `episodes_fts`, an FTS5 table with **external content** (`content='episodes'`) kept in
  step by three triggers. External content rather than contentless: the text is stored once (in
  `episodes`), any DELETE of an episode (forget, caps, a cascade from `athletes`) removes its
  index entries through the trigger with the old values FTS5 needs, and SQLite 3.40 has no
  `contentless_delete`. Tokenizer: porter stemming over unicode61 without diacritics.
- PostgreSQL: a generated `search` tsvector column (english configuration) with a GIN index.
- `episode_vectors`: optional app-supplied embeddings, float32 little-endian blobs.
- `episode_archive`: episodes that left by the per-owner cap or by retention (its own table:
  the facts' `archive.kind` CHECK allows only fact / pattern / note).
- `knowledge` (kind, name, attributes JSON, unique per kind and name) and `knowledge_names`
  (lower-cased names and aliases -> knowledge row) for lookups by the names in a context.
- `episode_list`: the analysts' view, the metadata keys as columns (dialect-specific JSON SQL,
  spelled literally here).

Frozen: imports only SQLAlchemy and Alembic. Downgrade drops all of the above (episodes,
vectors, archive and knowledge are lost).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ARCHIVE_REASONS = ("capped", "expired")

FTS_SQLITE = (
    "CREATE VIRTUAL TABLE episodes_fts USING fts5(owner_key, text, content='episodes', "
    "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')"
)
TRIGGERS_SQLITE: tuple[tuple[str, str], ...] = (
    (
        "episodes_fts_insert",
        "CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN "
        "INSERT INTO episodes_fts(rowid, owner_key, text) VALUES (new.id, new.owner_key, new.text); "
        "END",
    ),
    (
        "episodes_fts_delete",
        "CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN "
        "INSERT INTO episodes_fts(episodes_fts, rowid, owner_key, text) "
        "VALUES ('delete', old.id, old.owner_key, old.text); "
        "END",
    ),
    (
        "episodes_fts_update",
        "CREATE TRIGGER episodes_fts_update AFTER UPDATE OF owner_key, text ON episodes BEGIN "
        "INSERT INTO episodes_fts(episodes_fts, rowid, owner_key, text) "
        "VALUES ('delete', old.id, old.owner_key, old.text); "
        "INSERT INTO episodes_fts(rowid, owner_key, text) VALUES (new.id, new.owner_key, new.text); "
        "END",
    ),
)

EPISODE_LIST_SQLITE = (
    "CREATE VIEW episode_list AS SELECT e.id, e.owner_id, e.ref, e.type, e.outcome, "
    "e.occurred_at, e.text, json_extract(e.metadata, '$.location') AS location, "
    "COALESCE(json_extract(e.metadata, '$.person'), json_extract(e.metadata, '$.npc')) AS person, "
    "json_extract(e.metadata, '$.item') AS item, json_extract(e.metadata, '$.day') AS day, "
    "e.metadata, e.created_at FROM episodes AS e"
)
EPISODE_LIST_POSTGRESQL = (
    "CREATE VIEW episode_list AS SELECT e.id, e.owner_id, e.ref, e.type, e.outcome, "
    "e.occurred_at, e.text, CAST(e.metadata AS json) ->> 'location' AS location, "
    "COALESCE(CAST(e.metadata AS json) ->> 'person', CAST(e.metadata AS json) ->> 'npc') AS person, "
    "CAST(e.metadata AS json) ->> 'item' AS item, CAST(e.metadata AS json) ->> 'day' AS day, "
    "e.metadata, e.created_at FROM episodes AS e"
)


def upgrade() -> None:
    dialect = op.get_context().dialect.name
    op.create_table(
        "episodes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.String(128), nullable=False),
        sa.Column("owner_key", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(200), nullable=True),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("outcome", sa.String(40), nullable=True),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("metadata", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["athletes.id"], name="fk_episodes_owner_id_athletes", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_episodes"),
        sa.UniqueConstraint("owner_id", "ref", name="uq_episodes_owner_id_ref"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_episodes_owner_id_occurred_at", "episodes", ["owner_id", "occurred_at"])
    op.create_index("ix_episodes_occurred_at", "episodes", ["occurred_at"])
    op.create_table(
        "episode_vectors",
        sa.Column("episode_id", sa.Integer(), nullable=False),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("dim", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["episode_id"],
            ["episodes.id"],
            name="fk_episode_vectors_episode_id_episodes",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("episode_id", name="pk_episode_vectors"),
    )
    op.create_table(
        "episode_archive",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.String(128), nullable=False),
        sa.Column("original_id", sa.Integer(), nullable=False),
        sa.Column("ref", sa.String(200), nullable=True),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("outcome", sa.String(40), nullable=True),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("metadata", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "reason",
            sa.Enum(
                *ARCHIVE_REASONS,
                name="reason",
                native_enum=False,
                create_constraint=True,
                length=32,
            ),
            nullable=False,
        ),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["athletes.id"],
            name="fk_episode_archive_owner_id_athletes",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_episode_archive"),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "ix_episode_archive_owner_id_archived_at", "episode_archive", ["owner_id", "archived_at"]
    )
    op.create_index("ix_episode_archive_archived_at", "episode_archive", ["archived_at"])
    op.create_table(
        "knowledge",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("attributes", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_knowledge"),
        sa.UniqueConstraint("kind", "name", name="uq_knowledge_kind_name"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "knowledge_names",
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("knowledge_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["knowledge_id"],
            ["knowledge.id"],
            name="fk_knowledge_names_knowledge_id_knowledge",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("name_key", "knowledge_id", name="pk_knowledge_names"),
    )
    if dialect == "sqlite":
        op.execute(FTS_SQLITE)
        for _name, create in TRIGGERS_SQLITE:
            op.execute(create)
        op.execute(EPISODE_LIST_SQLITE)
    else:
        op.execute(
            "ALTER TABLE episodes ADD COLUMN search tsvector "
            "GENERATED ALWAYS AS (to_tsvector('english', text)) STORED"
        )
        op.execute("CREATE INDEX ix_episodes_search ON episodes USING gin (search)")
        op.execute(EPISODE_LIST_POSTGRESQL)


def downgrade() -> None:
    dialect = op.get_context().dialect.name
    op.execute("DROP VIEW IF EXISTS episode_list")
    if dialect == "sqlite":
        for name, _create in reversed(TRIGGERS_SQLITE):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS episodes_fts")
    op.drop_table("knowledge_names")
    op.drop_table("knowledge")
    op.drop_index("ix_episode_archive_archived_at", table_name="episode_archive")
    op.drop_index("ix_episode_archive_owner_id_archived_at", table_name="episode_archive")
    op.drop_table("episode_archive")
    op.drop_table("episode_vectors")
    op.drop_index("ix_episodes_occurred_at", table_name="episodes")
    op.drop_index("ix_episodes_owner_id_occurred_at", table_name="episodes")
    op.drop_table("episodes")
