"""The `vault-export` document, version 1: one athlete's whole memory, every column kept.

    format: vault-export
    version: 1
    athlete: {id, created_at, updated_at}
    facts: [{id, text, category, conflict_key, source, source_ref, extractor, confidence,
             base_confidence, occurrences, tags, learned_at, observed_at, last_reinforced_at,
             updated_at}]
    patterns / notes: [{id, text, source, source_ref, extractor, confidence, occurrences,
                        learned_at, last_reinforced_at, updated_at}]
    archive: [{id, kind, original_id, original_text, category, conflict_key, source, confidence,
               occurrences, tags, learned_at, superseded_by, reason, archived_at}]

`tags` of an archive row (the tags a fact had when it left; revision 0006) is optional on
import: a document written before it has none, and imports as an archive without tags.

Times are UTC text with microseconds and `Z`; lists are ordered by id; `normalized_text` is
not exported (it is derived from `text` on import). The same model validates an imported
document and renders an exported one, so both go through one canonical form.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from vault.domain.errors import InvalidInput
from vault.domain.models import (
    AthleteId,
    CategoryField,
    Confidence,
    FactText,
    ItemText,
    OptionalRef,
    describe_validation_error,
)
from vault.domain.rules import CAPS
from vault.domain.text import normalize_text
from vault.domain.times import format_utc, in_range, parse_iso_time
from vault.domain.vocabulary import ArchiveReason, Kind, Source

FORMAT = "vault-export"
VERSION = 1
STORED = "stored"  # validation context: the rows come from the vault itself


def _time(value: Any) -> Any:
    if isinstance(value, str):
        return in_range(parse_iso_time(value))
    if isinstance(value, datetime):
        return in_range(value)
    return value


Time = Annotated[
    datetime,
    BeforeValidator(_time),
    PlainSerializer(format_utc, return_type=str, when_used="json"),
]
Id = Annotated[int, Field(ge=1, strict=True)]
Count = Annotated[int, Field(ge=1, strict=True)]
Key = Annotated[Union[str, None], Field(default=None, min_length=1, max_length=60)]
Extractor = Annotated[Union[str, None], Field(default=None, max_length=100)]


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class AthleteDoc(_Part):
    id: AthleteId
    created_at: Time
    updated_at: Time


def _checked_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    for tag in tags:
        prefix, _, entity = tag.partition(":")
        if not prefix or not entity or len(tag) > 60 or tag != tag.strip().lower():
            raise ValueError(f"tag {tag!r} must look like 'kind:entity' in lower case")
    if len(set(tags)) != len(tags):
        raise ValueError("tags repeat")
    return tuple(sorted(tags))


class FactDoc(_Part):
    id: Id
    text: FactText
    category: CategoryField
    conflict_key: Key
    source: Source
    source_ref: OptionalRef
    extractor: Extractor
    confidence: Confidence
    base_confidence: Confidence
    occurrences: Count
    tags: tuple[str, ...] = ()
    learned_at: Time
    observed_at: Time
    last_reinforced_at: Time
    updated_at: Time

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        return _checked_tags(tags)


class ItemDoc(_Part):
    id: Id
    text: ItemText
    source: Source
    source_ref: OptionalRef
    extractor: Extractor
    confidence: Confidence
    occurrences: Count
    learned_at: Time
    last_reinforced_at: Time
    updated_at: Time


class ArchiveDoc(_Part):
    id: Id
    kind: Kind
    original_id: Union[Id, None] = None
    original_text: ItemText
    category: Union[CategoryField, None] = None
    conflict_key: Key
    source: Source
    confidence: Confidence
    occurrences: Count
    tags: tuple[str, ...] = ()  # optional: documents written before revision 0006 have none
    learned_at: Time
    superseded_by: Union[Id, None] = None
    reason: ArchiveReason
    archived_at: Time

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: tuple[str, ...]) -> tuple[str, ...]:
        return _checked_tags(tags)


class ExportDocument(_Part):
    """A whole `vault-export` document; validation checks what the database would refuse."""

    format: Literal["vault-export"]
    version: Literal[1]
    athlete: AthleteDoc
    facts: tuple[FactDoc, ...] = ()
    patterns: tuple[ItemDoc, ...] = ()
    notes: tuple[ItemDoc, ...] = ()
    archive: tuple[ArchiveDoc, ...] = ()

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> ExportDocument:
        if info.context and info.context.get(STORED):
            return self  # read from the database: export what is there, import will check it
        for name, rows in (
            ("facts", self.facts),
            ("patterns", self.patterns),
            ("notes", self.notes),
            ("archive", self.archive),
        ):
            _unique(name, "id", [r.id for r in rows])
        for name, kind in (("facts", Kind.FACT), ("patterns", Kind.PATTERN), ("notes", Kind.NOTE)):
            rows = getattr(self, name)
            if len(rows) > CAPS[kind]:
                raise ValueError(f"{name}: {len(rows)} items; the vault keeps at most {CAPS[kind]}")
            _unique(name, "normalized text", [normalize_text(r.text) for r in rows])
        _unique("facts", "conflict key", [f.conflict_key for f in self.facts if f.conflict_key])
        return self

    def canonical(self) -> dict[str, Any]:
        """The document as `vault export` writes it: plain JSON values, lists ordered by id."""
        data = self.model_dump(mode="json")
        for name in ("facts", "patterns", "notes", "archive"):
            data[name] = sorted(data[name], key=lambda row: row["id"])
        return data


def _unique(where: str, what: str, values: list[Any]) -> None:
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{where}: two items share the {what} {value!r}")
        seen.add(value)


def parse_document(data: Any) -> ExportDocument:
    """Validate a whole document (a dict from JSON or YAML), or raise InvalidInput."""
    if isinstance(data, ExportDocument):
        return data
    if not isinstance(data, dict):
        raise InvalidInput("a vault-export document must be a mapping (JSON object)")
    if data.get("format") != FORMAT:
        raise InvalidInput(f"not a vault-export document (format is {data.get('format')!r})")
    if data.get("version") != VERSION:
        raise InvalidInput(
            f"unsupported vault-export version {data.get('version')!r}; this vault reads {VERSION}"
        )
    try:
        return ExportDocument.model_validate(data)
    except ValidationError as error:
        raise InvalidInput(
            f"invalid vault-export document: {describe_validation_error(error)}"
        ) from None
