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
CURRENT_VIEWS = VIEWS_V1


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
# so autogenerate never tries to create them as tables.
view_metadata = MetaData()


def _fact_view_columns() -> list[Column[object]]:
    return [
        Column("id", Integer),
        Column("athlete_id", String),
        Column("text", String),
        Column("category", String),
        Column("conflict_key", String),
        Column("source", String),
        Column("source_ref", String),
        Column("extractor", String),
        Column("confidence", Float),
        Column("level", String),
        Column("occurrences", Integer),
        Column("learned_at", UTCDateTime),
        Column("observed_at", UTCDateTime),
        Column("last_reinforced_at", UTCDateTime),
        Column("updated_at", UTCDateTime),
    ]


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


active_facts = Table("active_facts", view_metadata, *_fact_view_columns())
prompt_facts = Table("prompt_facts", view_metadata, *_fact_view_columns())
top_facts = Table("top_facts", view_metadata, *_fact_view_columns(), Column("rank", Integer))
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
