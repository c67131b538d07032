"""One athlete's whole memory as rows: read it all, or replace it all, set-wise.

Export, restore and memories.yaml import go through here and nowhere else. Rows are plain
dicts keyed by the columns of `vault.storage.tables` (`COLUMNS`, taken from the table objects;
`athlete_id` is implied). Facts carry one more key, `tags`.

`replace` never trusts the ids it is given: they are only labels. Every row is inserted
without an id and the database's ids come back (INSERT ... RETURNING, in parameter order);
`original_id` and `superseded_by` are rewritten through the label -> new id maps. A label that
is only referred to (the `original_id` of an archived fact, pattern or note, which has no row
any more) still gets an id of its own table's sequence: a reserved placeholder row is inserted
in the same statement, in label order, and deleted right after. So ids keep the labels' order
(interleaved with the archived ones) and no later row ever reuses an id the archive refers to,
without touching a sequence by hand. The cost does not depend on how many other athletes the
vault holds: one DELETE per table, one executemany INSERT per table, one DELETE of placeholders.

Archived facts carry `tags` too (the `archive_tags` table, revision 0006): the tags the fact had
when it left, kept so that history by body part survives an export and an import.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Table, bindparam, delete, insert, select

from vault.domain.pieces import PieceCounter
from vault.domain.vocabulary import Category, Kind, Source
from vault.storage.repositories._sql import inline_columns, rowcount
from vault.storage.tables import (
    archive_table,
    archive_tags_table,
    athletes_table,
    fact_tags_table,
    facts_table,
    notes_table,
    patterns_table,
)

Row = dict[str, Any]
IdMap = dict[int, int]

KIND_TABLES: dict[Kind, Table] = {
    Kind.FACT: facts_table,
    Kind.PATTERN: patterns_table,
    Kind.NOTE: notes_table,
}
ARCHIVE = "archive"  # the archive's id space, next to the three kinds'


# Bookkeeping derived from the other columns, not memory: left out of snapshots, so a restored
# fact gets the server default ("due now") and the next decay recomputes it, and a restored
# item is counted again for the engine's row (`inline_columns`).
INLINE = ("inline_text", "inline_tokens", "inline_tokens_last")
DERIVED = frozenset({"decay_due_at", *INLINE})


def _columns(table: Table) -> tuple[str, ...]:
    return tuple(c.name for c in table.c if c.name != "athlete_id" and c.name not in DERIVED)


# One column list per table; reading and writing both build their rows from it.
COLUMNS: dict[str, tuple[str, ...]] = {
    **{kind.value: _columns(table) for kind, table in KIND_TABLES.items()},
    ARCHIVE: _columns(archive_table),
}
ATHLETE_COLUMNS = tuple(c.name for c in athletes_table.c if c.name != "id")
TAGS = "tags"

# A placeholder's normalized text starts with `#`, which `normalize_text` always drops, so it
# never meets a real row's text in the (athlete_id, normalized_text) unique constraint.
RESERVED = "#reserved "

_facts = KIND_TABLES[Kind.FACT]
_SELECT_ATHLETE = select(athletes_table).where(athletes_table.c.id == bindparam("athlete"))
_SELECT_TAGS = (
    select(fact_tags_table.c.fact_id, fact_tags_table.c.tag)
    .where(fact_tags_table.c.athlete_id == bindparam("athlete"))
    .order_by(fact_tags_table.c.fact_id, fact_tags_table.c.tag)
)
_SELECT_ARCHIVE_TAGS = (
    select(archive_tags_table.c.archive_id, archive_tags_table.c.tag)
    .where(archive_tags_table.c.athlete_id == bindparam("athlete"))
    .order_by(archive_tags_table.c.archive_id, archive_tags_table.c.tag)
)
_DELETE_ARCHIVE_TAGS = delete(archive_tags_table).where(
    archive_tags_table.c.athlete_id == bindparam("athlete")
)
_ALL_TABLES: dict[str, Table] = {
    **{kind.value: table for kind, table in KIND_TABLES.items()},
    ARCHIVE: archive_table,
}
_SELECT_ROWS = {
    name: select(*(table.c[c] for c in COLUMNS[name]))
    .where(table.c.athlete_id == bindparam("athlete"))
    .order_by(table.c.id)
    for name, table in _ALL_TABLES.items()
}
_DELETE_TAGS = delete(fact_tags_table).where(fact_tags_table.c.athlete_id == bindparam("athlete"))
_DELETE_ROWS = {
    name: delete(table).where(table.c.athlete_id == bindparam("athlete"))
    for name, table in _ALL_TABLES.items()
}
_DELETE_PLACEHOLDERS = {
    kind: delete(table)
    .where(table.c.athlete_id == bindparam("athlete"))
    .where(table.c.normalized_text.startswith(RESERVED, autoescape=True))
    for kind, table in KIND_TABLES.items()
}
_INSERTS = {
    name: insert(table).returning(table.c.id, sort_by_parameter_order=True)
    for name, table in _ALL_TABLES.items()
}
_UPDATE_ATHLETE = (
    athletes_table.update()
    .where(athletes_table.c.id == bindparam("athlete"))
    .values({c: bindparam(f"new_{c}") for c in ATHLETE_COLUMNS})
)


@dataclass
class Snapshot:
    """An athlete's rows: `athlete` holds its times; lists are ordered by id."""

    athlete_id: str
    athlete: Row
    facts: list[Row] = field(default_factory=list)
    patterns: list[Row] = field(default_factory=list)
    notes: list[Row] = field(default_factory=list)
    archive: list[Row] = field(default_factory=list)

    def rows(self, kind: Kind) -> list[Row]:
        return {Kind.FACT: self.facts, Kind.PATTERN: self.patterns, Kind.NOTE: self.notes}[kind]


