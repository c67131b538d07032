"""Read one athlete's whole memory as a `vault-export` document, and write it as JSON or YAML."""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

import yaml
from pydantic import ValidationError

from vault.domain.document import FORMAT, STORED, VERSION, ExportDocument
from vault.domain.errors import AthleteNotFound, InvalidInput, VaultError
from vault.domain.models import describe_validation_error, validated_athlete
from vault.domain.vocabulary import Kind
from vault.services.interchange.validate import validate_document
from vault.storage.repositories.snapshot import ARCHIVE, COLUMNS, TAGS, Row, Snapshot
from vault.storage.uow import UnitOfWork

FORMATS = ("json", "yaml")

# What a document holds per row: the table's columns but `normalized_text` (derived from text).
EXPORTED = {
    space: tuple(c for c in columns if c != "normalized_text") for space, columns in COLUMNS.items()
}
_LISTS = (
    ("facts", Kind.FACT.value),
    ("patterns", Kind.PATTERN.value),
    ("notes", Kind.NOTE.value),
    ("archive", ARCHIVE),
)


def export_athlete(uow: UnitOfWork, athlete_id: str) -> dict[str, Any]:
    """One athlete's memory as a `vault-export` v1 document (plain JSON values).

    Reads in the unit of work's transaction, so the document is a consistent snapshot.

    Raises:
        AthleteNotFound: the vault holds nothing about the athlete.
    """
    athlete = validated_athlete(athlete_id)
    document = read_document(uow, athlete)
    if document is None:
        raise AthleteNotFound(athlete)
    return document.canonical()


def read_document(uow: UnitOfWork, athlete_id: str) -> ExportDocument | None:
    """The athlete's rows as a document, or None when the athlete does not exist."""
    snapshot = uow.snapshots.read(athlete_id)
    return None if snapshot is None else to_document(snapshot)


def to_document(snapshot: Snapshot) -> ExportDocument:
    """A snapshot read from the vault as a document (as stored: the import-side checks are off)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "athlete": {"id": snapshot.athlete_id, **snapshot.athlete},
    }
    for name, space in _LISTS:
        extra = (TAGS,) if space in (Kind.FACT.value, ARCHIVE) else ()
        data[name] = [_pick(row, EXPORTED[space] + extra) for row in getattr(snapshot, name)]
    try:
        return ExportDocument.model_validate(data, context={STORED: True})
    except ValidationError as error:
        raise VaultError(
            f"the stored memory of athlete {snapshot.athlete_id!r} cannot be exported: "
            f"{describe_validation_error(error)}"
        ) from None


def _pick(row: Row, fields: tuple[str, ...]) -> Row:
    return {f: (row[f].value if isinstance(row[f], Enum) else row[f]) for f in fields}


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
    except RecursionError:
        raise InvalidInput(f"{where} is nested too deeply to read") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(error, "problem", None) or "syntax error"
        raise InvalidInput(f"{where} is not valid YAML: {problem}{line}") from None


def parse_text(text: str, where: str = "document") -> ExportDocument:
    """Parse and validate a `vault-export` document given as JSON or YAML text."""
    return validate_document(load_text(text, where))
