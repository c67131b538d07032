"""Import the M13 spec's `athlete/memories.yaml` (M13 Memory & Insights) into one athlete.

Mapping (the M13 spec §4.1 / §6 -> vault):

| memories.yaml        | vault                                                             |
|----------------------|-------------------------------------------------------------------|
| `type`               | `category` (`injury_history` -> `injury`; the others by name)     |
| `content`            | `text`; conflict key derived from it as in a merge                |
| `source`             | `source` (activity_note, user_message, pattern_analysis, manual)  |
| `source_reference`   | `source_ref`                                                      |
| `created_at`         | `learned_at`                                                      |
| `updated_at`         | `observed_at` (the last observation)                              |
| `confidence`         | high / medium / low -> 0.9 / 0.6 / 0.4 (LEVEL_CONFIDENCE)         |
| `occurrences`, `tags`| kept (tags derived from the text when the key is absent)          |
| `archived[]`         | archive rows, reason `superseded`; `superseded_by` -> our fact id |
|                      | when the referenced memory was imported (else empty)              |

The M13 spec ids (`mem_...`) are not vault ids: the report maps each to the fact that holds it.
The file is resolved like a legacy document (`vault.domain.adoption`): repeated texts
become one fact, a conflict key keeps the newest, the 15-fact cap archives the rest. Archived
memories carry no type, source or confidence in the M13 spec: the superseding memory's category
and source are used when known (else derived / `manual`), and confidence 0.6 (medium).
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

from vault.domain.adoption import ProtoFact, Resolution, resolve
from vault.domain.document import Time
from vault.domain.errors import InvalidInput
from vault.domain.models import (
    CategoryField,
    FactIn,
    FactText,
    ItemText,
    describe_validation_error,
    validated_athlete,
)
from vault.domain.text import category_of, conflict_key_of
from vault.domain.times import format_utc, require_aware, utc_now
from vault.domain.vocabulary import LEVEL_CONFIDENCE, ArchiveReason, Kind, Level, Source
from vault.services import privacy_gate
from vault.services.interchange.export import load_text
from vault.services.interchange.restore import ImportReport
from vault.services.interchange.writer import ArchivedExtra, ListDefaults, resolution_snapshot
from vault.storage.uow import UnitOfWork

EXTRACTOR = "memories.yaml"
ARCHIVED_CONFIDENCE = LEVEL_CONFIDENCE[Level.MEDIUM]
_LISTS = {kind: ListDefaults(Source.MANUAL, 0.7) for kind in (Kind.PATTERN, Kind.NOTE)}


def _reference(value: Any) -> Any:
    """An unquoted YAML timestamp reference arrives as a datetime: keep it as RFC 3339 text."""
    if not isinstance(value, datetime):
        return value
    # astimezone first: a naive YAML timestamp is read as local time, as it always was
    return format_utc(value.astimezone(timezone.utc))


Reference = Annotated[
    Union[Annotated[str, Field(max_length=200)], None], BeforeValidator(_reference)
]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)


class Memory(_Entry):
    """One entry of `memories:` (the M13 spec's Memory)."""

    id: str = Field(min_length=1, max_length=100)
    type: CategoryField
    content: FactText
    source: Source
    source_reference: Reference = None
    created_at: Time
    updated_at: Time
    confidence: Level
    occurrences: int = Field(default=1, ge=1, strict=True)
    tags: Union[list[str], None] = None


class ArchivedMemory(_Entry):
    """One entry of `archived:` (the M13 spec's ArchivedMemory)."""

    id: str = Field(min_length=1, max_length=100)
    original_content: ItemText
    superseded_by: Union[str, None] = None
    archived_at: Time
    reason: Union[str, None] = None


class MemoriesFile(BaseModel):
    """The whole file; `_schema` is checked when present, other top-level keys are refused."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    schema_: Union[dict[str, Any], None] = Field(default=None, alias="_schema")
    memories: list[Memory] = []
    archived: list[ArchivedMemory] = []

    @field_validator("schema_")
    @classmethod
    def _is_memories(cls, schema: dict[str, Any] | None) -> dict[str, Any] | None:
        if schema is not None and schema.get("schema_type", "memories") != "memories":
            raise ValueError(f"schema_type is {schema.get('schema_type')!r}, not 'memories'")
        return schema


def import_memories_yaml(
    uow: UnitOfWork,
    source: Union[str, dict[str, Any]],
    athlete_id: str,
    *,
    replace: bool = False,
    now: datetime | None = None,
    where: str = "the YAML text",
    trusted: bool = False,
) -> ImportReport:
    """Import a memories.yaml as `athlete_id`'s memory, inside the caller's unit of work.

    `source` is the YAML text (`str`) or the mapping it holds; `where` names it in errors
    (`read_source` reads a file and gives both). The whole file is validated first; a bad file
    raises InvalidInput and writes nothing. An athlete who already has memory is refused unless
    `replace=True`. The caller commits.
    """
    athlete = validated_athlete(athlete_id)
    parsed = _parse(load_text(source, where) if isinstance(source, str) else source, where)
    if not parsed.memories and not parsed.archived:
        raise InvalidInput(f"{where} holds no memories")
    if not privacy_gate.require_bool(trusted):
        privacy_gate.check_memories_file(parsed.memories, parsed.archived)
    moment = utc_now() if now is None else require_aware(now, "now")
    protos = [_proto(i, m) for i, m in enumerate(parsed.memories)]
    res = resolve(protos, [], [])
    extra, messages = _archived(parsed.archived, res)
    existing = uow.snapshots.read(athlete, lock=True)
    if (
        existing is not None
        and not replace
        and (existing.facts or existing.patterns or existing.notes or existing.archive)
    ):
        raise InvalidInput(
            f"athlete {athlete!r} already has memory in this vault; "
            "replace it with --replace (library: replace=True)"
        )
    times = [p.learned_at for p in protos] + [a.archived_at for a in parsed.archived]
    rows = resolution_snapshot(
        athlete,
        res,
        created_at=min(times + [moment]),
        now=moment,
        extractor=EXTRACTOR,
        lists=_LISTS,
        extra=extra,
    )
    fact_ids = uow.snapshots.replace(rows).of(Kind.FACT)
    indexes = {m.id: res.fact_index_of(m.id) for m in parsed.memories}
    mapping = {ref: fact_ids[i + 1] for ref, i in indexes.items() if i is not None}
    return ImportReport(
        athlete_id=athlete,
        changed=True,
        facts=len(res.facts),
        patterns=0,
        notes=0,
        archived=len(res.archived) + len(extra),
        ids=mapping,
        messages=tuple(res.messages + messages),
    )


def read_source(source: Union[str, os.PathLike[str]]) -> tuple[str, str]:
    """The text to import and how errors name it: a path is read, a `str` is the YAML itself."""
    if isinstance(source, str):
        return source, "the YAML text"
    path = Path(source)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except FileNotFoundError:
        raise InvalidInput(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInput(f"cannot read {path}: {error}") from None


def _parse(data: Any, where: str) -> MemoriesFile:
    if not isinstance(data, dict):
        raise InvalidInput(f"{where} is not a memories.yaml mapping (memories: / archived:)")
    try:
        parsed = MemoriesFile.model_validate(data)
    except ValidationError as error:
        raise InvalidInput(f"{where}: {describe_validation_error(error)}") from None
    seen: set[str] = set()
    for memory in parsed.memories:
        if memory.id in seen:
            raise InvalidInput(f"{where}: memory id {memory.id!r} appears twice")
        seen.add(memory.id)
    return parsed


def _proto(position: int, memory: Memory) -> ProtoFact:
    label = f"memories[{position}] ({memory.id})"
    try:
        fact = FactIn(
            text=memory.content,
            category=memory.type,
            source=memory.source,
            source_ref=memory.source_reference,
            confidence=LEVEL_CONFIDENCE[memory.confidence],
            tags=None if memory.tags is None else frozenset(memory.tags),
        )
    except ValidationError as error:
        raise InvalidInput(f"{label}: {describe_validation_error(error)}") from None
    return ProtoFact.from_fact_in(
        fact,
        position=position,
        label=label,
        occurrences=memory.occurrences,
        learned_at=min(memory.created_at, memory.updated_at),
        observed_at=max(memory.created_at, memory.updated_at),
        refs=frozenset({memory.id}),
    )


def _archived(
    entries: list[ArchivedMemory], res: Resolution
) -> tuple[list[ArchivedExtra], list[str]]:
    extra: list[ArchivedExtra] = []
    messages: list[str] = []
    for i, entry in enumerate(entries):
        index = None if entry.superseded_by is None else res.fact_index_of(entry.superseded_by)
        if entry.superseded_by is not None and index is None:
            messages.append(
                f"archived[{i}] ({entry.id}): superseded_by {entry.superseded_by!r} is not an "
                "imported memory; kept without a successor"
            )
        successor = None if index is None else res.facts[index]
        extra.append(
            ArchivedExtra(
                text=entry.original_content,
                category=successor.category if successor else category_of(entry.original_content),
                conflict_key=conflict_key_of(entry.original_content),
                source=successor.source if successor else Source.MANUAL,
                confidence=ARCHIVED_CONFIDENCE,
                learned_at=entry.archived_at,
                superseded_by=index,
                reason=ArchiveReason.SUPERSEDED,
                archived_at=entry.archived_at,
            )
        )
    return extra, messages