@dataclass
class Renumbered:
    """label -> new id, per id space (`fact`, `pattern`, `note`, `archive`)."""

    ids: dict[str, IdMap] = field(default_factory=dict)

    def of(self, space: Kind | str) -> IdMap:
        return self.ids.get(space.value if isinstance(space, Kind) else space, {})


class SnapshotRepository:
    def __init__(self, connection: Connection, pieces: PieceCounter | None = None) -> None:
        self.connection = connection
        self._pieces = pieces  # None: items are written uncounted (`inline_columns`)

    # -- reading
    def read(self, athlete_id: str, *, lock: bool = False) -> Snapshot | None:
        """Every row of the athlete, or None when the athlete does not exist.

        `lock=True` takes the athlete row's lock first (SELECT ... FOR UPDATE on PostgreSQL;
        SQLite's write transaction already holds the database lock).
        """
        params = {"athlete": athlete_id}
        statement = _SELECT_ATHLETE.with_for_update() if lock else _SELECT_ATHLETE
        head = self.connection.execute(statement, params).first()
        if head is None:
            return None
        tags: dict[int, list[str]] = defaultdict(list)
        for fact_id, tag in self.connection.execute(_SELECT_TAGS, params):
            tags[fact_id].append(tag)
        rows = {
            name: [dict(row._mapping) for row in self.connection.execute(statement, params)]
            for name, statement in _SELECT_ROWS.items()
        }
        for row in rows[Kind.FACT.value]:
            row[TAGS] = tags.get(row["id"], [])
        archived_tags: dict[int, list[str]] = defaultdict(list)
        for archive_id, tag in self.connection.execute(_SELECT_ARCHIVE_TAGS, params):
            archived_tags[archive_id].append(tag)
        for row in rows[ARCHIVE]:
            row[TAGS] = archived_tags.get(row["id"], [])
        return Snapshot(
            athlete_id=athlete_id,
            athlete={c: head._mapping[c] for c in ATHLETE_COLUMNS},
            facts=rows[Kind.FACT.value],
            patterns=rows[Kind.PATTERN.value],
            notes=rows[Kind.NOTE.value],
            archive=rows[ARCHIVE],
        )

    # -- writing
    def clear(self, athlete_id: str) -> None:
        """Delete the athlete's tags, facts, patterns, notes and archive: one DELETE per table."""
        params = {"athlete": athlete_id}
        self.connection.execute(_DELETE_TAGS, params)
        self.connection.execute(_DELETE_ARCHIVE_TAGS, params)
        for statement in _DELETE_ROWS.values():
            self.connection.execute(statement, params)

    def put_athlete(self, athlete_id: str, created_at: datetime, updated_at: datetime) -> None:
        """Create the athlete row or set its times."""
        times = {"created_at": created_at, "updated_at": updated_at}
        updated = self.connection.execute(
            _UPDATE_ATHLETE, {"athlete": athlete_id, **{f"new_{c}": v for c, v in times.items()}}
        )
        if rowcount(updated) == 0:
            self.connection.execute(insert(athletes_table), {"id": athlete_id, **times})

    def replace(self, snapshot: Snapshot) -> Renumbered:
        """Make the athlete's rows exactly the snapshot's, with new ids (see the module doc).

        The snapshot must be consistent (the caller validates): every `superseded_by` label is
        a fact label or the `original_id` label of an archived fact.
        """
        athlete_id = snapshot.athlete_id
        self.clear(athlete_id)
        self.put_athlete(athlete_id, snapshot.athlete["created_at"], snapshot.athlete["updated_at"])
        renumbered = Renumbered()
        referenced = referenced_labels(snapshot.archive)
        for kind in KIND_TABLES:
            renumbered.ids[kind.value] = self._insert_space(
                athlete_id, kind, snapshot.rows(kind), referenced[kind], snapshot.athlete
            )
        facts = renumbered.of(Kind.FACT)
        tag_rows = [
            {"athlete_id": athlete_id, "fact_id": facts[row["id"]], "tag": tag}
            for row in snapshot.facts
            for tag in row[TAGS]
        ]
        if tag_rows:
            self.connection.execute(insert(fact_tags_table), tag_rows)
        archived = sorted(snapshot.archive, key=lambda row: row["id"])
        params = [
            _params(athlete_id, ARCHIVE, row)
            | {
                "original_id": _mapped(renumbered.of(row["kind"]), row["original_id"]),
                "superseded_by": _mapped(facts, row["superseded_by"]),
            }
            for row in archived
        ]
        new_ids = self._insert(ARCHIVE, params)
        renumbered.ids[ARCHIVE] = {row["id"]: new for row, new in zip(archived, new_ids)}
        archive_tag_rows = [
            {"athlete_id": athlete_id, "archive_id": new, "tag": tag}
            for row, new in zip(archived, new_ids)
            for tag in sorted(set(row.get(TAGS) or ()))
        ]
        if archive_tag_rows:
            self.connection.execute(insert(archive_tags_table), archive_tag_rows)
        return renumbered

    def _insert_space(
        self, athlete_id: str, kind: Kind, rows: list[Row], referenced: set[int], times: Row
    ) -> IdMap:
        """Insert the kind's rows plus a placeholder per label only referred to; drop those."""
        by_label = {row["id"]: row for row in rows}
        labels = sorted(by_label.keys() | referenced)
        params = [
            _params(athlete_id, kind.value, by_label[label])
            | inline_columns(by_label[label]["text"], self._pieces)
            if label in by_label
            else _placeholder(athlete_id, kind, n, times["created_at"])
            for n, label in enumerate(labels)
        ]
        new_ids = self._insert(kind.value, params)
        if len(labels) > len(by_label):
            self.connection.execute(_DELETE_PLACEHOLDERS[kind], {"athlete": athlete_id})
        return dict(zip(labels, new_ids))

    def _insert(self, space: str, params: list[Row]) -> list[int]:
        if not params:
            return []
        return list(self.connection.execute(_INSERTS[space], params).scalars())


