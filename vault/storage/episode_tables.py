"""Episodes, their vectors and archive, and reference knowledge, on the tables' metadata.

Alembic owns the DDL (alembic/versions/2026_11_24_0005_episodes.py). What the models cannot say
lives only in that revision: on SQLite the FTS5 table `episodes_fts` (external content over
`episodes`, kept in step by triggers) and the `episode_list` view; on PostgreSQL the generated
`search` tsvector column and its GIN index. alembic/env.py compares only tables the models name,
so those never show up as drift.
"""

from __future__ import annotations

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from vault.domain.limits import (
    ATHLETE_ID_MAX,
    EPISODE_TEXT_MAX,
    EPISODE_TYPE_MAX,
    KNOWLEDGE_KIND_MAX,
    KNOWLEDGE_NAME_MAX,
    REF_MAX,
)
from vault.domain.topics import TOPIC_MAX
from vault.storage.tables import ID, metadata, tenant_fk, tenant_id_key
from vault.storage.types import UTCDateTime
from vault.storage.views import View


def _owner_fk() -> Column[str]:
    return Column(
        "owner_id",
        String(ATHLETE_ID_MAX),
        ForeignKey("athletes.id", ondelete="CASCADE"),
        nullable=False,
    )


# Something that happened to an owner (athlete or agent), with the episodic-memory design's metadata.
episodes_table = Table(
    "episodes",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    _owner_fk(),
    # One FTS5 token naming the owner (hash of owner_id): recall ANDs it inside the index.
    Column("owner_key", String(16), nullable=False),
    Column("ref", String(REF_MAX), nullable=True),
    Column("type", String(EPISODE_TYPE_MAX), nullable=False),
    Column("outcome", String(EPISODE_TYPE_MAX), nullable=True),
    Column("text", String(EPISODE_TEXT_MAX), nullable=False),
    Column("occurred_at", UTCDateTime, nullable=False),
    Column("metadata", Text, nullable=False),  # JSON object text
    Column("created_at", UTCDateTime, nullable=False),
    UniqueConstraint("owner_id", "ref"),
    Index(None, "owner_id", "occurred_at"),  # time windows, recency, caps
    Index(None, "occurred_at"),  # retention across owners
    tenant_id_key("episodes", "owner_id"),
    sqlite_autoincrement=True,
)

# An app-supplied embedding of one episode: float32 little-endian, `dim` values.
episode_vectors_table = Table(
    "episode_vectors",
    metadata,
    Column("owner_id", String(ATHLETE_ID_MAX), primary_key=True),
    Column("episode_id", ID, primary_key=True),
    Column("model", String(100), nullable=False),
    Column("dim", Integer, nullable=False),
    Column("vector", LargeBinary, nullable=False),
    tenant_fk("episode_vectors", "episode_id", "episodes", "owner_id"),
)

# A topic an episode's words name (vault.domain.topics), kept in the episodes' transaction and
# leaving with its episode: the `conversation_topics` view counts them per owner.
episode_topics_table = Table(
    "episode_topics",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column(
        "athlete_id",
        String(ATHLETE_ID_MAX),
        ForeignKey("athletes.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("episode_id", ID, nullable=False),
    Column("topic", String(TOPIC_MAX), nullable=False),
    Column("occurred_at", UTCDateTime, nullable=False),
    ForeignKeyConstraint(  # paired with the owner (episodes name theirs owner_id)
        ["athlete_id", "episode_id"],
        ["episodes.owner_id", "episodes.id"],
        ondelete="CASCADE",
        name="fk_episode_topics_athlete_id_episodes",
    ),
    UniqueConstraint("athlete_id", "id"),
    UniqueConstraint("athlete_id", "episode_id", "topic"),
    Index(None, "athlete_id", "topic", "occurred_at"),
    sqlite_autoincrement=True,
)

# An episode that left by the per-owner cap or by retention.
episode_archive_table = Table(
    "episode_archive",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    _owner_fk(),
    Column("original_id", ID, nullable=False),
    Column("ref", String(REF_MAX), nullable=True),
    Column("type", String(EPISODE_TYPE_MAX), nullable=False),
    Column("outcome", String(EPISODE_TYPE_MAX), nullable=True),
    Column("text", String(EPISODE_TEXT_MAX), nullable=False),
    Column("occurred_at", UTCDateTime, nullable=False),
    Column("metadata", Text, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("reason", String(32), nullable=False),
    Column("archived_at", UTCDateTime, nullable=False),
    CheckConstraint("reason IN ('capped', 'expired')", name="reason"),
    Index(None, "owner_id", "archived_at"),
    Index(None, "archived_at"),
    tenant_id_key("episode_archive", "owner_id"),
    sqlite_autoincrement=True,
)

# A static fact sheet about a named entity (an NPC, a crop, a race course, a shoe).
knowledge_table = Table(
    "knowledge",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("kind", String(KNOWLEDGE_KIND_MAX), nullable=False),
    Column("name", String(KNOWLEDGE_NAME_MAX), nullable=False),
    Column("attributes", Text, nullable=False),  # JSON object text
    Column("updated_at", UTCDateTime, nullable=False),
    UniqueConstraint("kind", "name"),
    sqlite_autoincrement=True,
)

# A lower-cased name or alias of a knowledge row: the lookup by names in a context.
knowledge_names_table = Table(
    "knowledge_names",
    metadata,
    Column("name_key", String(KNOWLEDGE_NAME_MAX), primary_key=True),
    Column("knowledge_id", ID, ForeignKey("knowledge.id", ondelete="CASCADE"), primary_key=True),
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
# Seed 004's `conversation_topics`, version 1 (revision 0011 spells the same SQL literally).
CONVERSATION_TOPICS_V1 = View(
    "conversation_topics",
    "SELECT t.athlete_id, t.topic, COUNT(*) AS mention_count, "
    "MIN(t.occurred_at) AS first_mentioned, MAX(t.occurred_at) AS last_mentioned "
    "FROM episode_topics AS t GROUP BY t.athlete_id, t.topic",
)
EPISODE_VIEWS: tuple[str, ...] = ("episode_list", "conversation_topics")
EPISODE_VIEW_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "episode_list": (
        "Every recorded episode, one row each, with the common metadata keys as columns.",
        {
            "id": "the episode",
            "owner_id": "whose episode it is (an athlete id)",
            "ref": "the caller's reference (an activity id, ...); rewritten in place when seen again",
            "type": "what kind of episode: session, injury, race, ...",
            "outcome": "how it went, if known",
            "occurred_at": "when it happened (UTC)",
            "text": "what happened, in words",
            "location": "metadata location, if any",
            "person": "metadata person (or npc), if any",
            "item": "metadata item, if any",
            "day": "metadata day, if any",
            "metadata": "every metadata key, as JSON",
            "created_at": "when it was recorded (UTC)",
        },
    ),
    "conversation_topics": (
        "What each owner's conversations were about: the words and phrases used, how often, "
        "first and last.",
        {
            "athlete_id": "whose conversations (the episodes' owner)",
            "topic": "a word or short phrase of the episodes (lower-cased)",
            "mention_count": "how many of the owner's episodes name it",
            "first_mentioned": "when the first of them occurred (UTC)",
            "last_mentioned": "when the latest of them occurred (UTC)",
        },
    ),
}
