"""Initial schema: athletes, facts, fact tags, patterns, notes, archive, forget log, and views.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Purpose: create everything the vault needs on an empty file.
Frozen: imports only SQLAlchemy and Alembic. Tables are spelled out column by column and the
views' SQL is version 1 copied literally (byte-identical to vault.storage.views.VIEWS_V1, which
tests/migrations/test_frozen_revisions.py checks), never today's models or views.

Downgrade caveats: drops every vault table and view (all memory is lost); tables the vault
does not own are never touched.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CATEGORIES = (
    "sport",
    "goal",
    "duration",
    "time_preference",
    "level",
    "injury",
    "preference",
    "context",
    "training_response",
    "insight",
    "general",
)
SOURCES = (
    "conversation",
    "user_message",
    "activity_note",
    "behavior",
    "pattern_analysis",
    "profile_change",
    "manual",
)
KINDS = ("fact", "pattern", "note")
REASONS = ("superseded", "merged", "resolved", "decayed", "capped")

# The views, version 1: (name, SELECT) in creation order; dependent views come after what they
# read and are dropped before it.
VIEWS_V1: tuple[tuple[str, str], ...] = (
    (
        "active_facts",
        (
            "SELECT f.id, f.athlete_id, f.text, f.category, f.conflict_key, f.source, f.source_ref, "
            "f.extractor, f.confidence, CASE WHEN f.confidence >= 0.8 THEN 'high' "
            "WHEN f.confidence >= 0.5 THEN 'medium' ELSE 'low' END AS level, f.occurrences, "
            "f.learned_at, f.observed_at, f.last_reinforced_at, f.updated_at "
            "FROM facts AS f WHERE f.confidence >= 0.3"
        ),
    ),
    ("prompt_facts", "SELECT a.* FROM active_facts AS a WHERE a.confidence >= 0.5"),
    (
        "top_facts",
        (
            "SELECT ranked.* FROM (SELECT a.*, ROW_NUMBER() OVER (PARTITION BY a.athlete_id "
            "ORDER BY a.confidence DESC, a.last_reinforced_at DESC, a.id ASC) AS rank "
            "FROM active_facts AS a) AS ranked WHERE ranked.rank <= 15"
        ),
    ),
    (
        "active_patterns",
        (
            "SELECT t.id, t.athlete_id, t.text, t.source, t.source_ref, t.extractor, t.confidence, "
            "t.occurrences, t.learned_at, t.last_reinforced_at, t.updated_at, "
            "ROW_NUMBER() OVER (PARTITION BY t.athlete_id "
            "ORDER BY t.confidence DESC, t.last_reinforced_at DESC, t.id ASC) AS rank "
            "FROM patterns AS t"
        ),
    ),
    (
        "active_notes",
        (
            "SELECT t.id, t.athlete_id, t.text, t.source, t.source_ref, t.extractor, t.confidence, "
            "t.occurrences, t.learned_at, t.last_reinforced_at, t.updated_at, "
            "ROW_NUMBER() OVER (PARTITION BY t.athlete_id "
            "ORDER BY t.confidence DESC, t.last_reinforced_at DESC, t.id ASC) AS rank "
            "FROM notes AS t"
        ),
    ),
    (
        "athlete_summary",
        (
            "SELECT a.id AS athlete_id, "
            "(SELECT COUNT(*) FROM facts AS f WHERE f.athlete_id = a.id "
            "AND f.confidence >= 0.3) AS fact_count, "
            "(SELECT COUNT(*) FROM facts AS f WHERE f.athlete_id = a.id "
            "AND f.confidence >= 0.5) AS prompt_fact_count, "
            "(SELECT COUNT(*) FROM patterns AS p WHERE p.athlete_id = a.id) AS pattern_count, "
            "(SELECT COUNT(*) FROM notes AS n WHERE n.athlete_id = a.id) AS note_count, "
            "(SELECT COUNT(*) FROM archive AS r WHERE r.athlete_id = a.id) AS archived_count, "
            "a.created_at, a.updated_at AS last_updated "
            "FROM athletes AS a"
        ),
    ),
)


def _enum(values: tuple[str, ...], name: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=32)


def _list_table(name: str) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("normalized_text", sa.String(300), nullable=False),
        sa.Column("source", _enum(SOURCES, "source"), nullable=False),
        sa.Column("source_ref", sa.String(200), nullable=True),
        sa.Column("extractor", sa.String(100), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("occurrences", sa.Integer(), nullable=False),
        sa.Column("learned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_reinforced_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
        sa.CheckConstraint("occurrences >= 1", name="occurrences_positive"),
        sa.ForeignKeyConstraint(["athlete_id"], ["athletes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("athlete_id", "normalized_text"),
        sqlite_autoincrement=True,
    )
    op.create_index(f"ix_{name}_athlete_id_confidence", name, ["athlete_id", "confidence"])


def upgrade() -> None:
    op.create_table(
        "athletes",
        sa.Column("id", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "facts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("normalized_text", sa.String(300), nullable=False),
        sa.Column("category", _enum(CATEGORIES, "category"), nullable=False),
        sa.Column("conflict_key", sa.String(60), nullable=True),
        sa.Column("source", _enum(SOURCES, "source"), nullable=False),
        sa.Column("source_ref", sa.String(200), nullable=True),
        sa.Column("extractor", sa.String(100), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("base_confidence", sa.Float(), nullable=False),
        sa.Column("occurrences", sa.Integer(), nullable=False),
        sa.Column("learned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("observed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_reinforced_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
        sa.CheckConstraint(
            "base_confidence >= 0 AND base_confidence <= 1", name="base_confidence_range"
        ),
        sa.CheckConstraint("occurrences >= 1", name="occurrences_positive"),
        sa.ForeignKeyConstraint(["athlete_id"], ["athletes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("athlete_id", "normalized_text"),
        sa.UniqueConstraint("athlete_id", "conflict_key"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_facts_athlete_id_confidence", "facts", ["athlete_id", "confidence"])
    op.create_index("ix_facts_last_reinforced_at", "facts", ["last_reinforced_at"])
    op.create_table(
        "fact_tags",
        sa.Column("fact_id", sa.Integer(), nullable=False),
        sa.Column("tag", sa.String(60), nullable=False),
        sa.ForeignKeyConstraint(["fact_id"], ["facts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("fact_id", "tag"),
    )
    op.create_index("ix_fact_tags_tag", "fact_tags", ["tag"])
    _list_table("patterns")
    _list_table("notes")
    op.create_table(
        "archive",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column("kind", _enum(KINDS, "kind"), nullable=False),
        sa.Column("original_id", sa.Integer(), nullable=True),
        sa.Column("original_text", sa.String(300), nullable=False),
        sa.Column("category", _enum(CATEGORIES, "category"), nullable=True),
        sa.Column("conflict_key", sa.String(60), nullable=True),
        sa.Column("source", _enum(SOURCES, "source"), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("occurrences", sa.Integer(), nullable=False),
        sa.Column("learned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("superseded_by", sa.Integer(), nullable=True),
        sa.Column("reason", _enum(REASONS, "reason"), nullable=False),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["athlete_id"], ["athletes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_archive_athlete_id_archived_at", "archive", ["athlete_id", "archived_at"])
    op.create_index("ix_archive_archived_at", "archive", ["archived_at"])
    op.create_index("ix_archive_kind_superseded_by", "archive", ["kind", "superseded_by"])
    op.create_table(
        "forget_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column("forgotten_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("facts", sa.Integer(), nullable=False),
        sa.Column("patterns", sa.Integer(), nullable=False),
        sa.Column("notes", sa.Integer(), nullable=False),
        sa.Column("archived", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["athlete_id"], ["athletes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    for name, select in VIEWS_V1:
        op.execute(f"CREATE VIEW {name} AS {select}")


def downgrade() -> None:
    for name, _select in reversed(VIEWS_V1):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    for table in ("forget_log", "archive", "notes", "patterns", "fact_tags", "facts", "athletes"):
        op.drop_table(table)
