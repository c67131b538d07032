"""The read side: library reads go straight to the SQL views (no repositories, no writes)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, Table, bindparam, func, literal_column, select, union_all

from vault.domain.limits import MAX_FACTS
from vault.domain.models import AthleteMemory, AthleteSummary, Fact, ListItem, PromptRow
from vault.domain.vocabulary import Category, Kind
from vault.storage import views
from vault.storage.driver_read import DriverRead
from vault.storage.repositories._sql import table_of
from vault.storage.tables import AthleteRow, FactRow, FactTagRow, NoteRow, PatternRow

_tags = FactTagRow.__table__
_patterns = table_of(PatternRow)
_notes = table_of(NoteRow)
_SELECT_TAGS = select(_tags.c.fact_id, _tags.c.tag).where(
    _tags.c.fact_id.in_(bindparam("ids", expanding=True))
)


def _ordered_facts(view: Table) -> Select[Any]:
    return (
        select(view)
        .where(view.c.athlete_id == bindparam("athlete"))
        .order_by(view.c.confidence.desc(), view.c.last_reinforced_at.desc(), view.c.id)
    )


_ACTIVE = _ordered_facts(views.active_facts)
_PROMPT = _ordered_facts(views.prompt_facts)
_TOP = _ordered_facts(views.top_facts).where(views.top_facts.c.rank <= bindparam("limit"))
_BY_CATEGORY = _ordered_facts(views.active_facts).where(
    views.active_facts.c.category == bindparam("category")
)
_LIST_ITEMS = {
    kind: select(view).where(view.c.athlete_id == bindparam("athlete")).order_by(view.c.rank)
    for kind, view in ((Kind.PATTERN, views.active_patterns), (Kind.NOTE, views.active_notes))
}
_SUMMARY = select(views.athlete_summary).where(
    views.athlete_summary.c.athlete_id == bindparam("athlete")
)
def _prompt_rows_statement() -> Any:
    """Every active item as (kind, id, text, confidence), each kind in priority order.

    Patterns and notes come from their tables: the `active_*` views add a window rank that
    SQLite cannot push the athlete filter through (measured: 34 vs 20 µs per read).
    """
    parts = [
        select(
            literal_column(f"'{kind.value}'").label("kind"),
            literal_column(str(order)).label("section"),
            view.c.id,
            view.c.text,
            view.c.confidence,
            view.c.last_reinforced_at,
        ).where(view.c.athlete_id == bindparam("athlete"))
        for order, (kind, view) in enumerate(
            (
                (Kind.FACT, views.active_facts),
                (Kind.PATTERN, _patterns),
                (Kind.NOTE, _notes),
            )
        )
    ]
    combined = union_all(*parts).subquery()
    return select(combined.c.kind, combined.c.id, combined.c.text, combined.c.confidence).order_by(
        combined.c.section,
        combined.c.confidence.desc(),
        combined.c.last_reinforced_at.desc(),
        combined.c.id,
    )


_KINDS = {kind.value: kind for kind in Kind}
# Times are only compared in SQL here, never parsed: the canonical UTC text sorts in time order.
_PROMPT_ROWS = DriverRead(_prompt_rows_statement())
_UPDATED_AT = select(AthleteRow.updated_at).where(AthleteRow.id == bindparam("athlete"))


def active_facts(connection: Connection, athlete_id: str) -> list[Fact]:
    """Facts with confidence >= 0.3, best first."""
    return _facts(connection, _ACTIVE, {"athlete": athlete_id})


def prompt_facts(connection: Connection, athlete_id: str) -> list[Fact]:
    """Facts with confidence >= 0.5, best first (what the MEMORY block may show)."""
    return _facts(connection, _PROMPT, {"athlete": athlete_id})


def top_facts(connection: Connection, athlete_id: str, limit: int = MAX_FACTS) -> list[Fact]:
    """The athlete's top facts by confidence, then most recent reinforcement (at most 15)."""
    return _facts(connection, _TOP, {"athlete": athlete_id, "limit": limit})


def facts_by_category(connection: Connection, athlete_id: str, category: Category) -> list[Fact]:
    return _facts(connection, _BY_CATEGORY, {"athlete": athlete_id, "category": category.value})


def list_items(connection: Connection, athlete_id: str, kind: Kind) -> list[ListItem]:
    rows = connection.execute(_LIST_ITEMS[kind], {"athlete": athlete_id})
    return [ListItem.model_validate({**row._mapping, "kind": kind}) for row in rows]


def memory(connection: Connection, athlete_id: str) -> AthleteMemory:
    """Everything active for one athlete (facts >= 0.3; patterns; notes)."""
    return AthleteMemory(
        athlete_id=athlete_id,
        facts=tuple(active_facts(connection, athlete_id)),
        patterns=tuple(list_items(connection, athlete_id, Kind.PATTERN)),
        notes=tuple(list_items(connection, athlete_id, Kind.NOTE)),
        updated_at=connection.execute(_UPDATED_AT, {"athlete": athlete_id}).scalar_one_or_none(),
    )


def prompt_rows(connection: Connection, athlete_id: str) -> list[PromptRow]:
    """The athlete's facts (>= 0.3), patterns and notes for the prompt, in one statement."""
    rows = _PROMPT_ROWS.rows(connection, {"athlete": athlete_id})
    return [PromptRow(_KINDS[kind], item_id, text, confidence) for kind, item_id, text, confidence in rows]


def summary(connection: Connection, athlete_id: str) -> AthleteSummary | None:
    row = connection.execute(_SUMMARY, {"athlete": athlete_id}).first()
    return None if row is None else AthleteSummary.model_validate(row._mapping)


def all_summaries(connection: Connection) -> list[AthleteSummary]:
    rows = connection.execute(
        select(views.athlete_summary).order_by(views.athlete_summary.c.athlete_id)
    )
    return [AthleteSummary.model_validate(row._mapping) for row in rows]


def _facts(connection: Connection, statement: Select[Any], params: dict[str, Any]) -> list[Fact]:
    rows = connection.execute(statement, params).all()
    if not rows:
        return []
    tags: dict[int, list[str]] = defaultdict(list)
    for fact_id, tag in connection.execute(_SELECT_TAGS, {"ids": [r.id for r in rows]}):
        tags[fact_id].append(tag)
    return [
        Fact.model_validate({**row._mapping, "tags": tuple(sorted(tags.get(row.id, ())))})
        for row in rows
    ]


_athletes = table_of(AthleteRow)
_facts_table = table_of(FactRow)
_ATHLETE_COUNT = select(func.count()).select_from(_athletes)
_ATHLETE_PAGE = (
    select(_athletes.c.id)
    .where(_athletes.c.id > bindparam("after"))
    .order_by(_athletes.c.id)
    .limit(bindparam("page"))
)
_DUE_COUNT = (
    select(func.count())
    .select_from(_facts_table)
    .where(_facts_table.c.decay_due_at <= bindparam("now"))
)


def athlete_count(connection: Connection) -> int:
    return int(connection.execute(_ATHLETE_COUNT).scalar_one())


def athlete_ids_after(connection: Connection, after: str, page: int) -> list[str]:
    """The next `page` athlete ids above `after`, in order (keyset pagination)."""
    return list(connection.execute(_ATHLETE_PAGE, {"after": after, "page": page}).scalars())


def facts_due_count(connection: Connection, now: datetime) -> int:
    """How many facts a decay at `now` recomputes (a progress bar's length)."""
    return int(connection.execute(_DUE_COUNT, {"now": now}).scalar_one())
