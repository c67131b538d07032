"""Pydantic models at the boundary: what callers give the vault and what it gives back."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any, NamedTuple, TypeVar, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    computed_field,
    field_validator,
    model_validator,
)

from vault.domain.errors import InvalidInput
from vault.domain.limits import ATHLETE_ID_MAX, FACT_TEXT_MAX, ITEM_TEXT_MAX
from vault.domain.text import category_of, clean_text, conflict_key_of, entity_tags, normalize_text
from vault.domain.times import require_aware
from vault.domain.vocabulary import (
    ArchiveReason,
    Category,
    Kind,
    Level,
    Source,
    level_of,
    parse_category,
)


def _athlete_id(value: str) -> str:
    cleaned = value.strip()
    if not cleaned:
        raise ValueError("athlete id must not be empty")
    if len(cleaned) > ATHLETE_ID_MAX:
        raise ValueError(f"athlete id is longer than {ATHLETE_ID_MAX} characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in cleaned):
        raise ValueError("athlete id must not contain control characters")
    return cleaned


def _memory_text(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        cleaned = clean_text(value)
        if not cleaned:
            raise ValueError("text must not be empty")
        if len(cleaned) > limit:
            raise ValueError(f"text is {len(cleaned)} characters; the limit is {limit}")
        if not normalize_text(cleaned):
            raise ValueError("text must contain at least one letter or digit")
        return cleaned

    return AfterValidator(check)


def _confidence(value: float) -> float:
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"confidence must be a number from 0 to 1, got {value}")
    return float(value)


def _aware(value: datetime) -> datetime:
    return require_aware(value, "observed_at")


def _category(value: Any) -> Any:
    return parse_category(value) if isinstance(value, str) else value


AthleteId = Annotated[str, AfterValidator(_athlete_id)]
Confidence = Annotated[float, AfterValidator(_confidence)]
AwareTime = Annotated[datetime, AfterValidator(_aware)]
FactText = Annotated[str, _memory_text(FACT_TEXT_MAX)]
ItemText = Annotated[str, _memory_text(ITEM_TEXT_MAX)]
CategoryField = Annotated[Category, BeforeValidator(_category)]
OptionalRef = Annotated[Union[str, None], Field(default=None, max_length=200)]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class FactIn(_Input):
    """A key fact to merge. Category, conflict key and tags are derived from the text when absent."""

    text: FactText
    category: Union[CategoryField, None] = None
    conflict_key: Union[str, None] = Field(default=None, max_length=60)
    source: Source = Source.MANUAL
    source_ref: OptionalRef = None
    extractor: Union[str, None] = Field(default=None, max_length=100)
    confidence: Confidence = 0.8
    observed_at: Union[AwareTime, None] = None
    tags: Union[frozenset[str], None] = None

    @field_validator("tags")
    @classmethod
    def _tags_are_prefixed(cls, tags: frozenset[str] | None) -> frozenset[str] | None:
        if tags is None:
            return None
        for tag in tags:
            prefix, _, entity = tag.partition(":")
            if not prefix or not entity or len(tag) > 60:
                raise ValueError(f"tag {tag!r} must look like 'kind:entity' (e.g. 'body:knee')")
        return frozenset(t.strip().lower() for t in tags)

    @model_validator(mode="after")
    def _derive(self) -> "FactIn":
        if self.conflict_key is None:
            self.conflict_key = conflict_key_of(self.text)
        elif not self.conflict_key.strip():
            self.conflict_key = None
        else:
            self.conflict_key = clean_text(self.conflict_key).lower()
        if self.category is None:
            self.category = category_of(self.text)
        if self.tags is None:
            self.tags = entity_tags(self.text, self.category)
        return self


class _ListItemIn(_Input):
    text: ItemText
    source_ref: OptionalRef = None
    extractor: Union[str, None] = Field(default=None, max_length=100)
    confidence: Confidence = 0.7
    observed_at: Union[AwareTime, None] = None


class PatternIn(_ListItemIn):
    """A recurring pattern to merge ("skips Mondays frequently")."""

    source: Source = Source.PATTERN_ANALYSIS


class NoteIn(_ListItemIn):
    """A coaching note to merge ("responds well to encouragement after hard sessions")."""

    source: Source = Source.MANUAL


class Retraction(_Input):
    """The athlete said a fact no longer holds ("my knee is fine now"): archive it as resolved.

    Matches active facts by conflict key, or by category plus an overlapping entity tag.
    """

    conflict_key: Union[str, None] = None
    category: Union[CategoryField, None] = None
    tags: frozenset[str] = frozenset()
    observed_at: Union[AwareTime, None] = None
    extractor: Union[str, None] = None

    @model_validator(mode="after")
    def _has_target(self) -> "Retraction":
        if not self.conflict_key and not (self.category and self.tags):
            raise ValueError("a retraction needs a conflict_key, or a category with tags")
        return self


Candidate = Union[FactIn, PatternIn, NoteIn, Retraction]

_Model = TypeVar("_Model", bound=BaseModel)


def validated(model: type[_Model], data: Any) -> _Model:
    """Build `model` from `data` (or accept an instance), raising InvalidInput on bad input."""
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(describe_validation_error(exc)) from None


def validated_athlete(athlete_id: Any) -> str:
    """A trimmed, checked athlete id, or InvalidInput."""
    if not isinstance(athlete_id, str):
        raise InvalidInput("athlete id must be a string")
    try:
        return _athlete_id(athlete_id)
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None


def describe_validation_error(exc: ValidationError) -> str:
    """One readable line per problem: `field: message`."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "input"
        message = str(error["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


# ---- results ----------------------------------------------------------------------------------


class _Output(BaseModel):
    model_config = ConfigDict(frozen=True, from_attributes=True)


class Fact(_Output):
    """An active key fact as stored."""

    id: int
    athlete_id: str
    text: str
    category: Category
    conflict_key: Union[str, None]
    source: Source
    source_ref: Union[str, None]
    extractor: Union[str, None]
    confidence: float
    occurrences: int
    tags: tuple[str, ...]
    learned_at: datetime
    observed_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime
    kind: Kind = Kind.FACT

    @computed_field  # type: ignore[prop-decorator]
    @property
    def level(self) -> Level:
        return level_of(self.confidence)


class ListItem(_Output):
    """An active pattern or coaching note as stored."""

    id: int
    athlete_id: str
    kind: Kind
    text: str
    source: Source
    source_ref: Union[str, None]
    extractor: Union[str, None]
    confidence: float
    occurrences: int
    learned_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def level(self) -> Level:
        return level_of(self.confidence)


class Archived(_Output):
    """An item that left the active set, and why."""

    id: int
    athlete_id: str
    kind: Kind
    original_id: Union[int, None]
    original_text: str
    category: Union[Category, None]
    conflict_key: Union[str, None]
    source: Source
    confidence: float
    occurrences: int
    learned_at: datetime
    superseded_by: Union[int, None]
    reason: ArchiveReason
    archived_at: datetime


class Ignored(_Output):
    """A candidate that changed nothing, and why."""

    text: str
    reason: str


class MergeResult(_Output):
    """What one merge added, updated, archived and ignored (seed 002's ExtractionResult)."""

    added: tuple[Union[Fact, ListItem], ...] = ()
    updated: tuple[Union[Fact, ListItem], ...] = ()
    archived: tuple[Archived, ...] = ()
    ignored: tuple[Ignored, ...] = ()


class DecayResult(_Output):
    """How many facts a whole-vault decay lowered, and how many fell below 0.3 and were archived.

    Counts only: a run over the whole vault may touch millions of rows (see `Vault.archive` for
    what was archived, reason `decayed`)."""

    lowered: int
    archived: int


class ForgetResult(_Output):
    """Counts of what a forget request erased (the text itself is never kept)."""

    facts: int
    patterns: int
    notes: int
    archived: int


class AthleteMemory(_Output):
    """Everything active for one athlete."""

    athlete_id: str
    facts: tuple[Fact, ...]
    patterns: tuple[ListItem, ...]
    notes: tuple[ListItem, ...]
    updated_at: Union[datetime, None]


class PromptRow(NamedTuple):
    """One active item as the prompt renderers need it, read without building a model per row."""

    kind: Kind
    id: int
    text: str
    confidence: float


class AthleteSummary(_Output):
    """A row of the `athlete_summary` view."""

    athlete_id: str
    fact_count: int
    prompt_fact_count: int
    pattern_count: int
    note_count: int
    archived_count: int
    created_at: datetime
    last_updated: datetime
