"""The SQL views: the stable read interface for the library and for analysts.

Each view's text is defined once here, per version. A migration creates a given version and a
later migration replaces it whole ("replaceable objects"), so old revisions keep replaying the
SQL they shipped with. The views read no clock: anything time-relative takes `now` from the caller.
The SQL runs unchanged on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Column, Float, Integer, MetaData, String, Table

from vault.storage.types import UTCDateTime


@dataclass(frozen=True)
class View:
    """One version of a view: its name and the SELECT that defines it."""

    name: str
    select: str

    def create_sql(self) -> str:
        return f"CREATE VIEW {self.name} AS {self.select}"

    def drop_sql(self) -> str:
        return f"DROP VIEW IF EXISTS {self.name}"


# Version 1 (revision 0001). Literal SQL: a revision replays exactly what it shipped with,
# whatever the limits are today. tests/migrations/test_view_contract.py pins each text by hash.
ACTIVE_FACTS_V1 = View(
    "active_facts",
    "SELECT f.id, f.athlete_id, f.text, f.category, f.conflict_key, f.source, f.source_ref, "
    "f.extractor, f.confidence, CASE WHEN f.confidence >= 0.8 THEN 'high' "
    "WHEN f.confidence >= 0.5 THEN 'medium' ELSE 'low' END AS level, f.occurrences, "
    "f.learned_at, f.observed_at, f.last_reinforced_at, f.updated_at "
    "FROM facts AS f WHERE f.confidence >= 0.3",
)

PROMPT_FACTS_V1 = View(
    "prompt_facts", "SELECT a.* FROM active_facts AS a WHERE a.confidence >= 0.5"
)

TOP_FACTS_V1 = View(
    "top_facts",
    "SELECT ranked.* FROM (SELECT a.*, ROW_NUMBER() OVER (PARTITION BY a.athlete_id "
    "ORDER BY a.confidence DESC, a.last_reinforced_at DESC, a.id ASC) AS rank "
    "FROM active_facts AS a) AS ranked WHERE ranked.rank <= 15",
)

ACTIVE_PATTERNS_V1 = View(
    "active_patterns",
    "SELECT t.id, t.athlete_id, t.text, t.source, t.source_ref, t.extractor, t.confidence, "
    "t.occurrences, t.learned_at, t.last_reinforced_at, t.updated_at, "
    "ROW_NUMBER() OVER (PARTITION BY t.athlete_id "
    "ORDER BY t.confidence DESC, t.last_reinforced_at DESC, t.id ASC) AS rank "
    "FROM patterns AS t",
)

ACTIVE_NOTES_V1 = View(
    "active_notes",
    "SELECT t.id, t.athlete_id, t.text, t.source, t.source_ref, t.extractor, t.confidence, "
    "t.occurrences, t.learned_at, t.last_reinforced_at, t.updated_at, "
    "ROW_NUMBER() OVER (PARTITION BY t.athlete_id "
    "ORDER BY t.confidence DESC, t.last_reinforced_at DESC, t.id ASC) AS rank "
    "FROM notes AS t",
)

ATHLETE_SUMMARY_V1 = View(
    "athlete_summary",
    "SELECT a.id AS athlete_id, "
    "(SELECT COUNT(*) FROM facts AS f WHERE f.athlete_id = a.id "
    "AND f.confidence >= 0.3) AS fact_count, "
    "(SELECT COUNT(*) FROM facts AS f WHERE f.athlete_id = a.id "
    "AND f.confidence >= 0.5) AS prompt_fact_count, "
    "(SELECT COUNT(*) FROM patterns AS p WHERE p.athlete_id = a.id) AS pattern_count, "
    "(SELECT COUNT(*) FROM notes AS n WHERE n.athlete_id = a.id) AS note_count, "
    "(SELECT COUNT(*) FROM archive AS r WHERE r.athlete_id = a.id) AS archived_count, "
    "a.created_at, a.updated_at AS last_updated "
    "FROM athletes AS a",
)

# Creation order; dependent views come after what they read and are dropped before it.
VIEWS_V1: tuple[View, ...] = (
    ACTIVE_FACTS_V1,
    PROMPT_FACTS_V1,
    TOP_FACTS_V1,
    ACTIVE_PATTERNS_V1,
    ACTIVE_NOTES_V1,
    ATHLETE_SUMMARY_V1,
)

# Version 2 (revision 0006): version 1 unchanged, plus the history and tag views. Literal SQL,
# pinned by hash like version 1; revision 0006 spells the same text.
FACT_HISTORY_V1 = View(
    "fact_history",
    "WITH RECURSIVE chain(start_id, last_archive_id, next_id, depth) AS ("
    "SELECT a.id, a.id, a.superseded_by, 0 FROM archive AS a WHERE a.kind = 'fact' "
    "UNION ALL "
    "SELECT c.start_id, b.id, b.superseded_by, c.depth + 1 FROM chain AS c "
    "JOIN archive AS b ON b.kind = 'fact' AND b.original_id = c.next_id "
    "WHERE c.next_id IS NOT NULL AND c.depth < 100), "
    "ends AS (SELECT c.start_id, c.last_archive_id, c.next_id, c.depth, "
    "ROW_NUMBER() OVER (PARTITION BY c.start_id ORDER BY c.depth DESC) AS n FROM chain AS c) "
    "SELECT a.id AS archive_id, a.athlete_id, a.original_id AS fact_id, "
    "a.original_text AS text, a.category, a.conflict_key, a.reason, a.confidence, "
    "a.learned_at, a.archived_at, a.superseded_by AS replaced_by, "
    "f.id AS current_fact_id, f.text AS current_text, "
    "COALESCE(f.text, l.original_text) AS last_text, "
    "CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS is_current, "
    "l.id AS last_archive_id, l.reason AS last_reason, l.archived_at AS last_archived_at, "
    "e.depth AS steps "
    "FROM archive AS a JOIN ends AS e ON e.start_id = a.id AND e.n = 1 "
    "JOIN archive AS l ON l.id = e.last_archive_id "
    "LEFT JOIN facts AS f ON f.id = e.next_id "
    "WHERE a.kind = 'fact'",
)

TAGGED_FACTS_V1 = View(
    "tagged_facts",
    "SELECT 'active' AS status, f.athlete_id, f.id AS fact_id, NULL AS archive_id, t.tag, "
    "f.text, f.category, f.confidence, NULL AS reason, f.learned_at, NULL AS archived_at "
    "FROM facts AS f JOIN fact_tags AS t ON t.fact_id = f.id WHERE f.confidence >= 0.3 "
    "UNION ALL "
    "SELECT 'archived' AS status, a.athlete_id, a.original_id AS fact_id, a.id AS archive_id, "
    "t.tag, a.original_text AS text, a.category, a.confidence, a.reason, a.learned_at, "
    "a.archived_at "
    "FROM archive AS a JOIN archive_tags AS t ON t.archive_id = a.id WHERE a.kind = 'fact'",
)

VIEWS_V2: tuple[View, ...] = (*VIEWS_V1, FACT_HISTORY_V1, TAGGED_FACTS_V1)

# Version 3 (revision 0013): every join pairs the athlete id with a key, so each view reads one
# athlete's rows together (one shard, once tables are partitioned or distributed by athlete).
# fact_history on PostgreSQL walks each athlete's chains inside a LATERAL subquery whose
# recursive CTE is filtered by that athlete (`WHERE athlete_id = 'x'` on the view reaches it);
# SQLite has no LATERAL, so there the CTE carries the athlete id through every step instead.
_FACT_HISTORY_SELECT = (
    "SELECT a.id AS archive_id, a.athlete_id, a.original_id AS fact_id, "
    "a.original_text AS text, a.category, a.conflict_key, a.reason, a.confidence, "
    "a.learned_at, a.archived_at, a.superseded_by AS replaced_by, "
    "f.id AS current_fact_id, f.text AS current_text, "
    "COALESCE(f.text, l.original_text) AS last_text, "
    "CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS is_current, "
    "l.id AS last_archive_id, l.reason AS last_reason, l.archived_at AS last_archived_at, "
    "e.depth AS steps "
)
FACT_HISTORY_V2 = View(
    "fact_history",
    "WITH RECURSIVE chain(athlete_id, start_id, last_archive_id, next_id, depth) AS ("
    "SELECT a.athlete_id, a.id, a.id, a.superseded_by, 0 FROM archive AS a WHERE a.kind = 'fact' "
    "UNION ALL "
    "SELECT c.athlete_id, c.start_id, b.id, b.superseded_by, c.depth + 1 FROM chain AS c "
    "JOIN archive AS b ON b.athlete_id = c.athlete_id AND b.kind = 'fact' "
    "AND b.original_id = c.next_id "
    "WHERE c.next_id IS NOT NULL AND c.depth < 100), "
    "ends AS (SELECT c.athlete_id, c.start_id, c.last_archive_id, c.next_id, c.depth, "
    "ROW_NUMBER() OVER (PARTITION BY c.athlete_id, c.start_id ORDER BY c.depth DESC) AS n "
    "FROM chain AS c) "
    + _FACT_HISTORY_SELECT
    + "FROM archive AS a JOIN ends AS e ON e.athlete_id = a.athlete_id AND e.start_id = a.id "
    "AND e.n = 1 "
    "JOIN archive AS l ON l.athlete_id = a.athlete_id AND l.id = e.last_archive_id "
    "LEFT JOIN facts AS f ON f.athlete_id = a.athlete_id AND f.id = e.next_id "
    "WHERE a.kind = 'fact'",
)
FACT_HISTORY_V2_POSTGRESQL = View(
    "fact_history",
    "SELECT h.* FROM athletes AS t CROSS JOIN LATERAL ("
    "WITH RECURSIVE chain(start_id, last_archive_id, next_id, depth) AS ("
    "SELECT a.id, a.id, a.superseded_by, 0 FROM archive AS a "
    "WHERE a.athlete_id = t.id AND a.kind = 'fact' "
    "UNION ALL "
    "SELECT c.start_id, b.id, b.superseded_by, c.depth + 1 FROM chain AS c "
    "JOIN archive AS b ON b.athlete_id = t.id AND b.kind = 'fact' AND b.original_id = c.next_id "
    "WHERE c.next_id IS NOT NULL AND c.depth < 100), "
    "ends AS (SELECT c.start_id, c.last_archive_id, c.next_id, c.depth, "
    "ROW_NUMBER() OVER (PARTITION BY c.start_id ORDER BY c.depth DESC) AS n FROM chain AS c) "
    + _FACT_HISTORY_SELECT
    + "FROM archive AS a JOIN ends AS e ON e.start_id = a.id AND e.n = 1 "
    "JOIN archive AS l ON l.athlete_id = t.id AND l.id = e.last_archive_id "
    "LEFT JOIN facts AS f ON f.athlete_id = t.id AND f.id = e.next_id "
    "WHERE a.athlete_id = t.id AND a.kind = 'fact') AS h",
)
TAGGED_FACTS_V2 = View(
    "tagged_facts",
    "SELECT 'active' AS status, f.athlete_id, f.id AS fact_id, NULL AS archive_id, t.tag, "
    "f.text, f.category, f.confidence, NULL AS reason, f.learned_at, NULL AS archived_at "
    "FROM facts AS f JOIN fact_tags AS t ON t.athlete_id = f.athlete_id AND t.fact_id = f.id "
    "WHERE f.confidence >= 0.3 "
    "UNION ALL "
    "SELECT 'archived' AS status, a.athlete_id, a.original_id AS fact_id, a.id AS archive_id, "
    "t.tag, a.original_text AS text, a.category, a.confidence, a.reason, a.learned_at, "
    "a.archived_at "
    "FROM archive AS a JOIN archive_tags AS t ON t.athlete_id = a.athlete_id "
    "AND t.archive_id = a.id WHERE a.kind = 'fact'",
)
VIEWS_V3: tuple[View, ...] = (*VIEWS_V1, FACT_HISTORY_V2, TAGGED_FACTS_V2)
CURRENT_VIEWS = VIEWS_V3


def dialect_views(views: tuple[View, ...], dialect: str) -> tuple[View, ...]:
    """`views` as `dialect` holds them: version 3's fact_history differs on PostgreSQL."""
    if dialect != "postgresql":
        return views
    return tuple(FACT_HISTORY_V2_POSTGRESQL if v is FACT_HISTORY_V2 else v for v in views)


