"""`restore`: make one athlete exactly what a `vault-export` document describes.

Restore, not merge: the athlete's facts, patterns, notes and archive become the document's
(the count-only `forget_log` is kept). The document's ids are never trusted: they are labels.
Every row gets a new id from the database, in the order of the document's ids, and
`original_id` / `superseded_by` are rewritten to the new ids (see
vault.storage.repositories.snapshot). Into a fresh file that gives 1..n in document order.

An import whose content equals what is stored, ids compared by rank (each id replaced by its
position in its id space, and `original_id` / `superseded_by` by the position of what they
point at), writes nothing: importing the same document twice changes nothing the second time.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from vault.domain.document import ExportDocument
from vault.domain.text import normalize_text
from vault.domain.vocabulary import Kind
from vault.services import privacy_gate
from vault.services.interchange.validate import validate_document
from vault.storage.repositories.snapshot import (
    ARCHIVE,
    COLUMNS,
    TAGS,
    Row,
    Snapshot,
    referenced_labels,
)
from vault.storage.uow import UnitOfWork


class ImportReport(BaseModel):
    """What an import wrote (`changed` is False when the vault already held exactly that)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    athlete_id: str
    changed: bool
    facts: int
    patterns: int
    notes: int
    archived: int
    ids: dict[str, int] = {}  # foreign id -> fact id (memories.yaml imports)
    messages: tuple[str, ...] = ()


def restore(
    uow: UnitOfWork, document: dict[str, Any] | ExportDocument, *, trusted: bool = False
) -> ImportReport:
    """Replace the athlete's rows with the document's, inside the caller's unit of work.

    The document is validated first, its texts, source_refs and tags passing the privacy gate
    unless `trusted` (InvalidInput, nothing written). The caller commits.
    """
    doc = validate_document(document)
    if not privacy_gate.require_bool(trusted):
        privacy_gate.check_document(doc)
    wanted = to_snapshot(doc)
    current = uow.snapshots.read(doc.athlete.id, lock=True)
    changed = current is None or shape(current) != shape(wanted)
    if changed:
        uow.snapshots.replace(wanted)
    return ImportReport(
        athlete_id=doc.athlete.id,
        changed=changed,
        facts=len(doc.facts),
        patterns=len(doc.patterns),
        notes=len(doc.notes),
        archived=len(doc.archive),
    )


import_document = restore  # the name the library used before the unit-of-work split


def to_snapshot(doc: ExportDocument) -> Snapshot:
    """The document's rows (ids as labels), with `normalized_text` derived from the text."""

    def rows(items: tuple[Any, ...]) -> list[Row]:
        return [
            item.model_dump() | {"normalized_text": normalize_text(item.text)} for item in items
        ]

    return Snapshot(
        athlete_id=doc.athlete.id,
        athlete={"created_at": doc.athlete.created_at, "updated_at": doc.athlete.updated_at},
        facts=rows(doc.facts),
        patterns=rows(doc.patterns),
        notes=rows(doc.notes),
        archive=[row.model_dump() for row in doc.archive],
    )


def shape(snapshot: Snapshot) -> dict[str, Any]:
    """The snapshot with every id replaced by its rank in its id space (renumbering-proof)."""
    referenced = referenced_labels(snapshot.archive)
    rank: dict[str, dict[int, int]] = {}
    for kind in Kind:
        ids = {row["id"] for row in snapshot.rows(kind)} | referenced[kind]
        rank[kind.value] = {old: n for n, old in enumerate(sorted(ids), 1)}
    rank[ARCHIVE] = {old: n for n, old in enumerate(sorted(r["id"] for r in snapshot.archive), 1)}

    def ranked(space: str, rows: list[Row]) -> list[tuple[Any, ...]]:
        out = []
        for row in rows:
            values = [_value(row[c]) for c in COLUMNS[space]]
            values[COLUMNS[space].index("id")] = rank[space][row["id"]]
            if space == ARCHIVE:
                kind = _value(row["kind"])
                for column, target in (("original_id", kind), ("superseded_by", Kind.FACT.value)):
                    if row[column] is not None:
                        values[COLUMNS[space].index(column)] = rank[target][row[column]]
            if space in (Kind.FACT.value, ARCHIVE):
                values.append(tuple(sorted(row.get(TAGS) or ())))
            out.append(tuple(values))
        return sorted(out, key=lambda values: values[COLUMNS[space].index("id")])

    return {
        "athlete": (snapshot.athlete["created_at"], snapshot.athlete["updated_at"]),
        **{kind.value: ranked(kind.value, snapshot.rows(kind)) for kind in Kind},
        ARCHIVE: ranked(ARCHIVE, snapshot.archive),
    }


def _value(value: Any) -> Any:
    return getattr(value, "value", value)  # an enum member and its text compare equal
