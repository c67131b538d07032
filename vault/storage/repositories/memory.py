"""Active facts, patterns and notes: load an athlete's set once, write a merge plan set-wise."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row, Table, bindparam, delete, insert, select, update
from sqlalchemy import Connection

from vault.domain.models import Fact, ListItem
from vault.domain.rules import FactState, ItemState, Key, MergePlan, State, stored_key
from vault.domain.vocabulary import Kind
from vault.storage.repositories._sql import rowcount, table_of
from vault.storage.tables import FactRow, FactTagRow, NoteRow, PatternRow

facts_table = table_of(FactRow)
tags_table = table_of(FactTagRow)
ITEM_TABLES: dict[Kind, Table] = {Kind.PATTERN: table_of(PatternRow), Kind.NOTE: table_of(NoteRow)}
TABLES: dict[Kind, Table] = {Kind.FACT: facts_table, **ITEM_TABLES}

# Statements built once so SQLAlchemy's compiled cache serves every merge.
_SELECT_FACTS = select(facts_table).where(facts_table.c.athlete_id == bindparam("athlete"))
_SELECT_TAGS = (
    select(tags_table.c.fact_id, tags_table.c.tag)
    .join(facts_table, facts_table.c.id == tags_table.c.fact_id)
    .where(facts_table.c.athlete_id == bindparam("athlete"))
)
_SELECT_ITEMS = {
    kind: select(table).where(table.c.athlete_id == bindparam("athlete"))
    for kind, table in ITEM_TABLES.items()
}
_FACT_STATE_COLUMNS = (
    "confidence", "base_confidence", "occurrences", "observed_at", "last_reinforced_at",
    "updated_at",
)  # fmt: skip
_ITEM_STATE_COLUMNS = ("confidence", "occurrences", "last_reinforced_at", "updated_at")
_UPDATES = {
    kind: update(table)
    .where(table.c.id == bindparam("b_id"))
    .values({c: bindparam(f"b_{c}") for c in columns})
    for kind, table, columns in (
        (Kind.FACT, facts_table, _FACT_STATE_COLUMNS),
        (Kind.PATTERN, ITEM_TABLES[Kind.PATTERN], _ITEM_STATE_COLUMNS),
        (Kind.NOTE, ITEM_TABLES[Kind.NOTE], _ITEM_STATE_COLUMNS),
    )
}
_INSERTS = {
    kind: insert(table).returning(table.c.id, sort_by_parameter_order=True)
    for kind, table in TABLES.items()
}
_DELETES = {
    kind: delete(table).where(table.c.id.in_(bindparam("ids", expanding=True)))
    for kind, table in TABLES.items()
}


@dataclass
class Written:
    """Ids the database assigned while writing a plan."""

    ids: dict[Key, int] = field(default_factory=dict)

    def id_of(self, key: Key | None) -> int | None:
        return None if key is None else self.ids.get(key)


class MemoryRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    # -- loading
    def load_active(self, athlete_id: str) -> list[State]:
        """The athlete's whole active set: a few small indexed selects, once per transaction."""
        params = {"athlete": athlete_id}
        tags: dict[int, set[str]] = defaultdict(set)
        for fact_id, tag in self.connection.execute(_SELECT_TAGS, params):
            tags[fact_id].add(tag)
        states: list[State] = [
            fact_state(row, frozenset(tags.get(row.id, ())))
            for row in self.connection.execute(_SELECT_FACTS, params)
        ]
        for kind, statement in _SELECT_ITEMS.items():
            states.extend(_item_state(row, kind) for row in self.connection.execute(statement, params))
        return states

    # -- writing
    def write(self, athlete_id: str, plan: MergePlan) -> Written:
        """Apply a plan: delete what left, update what changed, insert what is new."""
        written = Written()
        removed: dict[Kind, list[int]] = defaultdict(list)
        for removal in plan.removals:
            if removal.item.id is not None:
                removed[removal.item.kind].append(removal.item.id)
        for kind, ids in removed.items():
            self.connection.execute(_DELETES[kind], {"ids": ids})

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
            self.write_updates(kind, states)
        for kind, states in new.items():
            rows = [_insert_params(athlete_id, s) for s in states]
            ids = list(self.connection.execute(_INSERTS[kind], rows).scalars())
            for state, new_id in zip(states, ids):
                state.id = new_id
                written.ids[state.key] = new_id
        tag_rows = [
            {"fact_id": s.id, "tag": tag}
            for s in new[Kind.FACT]
            if isinstance(s, FactState)
            for tag in sorted(s.tags)
        ]
        if tag_rows:
            self.connection.execute(insert(tags_table), tag_rows)
        return written

    def write_updates(self, kind: Kind, states: list[State]) -> None:
        """One executemany UPDATE of the changing columns, by primary key."""
        if not states:
            return
        columns = _FACT_STATE_COLUMNS if kind is Kind.FACT else _ITEM_STATE_COLUMNS
        self.connection.execute(_UPDATES[kind], [_update_params(s, columns) for s in states])

    def delete_ids(self, kind: Kind, ids: list[int]) -> int:
        if not ids:
            return 0
        return rowcount(self.connection.execute(_DELETES[kind], {"ids": ids}))