# What each view and column means: `vault datasette-metadata` prints these, and revision 0006
# writes the same words as COMMENT ON VIEW / COLUMN on PostgreSQL (a literal copy, frozen there).
_FACT_COLUMNS: dict[str, str] = {
    "id": "the fact's id (facts.id)",
    "athlete_id": "whose memory this is",
    "text": "the fact, as the coach model reads it",
    "category": "sport, goal, duration, time_preference, level, injury, preference, context, "
    "training_response, insight or general",
    "conflict_key": "the slot a value fills (`primary sport`, `goal`, ...): a new value replaces "
    "the old",
    "source": "where it came from: conversation, user_message, activity_note, behavior, "
    "pattern_analysis, profile_change, manual",
    "source_ref": "the message time or activity id it was learned from",
    "extractor": "the rule or model that produced it (`rules:injury`, `llm:gemma-3n`)",
    "confidence": "0..1, decayed x0.95 per unreinforced week after 7 days",
    "level": "high (>= 0.8), medium (>= 0.5) or low",
    "occurrences": "how many times it was observed",
    "learned_at": "first learned (UTC, `2026-03-02T07:30:00.000000Z`)",
    "observed_at": "the newest observation of this value (newer wins)",
    "last_reinforced_at": "last time it was observed again (decay counts from here)",
    "updated_at": "last time the row changed",
}
_LIST_COLUMNS: dict[str, str] = {
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
}
VIEW_DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "active_facts": ("Every active fact (confidence >= 0.3), one row per fact.", _FACT_COLUMNS),
    "prompt_facts": (
        "Facts confident enough for the MEMORY block (confidence >= 0.5).",
        _FACT_COLUMNS,
    ),
    "top_facts": (
        "Each athlete's top 15 active facts in prompt order.",
        {**_FACT_COLUMNS, "rank": "1..15: confidence desc, last reinforced desc, id"},
    ),
    "active_patterns": ("Recurring patterns, ranked per athlete.", _LIST_COLUMNS),
    "active_notes": ("Coaching notes, ranked per athlete.", _LIST_COLUMNS),
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
        "Every archived fact and where its place went: superseded_by followed to the fact that "
        "holds the place today, or to the last archived one.",
        {
            "archive_id": "the archive row (archive.id)",
            "athlete_id": "whose memory this is",
            "fact_id": "the archived fact's former id",
            "text": "what the fact said",
            "category": "its category",
            "conflict_key": "its slot (`primary sport`, `goal`, ...), if any",
            "reason": "why it left: superseded, merged, resolved, decayed, capped, edited",
            "confidence": "its confidence when it left",
            "learned_at": "when it was first learned (UTC)",
            "archived_at": "when it left (UTC)",
            "replaced_by": "the fact that replaced it directly (superseded_by)",
            "current_fact_id": "the active fact that holds the place today (NULL: none)",
            "current_text": "that active fact's text (NULL: none)",
            "last_text": "the newest text of the chain: the active fact's, else the last "
            "archived one's",
            "is_current": "1 when the chain ends at an active fact",
            "last_archive_id": "the chain's last archived row",
            "last_reason": "why that last archived fact left",
            "last_archived_at": "when it left (UTC)",
            "steps": "replacements between this fact and the end of its chain",
        },
    ),
    "tagged_facts": (
        "One row per entity tag of a fact, active or archived (injury history by body part: "
        "`WHERE tag LIKE 'body:%'`).",
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


def create_views(execute: Callable[[str], object], views: tuple[View, ...]) -> None:
    """Create `views` in order through `execute` (e.g. alembic's `op.execute`)."""
    for view in views:
        execute(view.create_sql())


def drop_views(execute: Callable[[str], object], views: tuple[View, ...]) -> None:
    """Drop `views` in reverse order; needed around SQLite batch migrations (alembic #1207)."""
    for view in reversed(views):
        execute(view.drop_sql())


def replace_views(
    execute: Callable[[str], object], old: tuple[View, ...], new: tuple[View, ...]
) -> None:
    """Swap one set of view versions for another: drop `old` (reverse order), create `new`.

    A revision that changes a view calls `replace_views(op.execute, VIEWS_Vn, VIEWS_Vn+1)` and
    its downgrade the reverse. A revision that alters a table in SQLite batch mode (a table
    rebuild, which fails at the RENAME while a view reads the table: alembic #1207) drops the
    views before the batch block and creates the same version after it. A revision spells the
    view SQL it ships with literally (or names a frozen constant here), never CURRENT_VIEWS.
    """
    drop_views(execute, old)
    create_views(execute, new)


# Table objects for reading the views with typed columns; not part of the models' metadata,
# so autogenerate never tries to create them as tables. Fact reads go to the facts table
# instead (their confidence is computed as of `now`: vault.storage.queries).
view_metadata = MetaData()


def _list_view_columns() -> list[Column[object]]:
    return [
        Column("id", Integer),
        Column("athlete_id", String),
        Column("text", String),
        Column("source", String),
        Column("source_ref", String),
        Column("extractor", String),
        Column("confidence", Float),
        Column("occurrences", Integer),
        Column("learned_at", UTCDateTime),
        Column("last_reinforced_at", UTCDateTime),
        Column("updated_at", UTCDateTime),
        Column("rank", Integer),
    ]


active_patterns = Table("active_patterns", view_metadata, *_list_view_columns())
active_notes = Table("active_notes", view_metadata, *_list_view_columns())
athlete_summary = Table(
    "athlete_summary",
    view_metadata,
    Column("athlete_id", String),
    Column("fact_count", Integer),
    Column("prompt_fact_count", Integer),
    Column("pattern_count", Integer),
    Column("note_count", Integer),
    Column("archived_count", Integer),
    Column("created_at", UTCDateTime),
    Column("last_updated", UTCDateTime),
)
