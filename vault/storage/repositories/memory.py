"""Active facts, patterns and notes: load an athlete's set once, write a merge plan set-wise."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    insert,
    literal_column,
    null,
    select,
    union_all,
    update,
)

from vault.domain.models import Fact, ListItem
from vault.domain.pieces import InlinePieces, PieceCounter
from vault.domain.rules import FactState, ItemState, Key, MergePlan, State, stored_key
from vault.domain.vocabulary import Category, Kind, Source
from vault.storage.dialect import is_sqlite, locks_rows
from vault.storage.hot_statements import HotStatement
from vault.storage.repositories._sql import INLINE_COLUMNS, inline_columns, rowcount
from vault.storage.scope import operation_scope
from vault.storage.tables import (
    athletes_table,
    fact_tags_table,
    facts_table,
    notes_table,
    patterns_table,
)
from vault.storage.types import as_stored, utc_from_driver

tags_table = fact_tags_table
ITEM_TABLES: dict[Kind, Table] = {Kind.PATTERN: patterns_table, Kind.NOTE: notes_table}
TABLES: dict[Kind, Table] = {Kind.FACT: facts_table, **ITEM_TABLES}

# Statements built once so SQLAlchemy's compiled cache serves every merge.
# An athlete's whole active set in one statement: facts joined with their tags (one row per
# tag), then patterns and notes padded to the same columns.
_STATE_COLUMNS = (
    "id",
    "text",
    "normalized_text",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "occurrences",
    "learned_at",
    "last_reinforced_at",
    "updated_at",
)


def _load_facts_statement() -> Any:
    """Read with the values as stored (`as_stored`): a fact comes once per tag, so its times
    and enums are converted once per fact (`_loaded_fact`), not once per row."""
    return (
        select(
            literal_column(f"'{Kind.FACT.value}'").label("kind"),
            *(_stored(facts_table.c[name]) for name in _STATE_COLUMNS),
            as_stored(facts_table.c.category),
            facts_table.c.conflict_key,
            facts_table.c.base_confidence,
            as_stored(facts_table.c.observed_at),
            as_stored(facts_table.c.decay_due_at),
            tags_table.c.tag,
        )
        .select_from(facts_table.outerjoin(tags_table, _tags_of_fact(facts_table)))
        .where(facts_table.c.athlete_id == bindparam("athlete"))
    )


def _load_active_statement() -> Any:
    """The facts, then patterns and notes padded to the same columns."""
    items = [
        select(
            literal_column(f"'{kind.value}'"),
            *(_stored(table.c[name]) for name in _STATE_COLUMNS),
            null(),
            null(),
            table.c.confidence,
            table.c.learned_at,
            table.c.learned_at,
            null(),
        ).where(table.c.athlete_id == bindparam("athlete"))
        for kind, table in ITEM_TABLES.items()
    ]
    return union_all(_load_facts_statement(), *items)


def _tags_of_fact(facts: Any) -> Any:
    """The join of a fact to its tags: the athlete id and the fact id (one shard)."""
    return (tags_table.c.athlete_id == facts.c.athlete_id) & (tags_table.c.fact_id == facts.c.id)


_CONVERTED = ("source", "learned_at", "last_reinforced_at", "updated_at")


def _stored(column: Any) -> Any:
    return as_stored(column) if column.key in _CONVERTED else column


_LOAD_ACTIVE = HotStatement(_load_active_statement())
_LOAD_FACTS = HotStatement(_load_facts_statement())
_FACT_STATE_COLUMNS = (
    "confidence",
    "base_confidence",
    "occurrences",
    "observed_at",
    "last_reinforced_at",
    "updated_at",
    "decay_due_at",
)
_ITEM_STATE_COLUMNS = ("confidence", "occurrences", "last_reinforced_at", "updated_at")
_UPDATES = {
    kind: HotStatement(
        update(table)
        .where(table.c.athlete_id == bindparam("b_athlete"), table.c.id == bindparam("b_id"))
        .values({c: bindparam(f"b_{c}") for c in columns})
    )
    for kind, table, columns in (
        (Kind.FACT, facts_table, _FACT_STATE_COLUMNS),
        (Kind.PATTERN, ITEM_TABLES[Kind.PATTERN], _ITEM_STATE_COLUMNS),
        (Kind.NOTE, ITEM_TABLES[Kind.NOTE], _ITEM_STATE_COLUMNS),
    )
}
# One multi-row INSERT per kind through Core (SQLite's driver: one per row). SQLite does not
# promise the order of a multi-row RETURNING, so the unique (athlete, normalized text) key maps
# each returned id to its row.
_INSERT_COLUMNS = tuple(c for c in _STATE_COLUMNS if c != "id")  # the database assigns the id
_ITEM_INSERT_COLUMNS = ("athlete_id", *_INSERT_COLUMNS, *INLINE_COLUMNS)
_FACT_INSERT_COLUMNS = (
    *_ITEM_INSERT_COLUMNS,
    "category",
    "conflict_key",
    "base_confidence",
    "observed_at",
    "decay_due_at",
)
_INSERTS = {
    kind: HotStatement(
        insert(table).returning(table.c.id, table.c.normalized_text),
        columns=_FACT_INSERT_COLUMNS if kind is Kind.FACT else _ITEM_INSERT_COLUMNS,
    )
    for kind, table in TABLES.items()
}
_DELETES = {
    kind: delete(table).where(
        table.c.athlete_id == bindparam("athlete"), table.c.id.in_(bindparam("ids", expanding=True))
    )
    for kind, table in TABLES.items()
}


# What a merge removes on SQLite's driver, which cannot expand an IN: one executemany by the
# athlete's key and the id (a few rows).
_DELETE_ONE = {
    kind: HotStatement(
        delete(table).where(
            table.c.athlete_id == bindparam("athlete"), table.c.id == bindparam("id")
        )
    )
    for kind, table in TABLES.items()
}
_INSERT_TAGS = HotStatement(insert(tags_table), columns=("athlete_id", "fact_id", "tag"))
_FACT_EXISTS = select(facts_table.c.id).where(
    facts_table.c.athlete_id == bindparam("athlete"), facts_table.c.id == bindparam("fact")
)
_OWNERS_OF_FACTS = select(facts_table.c.id, facts_table.c.athlete_id).where(
    facts_table.c.id.in_(bindparam("ids", expanding=True))
)


@dataclass
class Written:
    """Ids the database assigned while writing a plan."""

    ids: dict[Key, int] = field(default_factory=dict)


class MemoryRepository:
    def __init__(self, connection: Connection, pieces: PieceCounter | None = None) -> None:
        self.connection = connection
        self._pieces = pieces  # None: items are written uncounted (`inline_columns`)

    # -- loading
    def load_active(self, athlete_id: str, *, facts_only: bool = False) -> list[State]:
        """The athlete's whole active set, in one indexed statement, once per transaction;
        with `facts_only`, its facts alone (a merge of facts neither changes nor caps patterns
        and notes)."""
        facts: dict[int, FactState] = {}
        tags: dict[int, set[str]] = defaultdict(set)
        items: list[State] = []
        statement = _LOAD_FACTS if facts_only else _LOAD_ACTIVE
        for row in statement.rows(self.connection, {"athlete": athlete_id}):
            kind, fact_id, tag = row[0], row[1], row[-1]
            if kind != _FACT:
                items.append(_item_state(row, _KINDS[kind]))
                continue
            if fact_id not in facts:
                facts[fact_id] = _loaded_fact(row)
            if tag is not None:
                tags[fact_id].add(tag)
        for fact_id, fact_tags in tags.items():
            facts[fact_id].tags = frozenset(fact_tags)
        return [*facts.values(), *items]

    def fact_exists(self, athlete_id: str, fact_id: int) -> bool:
        """Whether `fact_id` is an active fact of the athlete."""
        found = self.connection.execute(_FACT_EXISTS, {"athlete": athlete_id, "fact": fact_id})
        return found.first() is not None

    def owners_of_facts(self, fact_ids: list[int]) -> dict[int, str]:
        """The athlete of each active fact among `fact_ids`. A fact named by its id alone is
        looked up on every shard, once; what follows is read by its athlete."""
        if not fact_ids:
            return {}
        with operation_scope("all"):
            rows = self.connection.execute(_OWNERS_OF_FACTS, {"ids": list(fact_ids)}).all()
        return {int(fact_id): athlete for fact_id, athlete in rows}

    # -- writing
    def write(self, athlete_id: str, plan: MergePlan) -> Written:
        """Apply a plan: delete what left, update what changed, insert what is new."""
        written = Written()
        removed: dict[Kind, list[int]] = defaultdict(list)
        for removal in plan.removals:
            if removal.item.id is not None:
                removed[removal.item.kind].append(removal.item.id)
        for kind, ids in removed.items():
            if is_sqlite(self.connection):
                rows = [{"athlete": athlete_id, "id": item_id} for item_id in ids]
                _DELETE_ONE[kind].run(self.connection, rows)
            else:
                self.connection.execute(_DELETES[kind], {"athlete": athlete_id, "ids": ids})

        changed: dict[Kind, list[State]] = defaultdict(list)
        new: dict[Kind, list[State]] = defaultdict(list)
        for state in plan.survivors():
            if state.id is None:
                new[state.kind].append(state)
                continue
            written.ids[state.key] = state.id
            if state.dirty:
                changed[state.kind].append(state)
        for kind, states in changed.items():
            self.write_updates(athlete_id, kind, states)
        for kind, states in new.items():
            rows = [_insert_params(athlete_id, s, self._pieces) for s in states]
            assigned = {
                text: new_id for new_id, text in _INSERTS[kind].returned(self.connection, rows)
            }
            for state in states:
                state.id = assigned[state.normalized_text]
                written.ids[state.key] = state.id
        tag_rows = [
            {"athlete_id": athlete_id, "fact_id": s.id, "tag": tag}
            for s in new[Kind.FACT]
            if isinstance(s, FactState)
            for tag in sorted(s.tags)
        ]
        _INSERT_TAGS.run(self.connection, tag_rows)
        return written

    def write_updates(self, athlete_id: str, kind: Kind, states: list[State]) -> None:
        """One executemany UPDATE of the changing columns, by the athlete's key."""
        if not states:
            return
        columns = _FACT_STATE_COLUMNS if kind is Kind.FACT else _ITEM_STATE_COLUMNS
        _UPDATES[kind].run(
            self.connection, [_update_params(athlete_id, s, columns) for s in states]
        )

    def athletes_due_for_decay(self, now: datetime, after: str, page: int) -> list[str]:
        """The next `page` athletes (in id order, above `after`) with a fact due by `now`: one
        statement over every shard; each athlete's facts are then read and written by it."""
        params = {"now": now, "after": after, "page": page}
        with operation_scope("all"):
            return list(self.connection.execute(_DUE_ATHLETES, params).scalars())

    def athlete_facts_due(self, athlete_id: str, now: datetime) -> list[DecayRow]:
        """The athlete's facts due by `now`, read after taking the athlete's lock (the lock
        every merge, forget and restore takes): a merge has either committed (decay reads its
        result) or waits until decay commits; decay never writes over a newer merge."""
        params = {"athlete": athlete_id, "now": now}
        if locks_rows(self.connection):
            self.connection.execute(_LOCK_ATHLETE, params)
        return [DecayRow(*row) for row in self.connection.execute(_DUE_OF_ATHLETE, params)]

    def set_decayed(self, athlete_id: str, changes: list[tuple[int, float, datetime]]) -> None:
        """One executemany UPDATE of the athlete's (fact id, confidence, next due time)."""
        if changes:
            self.connection.execute(
                _SET_DECAYED,
                [
                    {"b_athlete": athlete_id, "b_id": i, "b_confidence": c, "b_due": due}
                    for i, c, due in changes
                ],
            )

    def uncounted(self, kind: Kind, after: int, limit: int) -> list[tuple[str, int, str]]:
        """Up to `limit` items of `kind` (every athlete's) stored without their token counts,
        in id order after `after`: (athlete, id, text)."""
        if limit <= 0:
            return []
        params = {"after": after, "limit": limit}
        with operation_scope("all"):
            found = self.connection.execute(_UNCOUNTED[kind], params).all()
        return [(str(athlete), int(item_id), str(text)) for athlete, item_id, text in found]

    def set_counts(self, kind: Kind, counts: list[tuple[str, int, InlinePieces]]) -> None:
        """Store items' inline text and token counts (one executemany UPDATE)."""
        if counts:
            self.connection.execute(
                _SET_COUNTS[kind],
                [
                    {
                        "b_athlete": athlete,
                        "b_id": item_id,
                        "b_text": pieces.text,
                        "b_tokens": pieces.tokens,
                        "b_last": pieces.tokens_last,
                    }
                    for athlete, item_id, pieces in counts
                ],
            )

    def delete_ids(self, kind: Kind, athlete_id: str, ids: list[int]) -> int:
        if not ids:
            return 0
        params = {"athlete": athlete_id, "ids": ids}
        return rowcount(self.connection.execute(_DELETES[kind], params))