def fact_state(row: Row[Any], tags: frozenset[str]) -> FactState:
    return FactState(
        key=stored_key(Kind.FACT, row.id),
        id=row.id,
        text=row.text,
        normalized_text=row.normalized_text,
        category=row.category,
        conflict_key=row.conflict_key,
        source=row.source,
        source_ref=row.source_ref,
        extractor=row.extractor,
        confidence=row.confidence,
        base_confidence=row.base_confidence,
        occurrences=row.occurrences,
        tags=tags,
        learned_at=row.learned_at,
        observed_at=row.observed_at,
        last_reinforced_at=row.last_reinforced_at,
        updated_at=row.updated_at,
    )


def _item_state(row: Row[Any], kind: Kind) -> ItemState:
    return ItemState(
        key=stored_key(kind, row.id),
        id=row.id,
        kind=kind,
        text=row.text,
        normalized_text=row.normalized_text,
        source=row.source,
        source_ref=row.source_ref,
        extractor=row.extractor,
        confidence=row.confidence,
        occurrences=row.occurrences,
        learned_at=row.learned_at,
        last_reinforced_at=row.last_reinforced_at,
        updated_at=row.updated_at,
    )


def _update_params(state: State, columns: tuple[str, ...]) -> dict[str, Any]:
    params = {f"b_{c}": getattr(state, c) for c in columns}
    params["b_id"] = state.id
    return params


def _insert_params(athlete_id: str, state: State) -> dict[str, Any]:
    params: dict[str, Any] = {
        "athlete_id": athlete_id,
        "text": state.text,
        "normalized_text": state.normalized_text,
        "source": state.source,
        "source_ref": state.source_ref,
        "extractor": state.extractor,
        "confidence": state.confidence,
        "occurrences": state.occurrences,
        "learned_at": state.learned_at,
        "last_reinforced_at": state.last_reinforced_at,
        "updated_at": state.updated_at,
    }
    if isinstance(state, FactState):
        params.update(
            category=state.category,
            conflict_key=state.conflict_key,
            base_confidence=state.base_confidence,
            observed_at=state.observed_at,
        )
    return params


def to_output(athlete_id: str, state: State) -> Fact | ListItem:
    """The public model of a written state."""
    assert state.id is not None
    common: dict[str, Any] = {
        "id": state.id,
        "athlete_id": athlete_id,
        "text": state.text,
        "source": state.source,
        "source_ref": state.source_ref,
        "extractor": state.extractor,
        "confidence": state.confidence,
        "occurrences": state.occurrences,
        "learned_at": state.learned_at,
        "last_reinforced_at": state.last_reinforced_at,
        "updated_at": state.updated_at,
    }
    if isinstance(state, FactState):
        return Fact(
            **common,
            category=state.category,
            conflict_key=state.conflict_key,
            tags=tuple(sorted(state.tags)),
            observed_at=state.observed_at,
        )
    return ListItem(**common, kind=state.kind)
