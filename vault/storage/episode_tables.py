"""Episodes, their vectors and archive, and reference knowledge, on the models' metadata.

Alembic owns the DDL (alembic/versions/2026_11_24_0005_episodes.py). What the models cannot say
lives only in that revision: on SQLite the FTS5 table `episodes_fts` (external content over
`episodes`, kept in step by triggers) and the `episode_list` view; on PostgreSQL the generated
`search` tsvector column and its GIN index. alembic/env.py compares only tables the models name,
so those never show up as drift.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from vault.domain.episodes import (
    EPISODE_TEXT_MAX,
    EPISODE_TYPE_MAX,
    KNOWLEDGE_KIND_MAX,
    KNOWLEDGE_NAME_MAX,
    REF_MAX,
)
from vault.domain.limits import ATHLETE_ID_MAX
from vault.storage.tables import Base
from vault.storage.types import UTCDateTime
from vault.storage.views import View


def _owner_fk() -> Mapped[str]:
    return mapped_column(
        String(ATHLETE_ID_MAX), ForeignKey("athletes.id", ondelete="CASCADE"), nullable=False
    )


class EpisodeRow(Base):
    """Something that happened to an owner (athlete or agent), with seed 003's metadata."""

    __tablename__ = "episodes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner_id: Mapped[str] = _owner_fk()
    # One FTS5 token naming the owner (hash of owner_id): recall ANDs it inside the index.
    owner_key: Mapped[str] = mapped_column(String(16))
    ref: Mapped[Optional[str]] = mapped_column(String(REF_MAX))
    type: Mapped[str] = mapped_column(String(EPISODE_TYPE_MAX))
    outcome: Mapped[Optional[str]] = mapped_column(String(EPISODE_TYPE_MAX))
    text: Mapped[str] = mapped_column(String(EPISODE_TEXT_MAX))
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    meta: Mapped[str] = mapped_column("metadata", Text)  # JSON object text
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (
        UniqueConstraint("owner_id", "ref"),
        Index(None, "owner_id", "occurred_at"),  # time windows, recency, caps
        Index(None, "occurred_at"),  # retention across owners
        {"sqlite_autoincrement": True},
    )


class EpisodeVectorRow(Base):
    """An app-supplied embedding of one episode: float32 little-endian, `dim` values."""

    __tablename__ = "episode_vectors"

    episode_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("episodes.id", ondelete="CASCADE"), primary_key=True
    )
    model: Mapped[str] = mapped_column(String(100))
    dim: Mapped[int] = mapped_column(Integer)
    vector: Mapped[bytes] = mapped_column(LargeBinary)


class EpisodeArchiveRow(Base):
    """An episode that left by the per-owner cap or by retention."""

    __tablename__ = "episode_archive"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner_id: Mapped[str] = _owner_fk()
    original_id: Mapped[int] = mapped_column(Integer)
    ref: Mapped[Optional[str]] = mapped_column(String(REF_MAX))
    type: Mapped[str] = mapped_column(String(EPISODE_TYPE_MAX))
    outcome: Mapped[Optional[str]] = mapped_column(String(EPISODE_TYPE_MAX))
    text: Mapped[str] = mapped_column(String(EPISODE_TEXT_MAX))
    occurred_at: Mapped[datetime] = mapped_column(UTCDateTime)
    meta: Mapped[str] = mapped_column("metadata", Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    reason: Mapped[str] = mapped_column(String(32))
    archived_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (
        CheckConstraint("reason IN ('capped', 'expired')", name="reason"),
        Index(None, "owner_id", "archived_at"),
        Index(None, "archived_at"),
        {"sqlite_autoincrement": True},
    )


class KnowledgeRow(Base):
    """A static fact sheet about a named entity (an NPC, a crop, a race course, a shoe)."""

    __tablename__ = "knowledge"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(KNOWLEDGE_KIND_MAX))
    name: Mapped[str] = mapped_column(String(KNOWLEDGE_NAME_MAX))
    attributes: Mapped[str] = mapped_column(Text)  # JSON object text
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (UniqueConstraint("kind", "name"), {"sqlite_autoincrement": True})


class KnowledgeNameRow(Base):
    """A lower-cased name or alias of a knowledge row: the lookup by names in a context."""

    __tablename__ = "knowledge_names"

    name_key: Mapped[str] = mapped_column(String(KNOWLEDGE_NAME_MAX), primary_key=True)
    knowledge_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("knowledge.id", ondelete="CASCADE"), primary_key=True
    )


# The analysts' view, version 1 (revision 0005 spells the same SQL literally; the JSON functions
# differ per dialect). tests/migrations/test_episodes_migration.py holds the two in step.
EPISODE_LIST_V1: dict[str, View] = {
    "sqlite": View(
        "episode_list",
        "SELECT e.id, e.owner_id, e.ref, e.type, e.outcome, "
        "e.occurred_at, e.text, json_extract(e.metadata, '$.location') AS location, "
        "COALESCE(json_extract(e.metadata, '$.person'), json_extract(e.metadata, '$.npc')) AS person, "
        "json_extract(e.metadata, '$.item') AS item, json_extract(e.metadata, '$.day') AS day, "
        "e.metadata, e.created_at FROM episodes AS e",
    ),
    "postgresql": View(
        "episode_list",
        "SELECT e.id, e.owner_id, e.ref, e.type, e.outcome, "
        "e.occurred_at, e.text, CAST(e.metadata AS json) ->> 'location' AS location, "
        "COALESCE(CAST(e.metadata AS json) ->> 'person', CAST(e.metadata AS json) ->> 'npc') AS person, "
        "CAST(e.metadata AS json) ->> 'item' AS item, CAST(e.metadata AS json) ->> 'day' AS day, "
        "e.metadata, e.created_at FROM episodes AS e",
    ),
}
EPISODE_VIEWS: tuple[str, ...] = ("episode_list",)
