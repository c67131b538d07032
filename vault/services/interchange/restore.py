"""`import_document`: restore one athlete exactly as a `vault-export` document describes it.

Restore, not merge: the athlete's facts, patterns, notes and archive become the document's
(the count-only `forget_log` is kept). Ids are kept when no *other* athlete uses them; if any
id of a kind (fact, pattern, note, archive) is taken, every id of that kind in the document is
renumbered above the ones in use, keeping their order, and `original_id` / `superseded_by` are
rewritten to match. An import whose content equals what is stored (up to that renumbering)
writes nothing, so importing the same document twice changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import delete, exc, insert, select, text
from sqlalchemy import Connection

from vault.domain.document import ExportDocument, parse_document
from vault.domain.errors import ConflictError, VaultError
from vault.domain.text import normalize_text
from vault.domain.vocabulary import Kind
from vault.services.interchange.export import (
    archive,
    athletes,
    fact_tags,
    facts,
    notes,
    patterns,
    read_document,
)
from vault.storage.repositories._sql import rowcount
from vault.storage.uow import UnitOfWork

if TYPE_CHECKING:
    from vault.api import Vault

IdMap = dict[int, int]


class ImportReport(BaseModel):
    """What an import wrote (`changed` is False when the vault already held exactly that)."""

    model_config = ConfigDict(frozen=True)

    athlete_id: str
    changed: bool
    facts: int
    patterns: int
    notes: int
    archived: int
    renumbered: tuple[str, ...] = ()  # kinds whose ids were taken by another athlete
    ids: dict[str, int] = {}  # foreign id -> fact id (memories.yaml imports)
    messages: tuple[str, ...] = ()


def import_document(vault: "Vault", document: dict[str, Any] | ExportDocument) -> ImportReport:
    """Restore the athlete of `document` (validated first; one transaction; nothing on failure)."""
    doc = parse_document(document)
    with write(vault) as uow:
        report = restore(uow.connection, doc)
        uow.commit()
    return report


@contextmanager
def write(vault: "Vault") -> Iterator[UnitOfWork]:
    """A write unit of work whose database errors become vault errors."""
    try:
        with vault.unit_of_work() as uow:
            yield uow
    except exc.IntegrityError as error:
        raise ConflictError(f"the import breaks an integrity rule: {error.orig}") from None
    except exc.OperationalError as error:
        raise VaultError(f"database error: {error.orig}") from None


def restore(connection: Connection, doc: ExportDocument) -> ImportReport:
    """Replace the athlete's rows with the document's, inside the caller's transaction."""
    athlete = doc.athlete.id
    current = read_document(connection, athlete)
    if current is not None and _shape(current) == _shape(doc):
        return _report(doc, changed=False)
    clear_athlete(connection, athlete)
    maps, renumbered = _id_maps(connection, athlete, doc)
    upsert_athlete(connection, athlete, doc.athlete.created_at, doc.athlete.updated_at)
    fact_map, archive_map = maps[Kind.FACT.value], maps["archive"]
    for fact in doc.facts:
        row = fact.model_dump(exclude={"tags"}) | {
            "id": fact_map[fact.id],
            "athlete_id": athlete,
            "normalized_text": normalize_text(fact.text),
        }
        connection.execute(insert(facts).values(row))
        if fact.tags:
            connection.execute(
                insert(fact_tags), [{"fact_id": fact_map[fact.id], "tag": t} for t in fact.tags]
            )
    for kind, table, items in (
        (Kind.PATTERN, patterns, doc.patterns),
        (Kind.NOTE, notes, doc.notes),
    ):
        for item in items:
            connection.execute(
                insert(table).values(
                    item.model_dump()
                    | {
                        "id": maps[kind.value][item.id],
                        "athlete_id": athlete,
                        "normalized_text": normalize_text(item.text),
                    }
                )
            )
    for gone in doc.archive:
        original = None if gone.original_id is None else maps[gone.kind.value][gone.original_id]
        successor = None if gone.superseded_by is None else fact_map[gone.superseded_by]
        connection.execute(
            insert(archive).values(
                gone.model_dump()
                | {
                    "id": archive_map[gone.id],
                    "athlete_id": athlete,
                    "original_id": original,
                    "superseded_by": successor,
                }
            )
        )
    for name, mapping in maps.items():
        bump_sequence(
            connection, name if name == "archive" else name + "s", max(mapping.values(), default=0)
        )
    return _report(doc, changed=True, renumbered=tuple(renumbered))


def _report(doc: ExportDocument, changed: bool, renumbered: tuple[str, ...] = ()) -> ImportReport:
    return ImportReport(
        athlete_id=doc.athlete.id,
        changed=changed,
        facts=len(doc.facts),
        patterns=len(doc.patterns),
        notes=len(doc.notes),
        archived=len(doc.archive),
        renumbered=renumbered,
    )