def referenced_labels(archive: list[Row]) -> dict[Kind, set[int]]:
    """Labels the archive points at, per kind: original ids, and successors (always facts)."""
    referenced: dict[Kind, set[int]] = {kind: set() for kind in KIND_TABLES}
    for row in archive:
        if row["original_id"] is not None:
            referenced[Kind(row["kind"])].add(row["original_id"])
        if row["superseded_by"] is not None:
            referenced[Kind.FACT].add(row["superseded_by"])
    return referenced


def _mapped(ids: IdMap, label: int | None) -> int | None:
    return None if label is None else ids[label]


def _params(athlete_id: str, space: str, row: Row) -> Row:
    params = {c: row[c] for c in COLUMNS[space] if c != "id"}
    params["athlete_id"] = athlete_id
    return params


def _placeholder(athlete_id: str, kind: Kind, n: int, when: datetime) -> Row:
    """A row that only holds an id of the table's sequence for an archived item."""
    values: Row = {
        "text": "",
        "normalized_text": f"{RESERVED}{n}",
        "category": Category.GENERAL,
        "conflict_key": None,
        "source": Source.MANUAL,
        "source_ref": None,
        "extractor": None,
        "confidence": 0.0,
        "base_confidence": 0.0,
        "occurrences": 1,
        "learned_at": when,
        "observed_at": when,
        "last_reinforced_at": when,
        "updated_at": when,
    }
    return _params(athlete_id, kind.value, values) | dict.fromkeys(INLINE)
