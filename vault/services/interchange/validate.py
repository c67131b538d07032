"""What an imported `vault-export` document must satisfy beyond its model (vault.domain.document).

The model checks types, ranges, caps and uniqueness. Here: the version is the integer 1 (not
`true` or `1.0`, which compare equal to 1 in Python), every id fits a 64-bit signed integer
(ids are only labels, renumbered on import, but no vault could have exported a bigger one),
and every `superseded_by` names a fact of the document: an active fact's `id` or an archived
fact's `original_id`.
"""

from __future__ import annotations

from typing import Any

from vault.domain.document import FORMAT, VERSION, ExportDocument, parse_document
from vault.domain.errors import InvalidInput
from vault.domain.vocabulary import Kind
from vault.services import privacy_gate

MAX_ID = 2**63 - 1  # the largest INTEGER of SQLite and BIGINT of PostgreSQL


def validate_document(data: Any) -> ExportDocument:
    """Validate a whole document (a dict from JSON or YAML, or a model), or raise InvalidInput."""
    if isinstance(data, dict) and data.get("format") == FORMAT:
        version = data.get("version")
        if type(version) is not int:  # bool and float must not pass for 1
            raise InvalidInput(
                f"unsupported vault-export version {version!r}; this vault reads {VERSION}"
            )
    doc = parse_document(data)
    _check_ids(doc)
    _check_successors(doc)
    return doc


def check_privacy(doc: ExportDocument) -> None:
    """Every text, source_ref and tag passes the privacy gate every other write passes
    (`vault.services.privacy_gate`), or InvalidInput names the row. Skipped only for trusted
    imports."""
    privacy_gate.check_document(doc)


def _check_ids(doc: ExportDocument) -> None:
    lists: tuple[tuple[str, Any], ...] = (
        ("facts", doc.facts),
        ("patterns", doc.patterns),
        ("notes", doc.notes),
        ("archive", doc.archive),
    )
    for name, rows in lists:
        for i, row in enumerate(rows):
            for column in ("id", "original_id", "superseded_by"):
                value = getattr(row, column, None)
                if value is not None and value > MAX_ID:
                    raise InvalidInput(
                        f"invalid vault-export document: {name}.{i}.{column}: {value} is out "
                        f"of range (ids are 1 to {MAX_ID})"
                    )


def _check_successors(doc: ExportDocument) -> None:
    facts = {f.id for f in doc.facts}
    facts |= {
        a.original_id for a in doc.archive if a.kind is Kind.FACT and a.original_id is not None
    }
    for i, row in enumerate(doc.archive):
        if row.superseded_by is not None and row.superseded_by not in facts:
            raise InvalidInput(
                f"invalid vault-export document: archive.{i} (id {row.id}): superseded_by "
                f"{row.superseded_by} is no fact of the document (neither a fact's id nor an "
                "archived fact's original_id)"
            )