_UNCOUNTED = {
    kind: select(table.c.athlete_id, table.c.id, table.c.text)
    .where(table.c.id > bindparam("after"), table.c.inline_tokens.is_(None))
    .order_by(table.c.id)
    .limit(bindparam("limit"))
    for kind, table in TABLES.items()
}
_SET_COUNTS = {
    kind: update(table)
    .where(table.c.athlete_id == bindparam("b_athlete"), table.c.id == bindparam("b_id"))
    .values(
        inline_text=bindparam("b_text"),
        inline_tokens=bindparam("b_tokens"),
        inline_tokens_last=bindparam("b_last"),
    )
    for kind, table in TABLES.items()
}
# PostgreSQL: the athletes with facts due, a page at a time (one scan of every shard), then
# each athlete's due facts, locked and written by that athlete (one shard each).
_DUE_ATHLETES = (
    select(facts_table.c.athlete_id)
    .where(facts_table.c.decay_due_at <= bindparam("now"))
    .where(facts_table.c.athlete_id > bindparam("after"))
    .group_by(facts_table.c.athlete_id)
    .order_by(facts_table.c.athlete_id)
    .limit(bindparam("page"))
)
_LOCK_ATHLETE = (
    select(athletes_table.c.id).where(athletes_table.c.id == bindparam("athlete")).with_for_update()
)
_DUE_OF_ATHLETE = (
    select(
        facts_table.c.id,
        facts_table.c.confidence,
        facts_table.c.base_confidence,
        facts_table.c.last_reinforced_at,
        facts_table.c.category,
    )
    .where(facts_table.c.athlete_id == bindparam("athlete"))
    .where(facts_table.c.decay_due_at <= bindparam("now"))
    .order_by(facts_table.c.id)
)
_SET_DECAYED = (
    update(facts_table)
    .where(
        facts_table.c.athlete_id == bindparam("b_athlete"), facts_table.c.id == bindparam("b_id")
    )
    .values(confidence=bindparam("b_confidence"), decay_due_at=bindparam("b_due"))
)


