"""Conversation topics: the `episode_topics` table and seed 004's `conversation_topics` view.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25

Purpose: per owner, what their conversations were about (seed 004's CONVERSATION_TOPICS: topic,
mention count, last mentioned; first mentioned too). Each episode written names its topics in
`episode_topics` (vault.domain.topics), in the episodes' own transaction; the view counts them.

- `episode_topics`: one row per (episode, topic), with the owner and the episode's time. Rows
  leave with their episode (ON DELETE CASCADE, and said outright by every path that deletes
  episodes) and with their athlete, so forget, caps, retention and erasure take the topics
  with the words they came from. Tenant rule: the owner's id on every row, a 64-bit id on
  PostgreSQL, UNIQUE (athlete_id, id) beside it.
- `conversation_topics`: athlete_id, topic, mention_count, first_mentioned, last_mentioned.

Caveat: episodes written before this revision have no topics until they are written again.
Frozen: imports only SQLAlchemy and Alembic; the view SQL is spelled here.
Downgrade drops the view and the table (the episodes stay).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CONVERSATION_TOPICS = (
    "SELECT t.athlete_id, t.topic, COUNT(*) AS mention_count, "
    "MIN(t.occurred_at) AS first_mentioned, MAX(t.occurred_at) AS last_mentioned "
    "FROM episode_topics AS t GROUP BY t.athlete_id, t.topic"
)


def upgrade() -> None:
    op.create_table(
        "episode_topics",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column("episode_id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(100), nullable=False),
        sa.Column("occurred_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["athlete_id"],
            ["athletes.id"],
            name="fk_episode_topics_athlete_id_athletes",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["episode_id"],
            ["episodes.id"],
            name="fk_episode_topics_episode_id_episodes",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_episode_topics"),
        sa.UniqueConstraint("athlete_id", "id", name="uq_episode_topics_athlete_id_id"),
        sa.UniqueConstraint(
            "athlete_id",
            "episode_id",
            "topic",
            name="uq_episode_topics_athlete_id_episode_id_topic",
        ),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "ix_episode_topics_athlete_id_topic_occurred_at",
        "episode_topics",
        ["athlete_id", "topic", "occurred_at"],
    )
    op.execute(f"CREATE VIEW conversation_topics AS {CONVERSATION_TOPICS}")


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS conversation_topics")
    op.drop_index("ix_episode_topics_athlete_id_topic_occurred_at", table_name="episode_topics")
    op.drop_table("episode_topics")
