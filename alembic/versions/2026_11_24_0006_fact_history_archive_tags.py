"""Fact history and tags kept in the archive: the `archive_tags` table and views version 2.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

Purpose: analysts could not see what holds an archived fact's place today (the README's "what
replaced it" query gave NULL when the replacement was itself archived later), and tags were
dropped when a fact was archived, so injury history by body part was lost.

- `archive_tags (archive_id, tag)`: the entity tags a fact had when it left the active set,
  written by the vault when it archives a fact; deleted with their archive row (ON DELETE
  CASCADE: forget, cleanup, delete). Rows archived before this revision have no tags (their
  facts, and so their tags, are gone).
- views version 2 = version 1 unchanged, plus `fact_history` (a recursive CTE following
  `superseded_by` chains through the archive to the active fact that holds the place today,
  or the last archived one) and `tagged_facts` (one row per tag of an active or archived fact).
- PostgreSQL: COMMENT ON VIEW / COLUMN for every view (the words datasette's metadata shows).

Frozen: imports only SQLAlchemy and Alembic; the view SQL and the comments are spelled here.
Downgrade drops the two views and `archive_tags` (the archived tags are lost).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FACT_HISTORY = (
    "WITH RECURSIVE chain(start_id, last_archive_id, next_id, depth) AS (SELECT a.id, "
    "a.id, a.superseded_by, 0 FROM archive AS a WHERE a.kind = 'fact' UNION ALL SELECT "
    "c.start_id, b.id, b.superseded_by, c.depth + 1 FROM chain AS c JOIN archive AS b ON "
    "b.kind = 'fact' AND b.original_id = c.next_id WHERE c.next_id IS NOT NULL AND "
    "c.depth < 100), ends AS (SELECT c.start_id, c.last_archive_id, c.next_id, c.depth, "
    "ROW_NUMBER() OVER (PARTITION BY c.start_id ORDER BY c.depth DESC) AS n FROM chain AS "
    "c) SELECT a.id AS archive_id, a.athlete_id, a.original_id AS fact_id, "
    "a.original_text AS text, a.category, a.conflict_key, a.reason, a.confidence, "
    "a.learned_at, a.archived_at, a.superseded_by AS replaced_by, f.id AS "
    "current_fact_id, f.text AS current_text, COALESCE(f.text, l.original_text) AS "
    "last_text, CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS is_current, l.id AS "
    "last_archive_id, l.reason AS last_reason, l.archived_at AS last_archived_at, e.depth "
    "AS steps FROM archive AS a JOIN ends AS e ON e.start_id = a.id AND e.n = 1 JOIN "
    "archive AS l ON l.id = e.last_archive_id LEFT JOIN facts AS f ON f.id = e.next_id "
    "WHERE a.kind = 'fact'"
)
TAGGED_FACTS = (
    "SELECT 'active' AS status, f.athlete_id, f.id AS fact_id, NULL AS archive_id, t.tag, "
    "f.text, f.category, f.confidence, NULL AS reason, f.learned_at, NULL AS archived_at "
    "FROM facts AS f JOIN fact_tags AS t ON t.fact_id = f.id WHERE f.confidence >= 0.3 "
    "UNION ALL SELECT 'archived' AS status, a.athlete_id, a.original_id AS fact_id, a.id "
    "AS archive_id, t.tag, a.original_text AS text, a.category, a.confidence, a.reason, "
    "a.learned_at, a.archived_at FROM archive AS a JOIN archive_tags AS t ON t.archive_id "
    "= a.id WHERE a.kind = 'fact'"
)
VIEWS = (("fact_history", FACT_HISTORY), ("tagged_facts", TAGGED_FACTS))

# view -> (what it holds, column -> what it means); PostgreSQL keeps them as comments
COMMENTS: dict[str, tuple[str, dict[str, str]]] = {
    "active_facts": (
        "Every active fact (confidence >= 0.3), one row per fact.",
        {
            "id": "the fact's id (facts.id)",
            "athlete_id": "whose memory this is",
            "text": "the fact, as the coach model reads it",
            "category": "sport, goal, duration, time_preference, level, injury, "
            "preference, context, training_response, insight or general",
            "conflict_key": "the slot a value fills (`primary sport`, `goal`, ...): a "
            "new value replaces the old",
            "source": "where it came from: conversation, user_message, activity_note, "
            "behavior, pattern_analysis, profile_change, manual",
            "source_ref": "the message time or activity id it was learned from",
            "extractor": "the rule or model that produced it (`rules:injury`, `llm:gemma-3n`)",
            "confidence": "0..1, decayed x0.95 per unreinforced week after 7 days",
            "level": "high (>= 0.8), medium (>= 0.5) or low",
            "occurrences": "how many times it was observed",
            "learned_at": "first learned (UTC, `2026-03-02T07:30:00.000000Z`)",
            "observed_at": "the newest observation of this value (newer wins)",
            "last_reinforced_at": "last time it was observed again (decay counts from here)",
            "updated_at": "last time the row changed",
        },
    ),
    "prompt_facts": (
        "Facts confident enough for the MEMORY block (confidence >= 0.5).",
        {
            "id": "the fact's id (facts.id)",
            "athlete_id": "whose memory this is",
            "text": "the fact, as the coach model reads it",
            "category": "sport, goal, duration, time_preference, level, injury, "
            "preference, context, training_response, insight or general",
            "conflict_key": "the slot a value fills (`primary sport`, `goal`, ...): a "
            "new value replaces the old",
            "source": "where it came from: conversation, user_message, activity_note, "
            "behavior, pattern_analysis, profile_change, manual",
            "source_ref": "the message time or activity id it was learned from",
            "extractor": "the rule or model that produced it (`rules:injury`, `llm:gemma-3n`)",
            "confidence": "0..1, decayed x0.95 per unreinforced week after 7 days",
            "level": "high (>= 0.8), medium (>= 0.5) or low",
            "occurrences": "how many times it was observed",
            "learned_at": "first learned (UTC, `2026-03-02T07:30:00.000000Z`)",
            "observed_at": "the newest observation of this value (newer wins)",
            "last_reinforced_at": "last time it was observed again (decay counts from here)",
            "updated_at": "last time the row changed",
        },
    ),
    "top_facts": (
        "Each athlete's top 15 active facts in prompt order.",
        {
            "id": "the fact's id (facts.id)",
            "athlete_id": "whose memory this is",
            "text": "the fact, as the coach model reads it",
            "category": "sport, goal, duration, time_preference, level, injury, "
            "preference, context, training_response, insight or general",
            "conflict_key": "the slot a value fills (`primary sport`, `goal`, ...): a new "
            "value replaces the old",
            "source": "where it came from: conversation, user_message, activity_note, "
            "behavior, pattern_analysis, profile_change, manual",
            "source_ref": "the message time or activity id it was learned from",
            "extractor": "the rule or model that produced it (`rules:injury`, `llm:gemma-3n`)",
            "confidence": "0..1, decayed x0.95 per unreinforced week after 7 days",
            "level": "high (>= 0.8), medium (>= 0.5) or low",
            "occurrences": "how many times it was observed",
            "learned_at": "first learned (UTC, `2026-03-02T07:30:00.000000Z`)",
            "observed_at": "the newest observation of this value (newer wins)",
            "last_reinforced_at": "last time it was observed again (decay counts from here)",
            "updated_at": "last time the row changed",
            "rank": "1..15: confidence desc, last reinforced desc, id",
        },
    ),
    "active_patterns": (
        "Recurring patterns, ranked per athlete.",
        {
            "id": "the item's id",
            "athlete_id": "whose memory this is",
            "text": "the item, as the coach model reads it",
            "source": "where it came from",
            "source_ref": "the message time or activity id it was learned from",
            "extractor": "the rule or model that produced it",
            "confidence": "0..1",
            "occurrences": "how many times it was observed",
            "learned_at": "first learned (UTC)",
            "last_reinforced_at": "last time it was observed again",
            "updated_at": "last time the row changed",
            "rank": "1 = first in the MEMORY block (confidence, then most recent, then oldest id)",
        },
    ),
    "active_notes": (
        "Coaching notes, ranked per athlete.",
        {
            "id": "the item's id",
            "athlete_id": "whose memory this is",
            "text": "the item, as the coach model reads it",
            "source": "where it came from",
            "source_ref": "the message time or activity id it was learned from",
            "extractor": "the rule or model that produced it",
            "confidence": "0..1",
            "occurrences": "how many times it was observed",
            "learned_at": "first learned (UTC)",
            "last_reinforced_at": "last time it was observed again",
            "updated_at": "last time the row changed",
            "rank": "1 = first in the MEMORY block (confidence, then most recent, then oldest id)",
        },
    ),
    "athlete_summary": (
        "One row per athlete: how much memory it holds.",
        {
            "athlete_id": "the athlete",
            "fact_count": "active facts (confidence >= 0.3)",
            "prompt_fact_count": "facts that reach the MEMORY block (>= 0.5)",
            "pattern_count": "patterns (cap 5)",
            "note_count": "coaching notes (cap 5)",
            "archived_count": "archive rows (facts, patterns and notes that left)",
            "created_at": "first time anything was stored (UTC)",
            "last_updated": "last change (UTC)",
        },
    ),
    "fact_history": (
        (
            "Every archived fact and where its place went: superseded_by followed to the "
            "fact that holds the place today, or to the last archived one."
        ),
        {
            "archive_id": "the archive row (archive.id)",
            "athlete_id": "whose memory this is",
            "fact_id": "the archived fact's former id",
            "text": "what the fact said",
            "category": "its category",
            "conflict_key": "its slot (`primary sport`, `goal`, ...), if any",
            "reason": "why it left: superseded, merged, resolved, decayed, capped",
            "confidence": "its confidence when it left",
            "learned_at": "when it was first learned (UTC)",
            "archived_at": "when it left (UTC)",
            "replaced_by": "the fact that replaced it directly (superseded_by)",
            "current_fact_id": "the active fact that holds the place today (NULL: none)",
            "current_text": "that active fact's text (NULL: none)",
            "last_text": "the newest text of the chain: the active fact's, else the "
            "last archived one's",
            "is_current": "1 when the chain ends at an active fact",
            "last_archive_id": "the chain's last archived row",
            "last_reason": "why that last archived fact left",
            "last_archived_at": "when it left (UTC)",
            "steps": "replacements between this fact and the end of its chain",
        },
    ),
    "tagged_facts": (
        (
            "One row per entity tag of a fact, active or archived (injury history by "
            "body part: `WHERE tag LIKE 'body:%'`)."
        ),
        {
            "status": "active or archived",
            "athlete_id": "whose memory this is",
            "fact_id": "the fact's id (its former id when archived)",
            "archive_id": "the archive row, for archived facts",
            "tag": "`kind:entity`: body:knee, time:morning, context:kids, ...",
            "text": "the fact",
            "category": "its category",
            "confidence": "its confidence (when it left, for archived facts)",
            "reason": "why it left (archived facts)",
            "learned_at": "when it was first learned (UTC)",
            "archived_at": "when it left (UTC; archived facts)",
        },
    ),
}


def upgrade() -> None:
    op.create_table(
        "archive_tags",
        sa.Column("archive_id", sa.Integer(), nullable=False),
        sa.Column("tag", sa.String(60), nullable=False),
        sa.ForeignKeyConstraint(
            ["archive_id"],
            ["archive.id"],
            name="fk_archive_tags_archive_id_archive",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("archive_id", "tag", name="pk_archive_tags"),
    )
    for name, select in VIEWS:
        op.execute(f"CREATE VIEW {name} AS {select}")
    if op.get_context().dialect.name == "postgresql":
        for view, (description, columns) in COMMENTS.items():
            op.execute(f"COMMENT ON VIEW {view} IS {_quoted(description)}")
            for column, meaning in columns.items():
                op.execute(f"COMMENT ON COLUMN {view}.{column} IS {_quoted(meaning)}")


def downgrade() -> None:
    for name, _select in reversed(VIEWS):
        op.execute(f"DROP VIEW IF EXISTS {name}")
    op.drop_table("archive_tags")
    if op.get_context().dialect.name == "postgresql":
        dropped = {name for name, _select in VIEWS}
        for view, (_description, columns) in COMMENTS.items():
            if view in dropped:
                continue
            op.execute(f"COMMENT ON VIEW {view} IS NULL")  # the version 1 views stay
            for column in columns:
                op.execute(f"COMMENT ON COLUMN {view}.{column} IS NULL")


def _quoted(text: str) -> str:
    """A SQL string literal; `:` is escaped because op.execute reads `:name` as a parameter."""
    return "'" + text.replace("'", "''").replace(":", "\\:") + "'"