@dataclass(frozen=True, slots=True)
class DecayRow:
    """What decay needs of a fact."""

    id: int
    confidence: float
    base_confidence: float
    last_reinforced_at: datetime
    category: Category


_FACT = Kind.FACT.value
_KINDS = {kind.value: kind for kind in Kind}
_CATEGORIES = {category.value: category for category in Category}
_SOURCES = {source.value: source for source in Source}


def _loaded_fact(row: tuple[Any, ...]) -> FactState:
    """A fact from a `_LOAD_ACTIVE` row as the driver returns it (times as canonical text on
    SQLite, datetimes on PostgreSQL; enums as their stored values)."""
    (
        _,
        fact_id,
        text,
        normalized_text,
        source,
        source_ref,
        extractor,
        confidence,
        occurrences,
        learned_at,
        last_reinforced_at,
        updated_at,
        category,
        conflict_key,
        base_confidence,
        observed_at,
        decay_due_at,
        _,
    ) = row
    return FactState(
        key=stored_key(Kind.FACT, fact_id),
        id=fact_id,
        text=text,
        normalized_text=normalized_text,
        category=_CATEGORIES[category],
        conflict_key=conflict_key,
        source=_SOURCES[source],
        source_ref=source_ref,
        extractor=extractor,
        confidence=confidence,
        base_confidence=base_confidence,
        occurrences=occurrences,
        tags=frozenset(),
        learned_at=utc_from_driver(learned_at),
        observed_at=utc_from_driver(observed_at),
        last_reinforced_at=utc_from_driver(last_reinforced_at),
        updated_at=utc_from_driver(updated_at),
        decay_due_at=utc_from_driver(decay_due_at),
    )


