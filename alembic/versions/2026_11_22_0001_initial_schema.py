"""Initial schema: athletes, facts, fact tags, patterns, notes, archive, forget log, and views.

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Purpose: create everything the vault needs on an empty file.
Downgrade caveats: drops every vault table and view (all memory is lost); tables the vault
does not own are never touched.
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from vault.storage.views import VIEWS_V1, create_views, drop_views

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CATEGORIES = (
    "sport", "goal", "duration", "time_preference", "level", "injury", "preference",
    "context", "training_response", "insight", "general",
)  # fmt: skip
SOURCES = (
    "conversation", "user_message", "activity_note", "behavior", "pattern_analysis",
    "profile_change", "manual",
)  # fmt: skip
KINDS = ("fact", "pattern", "note")
REASONS = ("superseded", "merged", "resolved", "decayed", "capped")


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
    create_views(op.execute, VIEWS_V1)


def downgrade() -> None:
    drop_views(op.execute, VIEWS_V1)
    for table in ("forget_log", "archive", "notes", "patterns", "fact_tags", "facts", "athletes"):
        op.drop_table(table)