def clear_athlete(connection: Connection, athlete: str) -> None:
    """Delete the athlete's facts, tags, patterns, notes and archive (not the athlete row)."""
    own_facts = select(facts.c.id).where(facts.c.athlete_id == athlete)
    connection.execute(delete(fact_tags).where(fact_tags.c.fact_id.in_(own_facts)))
    for table in (facts, patterns, notes, archive):
        connection.execute(delete(table).where(table.c.athlete_id == athlete))


def upsert_athlete(connection: Connection, athlete: str, created_at: Any, updated_at: Any) -> None:
    found = connection.execute(select(athletes.c.id).where(athletes.c.id == athlete)).first()
    values = {"created_at": created_at, "updated_at": updated_at}
    if found is None:
        connection.execute(insert(athletes).values(id=athlete, **values))
    else:
        connection.execute(athletes.update().where(athletes.c.id == athlete).values(**values))


def bump_sequence(connection: Connection, table: str, at_least: int) -> None:
    """Make sure new rows get ids above `at_least` (ids referenced only by the archive included)."""
    if at_least <= 0:
        return
    dialect = connection.dialect.name
    if dialect == "sqlite":
        params = {"name": table, "seq": at_least}
        updated = rowcount(
            connection.execute(
                text("UPDATE sqlite_sequence SET seq = :seq WHERE name = :name AND seq < :seq"),
                params,
            )
        )
        exists = connection.execute(
            text("SELECT 1 FROM sqlite_sequence WHERE name = :name"), params
        ).first()
        if not updated and exists is None:
            connection.execute(
                text("INSERT INTO sqlite_sequence (name, seq) VALUES (:name, :seq)"), params
            )
    elif dialect == "postgresql":
        connection.execute(
            text(
                "SELECT setval(pg_get_serial_sequence(:name, 'id'), GREATEST(:seq, COALESCE("
                "pg_sequence_last_value(pg_get_serial_sequence(:name, 'id')::regclass), 1)))"
            ),
            {"name": table, "seq": at_least},
        )


def _doc_ids(doc: ExportDocument) -> dict[str, set[int]]:
    ids: dict[str, set[int]] = {
        "fact": {f.id for f in doc.facts},
        "pattern": {p.id for p in doc.patterns},
        "note": {n.id for n in doc.notes},
        "archive": {a.id for a in doc.archive},
    }
    for row in doc.archive:
        if row.original_id is not None:
            ids[row.kind.value].add(row.original_id)
        if row.superseded_by is not None:
            ids["fact"].add(row.superseded_by)
    return ids


def _taken(connection: Connection, athlete: str) -> dict[str, set[int]]:
    """Ids other athletes hold or refer to, per id space."""
    taken: dict[str, set[int]] = {}
    for kind, table in (("fact", facts), ("pattern", patterns), ("note", notes)):
        taken[kind] = set(connection.execute(select(table.c.id).where(table.c.athlete_id != athlete)).scalars())
    taken["archive"] = set()
    others = connection.execute(
        select(archive.c.id, archive.c.kind, archive.c.original_id, archive.c.superseded_by).where(
            archive.c.athlete_id != athlete
        )
    )
    for row_id, kind, original, successor in others:
        taken["archive"].add(row_id)
        if original is not None:
            taken[kind.value if isinstance(kind, Kind) else kind].add(original)
        if successor is not None:
            taken["fact"].add(successor)
    return taken


def _id_maps(
    connection: Connection, athlete: str, doc: ExportDocument
) -> tuple[dict[str, IdMap], list[str]]:
    wanted, taken = _doc_ids(doc), _taken(connection, athlete)
    maps: dict[str, IdMap] = {}
    renumbered = []
    for space, ids in wanted.items():
        if not ids & taken[space]:
            maps[space] = {i: i for i in ids}
            continue
        table = "archive" if space == "archive" else space + "s"
        start = max(max(taken[space], default=0), _sequence(connection, table)) + 1
        maps[space] = {old: start + n for n, old in enumerate(sorted(ids))}
        renumbered.append(space)
    return maps, renumbered


def _sequence(connection: Connection, table: str) -> int:
    if connection.dialect.name != "sqlite":
        return 0
    found = connection.execute(
        text("SELECT seq FROM sqlite_sequence WHERE name = :name"), {"name": table}
    )
    return int(found.scalar_one_or_none() or 0)


def _shape(doc: ExportDocument) -> dict[str, Any]:
    """The document with every id replaced by its rank in its id space (renumbering-proof)."""
    data = doc.canonical()
    rank = {
        space: {old: n for n, old in enumerate(sorted(ids), 1)}
        for space, ids in _doc_ids(doc).items()
    }
    for name, space in (("facts", "fact"), ("patterns", "pattern"), ("notes", "note")):
        for row in data[name]:
            row["id"] = rank[space][row["id"]]
    for row in data["archive"]:
        row["id"] = rank["archive"][row["id"]]
        if row["original_id"] is not None:
            row["original_id"] = rank[row["kind"]][row["original_id"]]
        if row["superseded_by"] is not None:
            row["superseded_by"] = rank["fact"][row["superseded_by"]]
    return data
