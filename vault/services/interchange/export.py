"""Read one athlete's whole memory as a `vault-export` document, and write it as JSON or YAML."""

from __future__ import annotations

import json
from collections import defaultdict
from enum import Enum
from typing import TYPE_CHECKING, Any, Union

import yaml
from pydantic import ValidationError
from sqlalchemy import Connection, Table, select
from sqlalchemy import Connection

from vault.domain.document import FORMAT, STORED, VERSION, ExportDocument, parse_document
from vault.domain.errors import AthleteNotFound, InvalidInput, VaultError
from vault.domain.models import describe_validation_error, validated_athlete
from vault.storage.repositories._sql import table_of
from vault.storage.tables import ArchiveRow, AthleteRow, FactRow, FactTagRow, NoteRow, PatternRow

if TYPE_CHECKING:
    from vault.api import Vault

Executor = Union[Connection, Connection]
FORMATS = ("json", "yaml")

athletes = table_of(AthleteRow)
facts = table_of(FactRow)
fact_tags = table_of(FactTagRow)
patterns = table_of(PatternRow)
notes = table_of(NoteRow)
archive = table_of(ArchiveRow)

_FACT_FIELDS = (
    "id",
    "text",
    "category",
    "conflict_key",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "base_confidence",
    "occurrences",
    "learned_at",
    "observed_at",
    "last_reinforced_at",
    "updated_at",
)
_ITEM_FIELDS = (
    "id",
    "text",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "occurrences",
    "learned_at",
    "last_reinforced_at",
    "updated_at",
)
_ARCHIVE_FIELDS = (
    "id",
    "kind",
    "original_id",
    "original_text",
    "category",
    "conflict_key",
    "source",
    "confidence",
    "occurrences",
    "learned_at",
    "superseded_by",
    "reason",
    "archived_at",
)


def export_athlete(vault: "Vault", athlete_id: str) -> dict[str, Any]:
    """One athlete's memory as a `vault-export` v1 document (plain JSON values).

    Reads in one transaction, so the document is a consistent snapshot.

    Raises:
        AthleteNotFound: the vault holds nothing about the athlete.
    """
    athlete = validated_athlete(athlete_id)
    with vault.engine.connect() as connection, connection.begin():
        document = read_document(connection, athlete)
    if document is None:
        raise AthleteNotFound(athlete)
    return document.canonical()


def read_document(executor: Executor, athlete_id: str) -> ExportDocument | None:
    """The athlete's rows as a document, or None when the athlete does not exist."""
    head = executor.execute(select(athletes).where(athletes.c.id == athlete_id)).first()
    if head is None:
        return None
    tags: dict[int, list[str]] = defaultdict(list)
    tag_rows = executor.execute(
        select(fact_tags.c.fact_id, fact_tags.c.tag)
        .join(facts, facts.c.id == fact_tags.c.fact_id)
        .where(facts.c.athlete_id == athlete_id)
    )
    for fact_id, tag in tag_rows:
        tags[fact_id].append(tag)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "athlete": {"id": head.id, "created_at": head.created_at, "updated_at": head.updated_at},
        "facts": [
            {**_pick(row, _FACT_FIELDS), "tags": sorted(tags.get(row.id, ()))}
            for row in _rows(executor, facts, athlete_id)
        ],
        "patterns": [_pick(row, _ITEM_FIELDS) for row in _rows(executor, patterns, athlete_id)],
        "notes": [_pick(row, _ITEM_FIELDS) for row in _rows(executor, notes, athlete_id)],
        "archive": [_pick(row, _ARCHIVE_FIELDS) for row in _rows(executor, archive, athlete_id)],
    }
    try:
        return ExportDocument.model_validate(data, context={STORED: True})
    except ValidationError as error:
        raise VaultError(
            f"the stored memory of athlete {athlete_id!r} cannot be exported: "
            f"{describe_validation_error(error)}"
        ) from None


def _rows(executor: Executor, table: Table, athlete_id: str) -> list[Any]:
    statement = select(table).where(table.c.athlete_id == athlete_id).order_by(table.c.id)
    return list(executor.execute(statement))


def _pick(row: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    mapping = row._mapping
    return {f: (mapping[f].value if isinstance(mapping[f], Enum) else mapping[f]) for f in fields}


def render(document: dict[str, Any], fmt: str = "json") -> str:
    """The document as text: indented JSON, or block-style YAML; both end with a newline."""
    if fmt == "json":
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if fmt == "yaml":
        # a huge width keeps every text on one line; safe_dump quotes what YAML would retype
        return str(yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=1_000_000))
    raise InvalidInput(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}")


def load_text(text: str, where: str = "document") -> Any:
    """Parse JSON or YAML text (JSON when it starts with `{`), or raise InvalidInput."""
    try:
        if text.lstrip().startswith("{"):
            return json.loads(text)
        return yaml.safe_load(text)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            f"{where} is not valid JSON: {error.msg} (line {error.lineno})"
        ) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(error, "problem", None) or "syntax error"
        raise InvalidInput(f"{where} is not valid YAML: {problem}{line}") from None


def parse_text(text: str, where: str = "document") -> ExportDocument:
    """Parse and validate a `vault-export` document given as JSON or YAML text."""
    return parse_document(load_text(text, where))