def _item_state(row: tuple[Any, ...], kind: Kind) -> ItemState:
    """A pattern or note from a `_LOAD_ACTIVE` row as the driver returns it."""
    (
        _,
        item_id,
        text,
        normalized_text,
        source,
        source_ref,
        extractor,
        confidence,
        occurrences,
        learned_at,
        last_reinforced_at,
        updated_at,
        *_,
    ) = row
    return ItemState(
        key=stored_key(kind, item_id),
        id=item_id,
        kind=kind,
        text=text,
        normalized_text=normalized_text,
        source=_SOURCES[source],
        source_ref=source_ref,
        extractor=extractor,
        confidence=confidence,
        occurrences=occurrences,
        learned_at=utc_from_driver(learned_at),
        last_reinforced_at=utc_from_driver(last_reinforced_at),
        updated_at=utc_from_driver(updated_at),
    )


def _update_params(athlete_id: str, state: State, columns: tuple[str, ...]) -> dict[str, Any]:
    params = {f"b_{c}": getattr(state, c) for c in columns}
    params["b_id"] = state.id
    params["b_athlete"] = athlete_id
    return params


# The columns the public model shows (`normalized_text` is derived, never shown).
_OUTPUT_COLUMNS = tuple(c for c in _STATE_COLUMNS if c != "normalized_text")


def _insert_params(athlete_id: str, state: State, pieces: PieceCounter | None) -> dict[str, Any]:
    params: dict[str, Any] = {"athlete_id": athlete_id}
    params.update((c, getattr(state, c)) for c in _INSERT_COLUMNS)
    params.update(inline_columns(state.text, pieces))
    if isinstance(state, FactState):
        params.update(
            category=state.category,
            conflict_key=state.conflict_key,
            base_confidence=state.base_confidence,
            observed_at=state.observed_at,
            decay_due_at=state.decay_due_at,
        )
    return params


def to_output(athlete_id: str, state: State) -> Fact | ListItem:
    """The public model of a written state (already valid: built without re-validation)."""
    assert state.id is not None
    common: dict[str, Any] = {"athlete_id": athlete_id}
    common.update((c, getattr(state, c)) for c in _OUTPUT_COLUMNS)
    if isinstance(state, FactState):
        return Fact.model_construct(
            **common,
            category=state.category,
            conflict_key=state.conflict_key,
            tags=tuple(sorted(state.tags)),
            observed_at=state.observed_at,
        )
    return ListItem.model_construct(**common, kind=state.kind)
